/** Tool-name resolution (`src/toolshim/names.ts`): one rule per row, each with a concrete outcome. */
import { describe, expect, it } from "vitest";
import { nameCandidates } from "../../src/toolshim/names.js";
import { recoverDeterministic, resolveToolName } from "../../src/toolshim/index.js";
import { normalizeToolAlias, isSideEffectToolName } from "../../src/toolshim/policy.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools = (...names: string[]): OfferedTool[] => names.map((name) => ({ name }));
const CODE = tools("search_code", "find_symbol", "read_evidence", "find_importers", "read_git_diff");

/** One resolution: the rule, the name as written, the offered tools, the expected offered name. */
type Row = [string, string, OfferedTool[], string | undefined];

/** One test per row: `resolveToolName` gives the expected name. */
function resolvesAs(table: readonly Row[]): void {
  for (const [rule, name, offered, want] of table) {
    it(`${rule}: ${JSON.stringify(name)} → ${String(want)}`, () => {
      expect(resolveToolName(name, offered)).toBe(want);
    });
  }
}

describe("resolveToolName", () => {
  const table: Row[] = [
    ["exact name", "search_code", CODE, "search_code"],
    ["functions. prefix and :N index (Kimi)", "functions.search_code:0", CODE, "search_code"],
    ["functions: prefix", "functions:read_evidence", CODE, "read_evidence"],
    ["default_api. prefix (Gemini)", "default_api.find_symbol", CODE, "find_symbol"],
    ["surrounding quotes and backticks", "`find_importers`", CODE, "find_importers"],
    ["trailing ()", "read_git_diff()", CODE, "read_git_diff"],
    ["dot to dunder", "developer.shell", tools("developer__shell"), "developer__shell"],
    ["dunder to dot", "ns__tool", tools("ns.tool"), "ns.tool"],
    ["functions. prefix then dot to dunder (goose test 40)", "functions.Nadirclawusage.usageSummary:1", tools("Nadirclawusage__usageSummary"), "Nadirclawusage__usageSummary"],
    ["last segment of a namespaced name", "functions.developer__search_code", CODE, "search_code"],
    ["junk prefix before the last dot (goose#8269)", "emoji_functions.read_evidence:0", CODE, "read_evidence"],
    ["unique namespace suffix", "text_search", tools("ext__text_search", "ext__other"), "ext__text_search"],
    ["ambiguous namespace suffix is unresolved", "search", tools("a__search", "b__search"), undefined],
    ["hyphens for underscores", "search-code", CODE, "search_code"],
    ["underscores for hyphens (a pythonic call cannot write a hyphen; LM Studio bug-tracker #1358)", "resolve_library_id", tools("resolve-library-id", "get-library-docs"), "resolve-library-id"],
    ["mixed separators", "get_library-docs", tools("resolve-library-id", "get-library-docs"), "get-library-docs"],
    ["separator drift that names two tools is unresolved", "a-b_c", tools("a_b-c", "a-b-c"), undefined],
    ["case-insensitive last resort", "Search_Code", CODE, "search_code"],
    ["case-insensitive but ambiguous is unresolved", "read", tools("Read", "READ"), undefined],
    ["unknown name", "todorantum", CODE, undefined],
    ["truncated prefix of a longer name is not a match", "say_hell", tools("say_hello", "say_hello_world"), undefined],
    ["no plain string-suffix match", "code", CODE, undefined],
    ["dot instead of colon in the index is not stripped (Kimi bad id)", "functions.invalid_get_weather.0", tools("invalid_get_weather"), undefined],
    ["never the part before the first colon (goose test 15)", "shell:functions.execute:0", tools("shell"), undefined],
    ["names with whitespace are not names", "label functions.search_code:0", CODE, undefined],
    ["empty", "  ", CODE, undefined],
    ["no tools offered", "search_code", [], undefined],
    ["an offered tool literally named execute() (goose test 18)", "functions.execute():0", tools("execute()"), "execute()"],
  ];
  resolvesAs(table);
});

describe("the whitelist under odd spellings: another namespace or a look-alike is not the offered tool", () => {
  const MCP = tools("mcp__fs__list_dir", "read_file", "kill_query");
  resolvesAs([
    ["another MCP server's tool is not offered", "mcp__git__list_dir", MCP, undefined],
    ["another namespace written with dots", "git.list_dir", MCP, undefined],
    ["the same server, its prefix dropped", "fs.list_dir", MCP, "mcp__fs__list_dir"],
    ["the same server, spelled with dots", "mcp.fs.list_dir", MCP, "mcp__fs__list_dir"],
    ["no namespace written", "functions.list_dir:0", MCP, "mcp__fs__list_dir"],
    ["a namespace before an offered tool that has none", "mcp__srv__read_file", MCP, "read_file"],
    ["upper case", "READ_FILE", MCP, "read_file"],
    ["a Cyrillic e", "r\u0435ad_file", MCP, undefined],
    ["full-width letters", "\uff52\uff45\uff41\uff44_file", MCP, undefined],
    ["a zero-width space", "read_file\u200b", MCP, undefined],
    ["the Kelvin sign (its lower case is k)", "\u212aill_query", MCP, undefined],
    ["a side-effect name with another namespace", "mcp__srv__bash", tools("mcp__fs__bash"), undefined],
  ]);

  it("a call to another server's tool written in any dialect is refused, never run as the offered one", () => {
    const offered = [{ name: "mcp__fs__list_dir", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    for (const content of [
      '<tool_call>{"name": "mcp__git__list_dir", "arguments": {"path": "."}}</tool_call>',
      "<tool: function>\nmcp__git__list_dir .\n</tool>",
      "<tool_call>mcp__git__list_dir\n<arg_key>path</arg_key>\n<arg_value>.</arg_value>\n</tool_call>",
      ' to=mcp__git__list_dir<|message|><atem:function_calls>\n<atem:invoke name="mcp__git__list_dir<|message|>">\n<atem:parameter name="path">.</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>',
    ]) {
      const r = recoverDeterministic({ content }, offered);
      expect(r.tool_calls, content).toEqual([]);
      expect(r.rejected.map((x) => x.name), content).toEqual(["mcp__git__list_dir"]);
    }
  });
});

describe("fail closed: side-effect names never map onto another offered tool", () => {
  const table: [string, OfferedTool[], string | undefined][] = [
    ["shell", tools("developer__shell", "search_code"), undefined],
    ["bash", tools("bash_history_reader"), undefined],
    ["functions.execute:0", CODE, undefined],
    ["functions.execute():0", CODE, undefined],
    ["write_file", tools("read_file", "x__write_file"), undefined],
    ["Bash", tools("bash"), "bash"],
    ["python", tools("special_function", "python"), "python"],
    ["developer.shell", tools("developer__shell"), "developer__shell"],
  ];
  for (const [name, offered, want] of table) {
    it(`${name} with [${offered.map((t) => t.name).join(", ")}] → ${String(want)}`, () => {
      expect(resolveToolName(name, offered)).toBe(want);
    });
  }

  it("normalises aliases the way the policy compares them", () => {
    expect(normalizeToolAlias("functions.execute():0")).toBe("execute");
    expect(normalizeToolAlias("functions.Execute:3")).toBe("execute");
    expect(normalizeToolAlias("developer__shell")).toBe("shell");
    expect(normalizeToolAlias("functions.execute_helper():0")).toBe("execute_helper");
    expect(isSideEffectToolName("functions.execute_helper():0")).toBe(false);
    expect(isSideEffectToolName("run_shell_command")).toBe(true);
  });
});

describe("names written as words: the tool's name, title or description (rule 6)", () => {
  const TITLED: OfferedTool[] = [
    { name: "search_code", title: "Search code", description: "Search the repository for text or a regular expression." },
    { name: "tag_document", description: "Apply tags to a document. The tags must exist." },
    { name: "find_symbol", title: "Look up a definition" },
  ];
  const table: Row[] = [
    ["the name with spaces and capitals (Hermes)", "Search Code", CODE, "search_code"],
    ["the name in lower-case words", "read git diff", CODE, "read_git_diff"],
    ["the name with hyphens and capitals", "Find-Importers", CODE, "find_importers"],
    ["the title", "Search code", TITLED, "search_code"],
    ["the title in other capitals, with a closing period", "look up a Definition.", TITLED, "find_symbol"],
    ["the description's first sentence (ollama#17274)", "Apply tags to a document", TITLED, "tag_document"],
    ["the whole description", "Search the repository for text or a regular expression.", TITLED, "search_code"],
    ["words that are part of a title only are no match", "Search", TITLED, undefined],
    ["a title that is another tool's name is ambiguous", "Read evidence", [{ name: "read_evidence" }, { name: "show_file", title: "Read evidence" }], undefined],
    ["two tools whose names read the same words are ambiguous", "search code", [{ name: "search_code" }, { name: "search-code" }], undefined],
    ["words naming no offered tool", "Delete Repository", TITLED, undefined],
    ["a side-effect name in words maps only to that exact name", "Write File", [{ name: "save_note", title: "Write file" }], undefined],
    ["a side-effect name in words, offered under that name", "Write File", [{ name: "write_file" }], "write_file"],
  ];
  resolvesAs(table);

  it("a Hermes call whose name is the title is run as the offered tool; one naming a tool not offered is refused", () => {
    const raw = '<tool_call>\n{"name": "Search code", "arguments": {"query": "def embed"}}\n</tool_call>';
    const r = recoverDeterministic({ content: raw }, [{ name: "search_code", title: "Search code" }, { name: "find_symbol" }]);
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "def embed" } }]);
    expect(r.content).toBe("");
    expect(r.diagnostics).toContainEqual({ stage: "names", message: '"Search code" resolved to search_code' });
    const other = recoverDeterministic({ content: raw.replace("Search code", "Run Tests") }, [{ name: "search_code", title: "Search code" }]);
    expect(other.tool_calls).toEqual([]);
    expect(other.rejected.map((c) => c.name)).toEqual(["Run Tests"]);
  });
});

describe("nameCandidates", () => {
  it("lists the cleaned spellings most specific first", () => {
    expect(nameCandidates("functions.developer.shell:2")).toEqual([
      "functions.developer.shell:2",
      "developer.shell:2",
      "developer.shell",
      "developer__shell",
      "shell",
    ]);
  });
});

describe("unknown-tool errors", () => {
  it("suggest the one close offered tool, never for side-effect names", async () => {
    const { rejectUnknownTool } = await import("../../src/toolshim/policy.js");
    expect(rejectUnknownTool("search", { q: 1 }, CODE).message).toBe(
      'no tool named "search". Did you mean search_code? The available tools are: search_code, find_symbol, read_evidence, find_importers, read_git_diff.',
    );
    expect(rejectUnknownTool("read_evidense", {}, CODE).message).toMatch(/^no tool named "read_evidense"\. Did you mean read_evidence\?/);
    expect(rejectUnknownTool("find", {}, CODE).message).toMatch(/^no tool named "find"\. The available tools are:/);
    expect(rejectUnknownTool("shell", {}, CODE).message).toMatch(/^"shell" is not available: the tools here are read-only/);
  });
});
