/**
 * Human output of the evidence commands for a user whose current directory is not the root:
 * notes and hints in the CLI's words (never an option the command lacks), locations that open
 * from the current directory, suggested commands that work when pasted, and `--json` still
 * byte-identical to the tool result envelope.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { CLI, RAG_APP, REPO_ROOT, runCli } from "./run-cli.js";

let base: string;
/** `<base>/my repo`: a root whose name needs shell quoting. */
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "codecite-human-"));
  root = path.join(base, "my repo");
  mkdirSync(root);
  const body = Array.from({ length: 58 }, (_, i) => `    y${i + 1} = x + ${i + 1}`);
  writeFileSync(path.join(root, "long.py"), ["def long_function(x):", ...body, "    return x", ""].join("\n"));
  writeFileSync(path.join(root, "big.txt"), Array.from({ length: 450 }, (_, i) => `line ${i + 1}\n`).join(""));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The envelope the tool itself returns, printed as `--json` prints it. */
async function envelope(rootDir: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await createCodeToolRegistry().dispatch({ name: tool, arguments: args }, { workspace: await Workspace.open(rootDir) });
  return `${JSON.stringify(result, null, 2)}\n`;
}

describe("notes and hints in the CLI's words", () => {
  it("symbol --kind: `Drop --kind`, with the location relative to the current directory", async () => {
    const r = await runCli(["symbol", "load_index", "--kind", "class", "--root", "examples/rag-app"], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "no results\nnote: No class named load_index, but 1 definition of other kinds: load_index (function, examples/rag-app/src/rag_common.py:60). Drop --kind to see them.\n",
    );
  });

  it("--json stays byte-identical to the tool result envelope (model words included)", async () => {
    const r = await runCli(["symbol", "load_index", "--kind", "class", "--root", "examples/rag-app", "--json"], { cwd: REPO_ROOT });
    expect(r.stdout).toBe(await envelope(RAG_APP, "find_symbol", { name: "load_index", kind: "class" }));
    expect(r.stdout).toContain("Drop kind to see them.");
    const imp = await runCli(["importers", "rag_common", "--max-results", "2", "--root", "examples/rag-app", "--json"], { cwd: REPO_ROOT });
    expect(imp.stdout).toBe(await envelope(RAG_APP, "find_importers", { module_name: "rag_common", max_results: 2 }));
    expect(imp.stdout).toContain("raise max_results");
  });

  it("symbol with no match: `Try codecite search for the text`", async () => {
    const r = await runCli(["symbol", "no_such_symbol_anywhere", "--root", RAG_APP]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Try codecite search for the text\.\n$/);
    expect(r.stderr).not.toContain("search_code");
  });

  it("importers over the cap: raise --max-results, and no --path or --kind (importers has neither)", async () => {
    const r = await runCli(["importers", "rag_common", "--max-results", "2", "--root", "examples/rag-app"], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "showing 2 of 4 results\nnote: Showing 2 of 4 records; raise --max-results to see more.\n" +
        "note: output is cut to fit a model's budget; add --all to see every record with whole snippets, or --all --max-lines N for N lines of each.\n",
    );
    expect(r.stdout).toMatch(/^examples\/rag-app\/src\/build_index\.py:4 {2}import rag_common$/m);
  });

  it("read: a missing file's hint names commands; a long file says how to read on with --start-line", async () => {
    const missing = await runCli(["read", "src/no_such_module.py", "--root", RAG_APP]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("codecite: error: NOT_FOUND: no such file: src/no_such_module.py\nhint: Check the path with codecite search or codecite symbol.\n");
    const long = await runCli(["read", "big.txt", "--root", root]);
    expect(long.code).toBe(0);
    expect(long.stderr).toContain("note: Showing lines 1-200 of 450; read on with --start-line 201.\n");
  });

  it("search: a literal that looks like a regex suggests --regex; a bad regex suggests dropping it", async () => {
    const literal = await runCli(["search", "a.b(", "--root", root]);
    expect(literal.code).toBe(0);
    expect(literal.stderr).toMatch(/The query was matched literally; add --regex for a pattern\.\n$/);
    const bad = await runCli(["search", "a(", "--regex", "--root", root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("\nhint: Check the regular expression (Rust regex syntax), or drop --regex for a literal search.\n");
  });

  it("search: a regex ripgrep cannot parse is shown as typed, with carets under the place (not ripgrep's (?:…) wrapper)", async () => {
    const cases: Array<[string, string]> = [
      ["retry(", "regex parse error: unclosed group\n    retry(\n         ^\n"], // ripgrep points at its wrapper: the open ( instead
      ["a)b", "regex parse error: unopened group\n    a)b\n     ^\n"],
      ["[(]x(", "regex parse error: unclosed group\n    [(]x(\n        ^\n"], // the ( inside a class is no group
      ["x[", "regex parse error: unclosed character class\n    x[\n     ^\n"],
      ["foo\\q", "regex parse error: unrecognized escape sequence\n    foo\\q\n       ^^\n"],
    ];
    for (const [pattern, shown] of cases) {
      const r = await runCli(["search", pattern, "--regex", "--root", root]);
      expect({ pattern, code: r.code, stderr: r.stderr }).toMatchObject({ pattern, code: 2, stderr: expect.stringContaining(`codecite: error: INVALID_ARGUMENT: ${shown}hint: `) });
      expect(r.stderr).not.toContain("(?:");
    }
    const json = await runCli(["search", "retry(", "--regex", "--json", "--root", root]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT", message: "search failed: regex parse error: unclosed group\n    retry(\n         ^" } });
  });

  /** A tool error both ways: `expected` in the human stderr (exit 2), `json` in the `--json` error object (the model's words). */
  async function errorBothWays(args: string[], expected: string, json: { message?: string; hint?: string }): Promise<void> {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(expected);
    expect(JSON.parse((await runCli([...args, "--json"])).stdout).error).toMatchObject(json);
  }

  it("refs of a name with several definitions: the hint names --path, the model's hint names path", async () => {
    await errorBothWays(["refs", "embed_texts", "--root", RAG_APP], "\nhint: Pass a qualified name (Class.method, module.func) or --path with the definition's file.\n", {
      hint: "Pass a qualified name (Class.method, module.func) or path with the definition's file.",
    });
  });

  it("diff over a root whose .git git cannot use, and importers of a two-line module: command-line words, model words in --json", async () => {
    const broken = path.join(base, "broken-git");
    mkdirSync(broken);
    writeFileSync(path.join(broken, ".git"), "gitdir: /nonexistent/codecite-test\n");
    writeFileSync(path.join(broken, "a.py"), "x = 1\n");
    await errorBothWays(["diff", "--root", broken], "\nhint: Check the root's .git (a .git file must name an existing git directory); meanwhile use codecite search or codecite read.\n", {
      hint: "Check the root's .git (a .git file must name an existing git directory); meanwhile use search_code or read_evidence.",
    });
    await errorBothWays(["importers", "a\nb", "--root", broken], "codecite: error: INVALID_ARGUMENT: <module> must be one line without NUL characters\n", {
      message: "module_name must be one line without NUL characters",
    });
  });

  it("a location inside a note, hint or message is shown as the records are (from the current folder); --json keeps it repository-relative", async () => {
    const refs = await runCli(["refs", "load_index", "--root", "examples/rag-app"]);
    expect(refs.stdout.split("\n")[0]).toMatch(/^examples\/rag-app\/src\/rag_chat\.py:\d+ /);
    expect(refs.stderr).toContain("note: References of load_index (function, examples/rag-app/src/rag_common.py:60).\n");
    expect(JSON.parse((await runCli(["refs", "load_index", "--root", "examples/rag-app", "--json"])).stdout).note).toBe("References of load_index (function, src/rag_common.py:60).");
    await errorBothWays(["read", "src/rag_comon.py", "--root", "examples/rag-app"], "hint: Did you mean 'examples/rag-app/src/rag_common.py'? Check the path with codecite search or codecite symbol.\n", {
      hint: "Did you mean 'src/rag_common.py'? Check the path with search_code or find_symbol.",
    });
    await errorBothWays(["refs", "embed_texts", "--root", "examples/rag-app"], "embed_texts (function, examples/rag-app/src/rag_common.py:40)\n", {
      message: expect.stringMatching(/embed_texts \(function, src\/rag_common\.py:40\)$/),
    });
    const close = await runCli(["symbol", "load_indx", "--root", "examples/rag-app"]);
    expect(close.stderr).toContain("Close names: load_index (examples/rag-app/src/rag_common.py:60).");
  });

  it("a value outside a fixed set (--kind banana) names the choices in plain words; the model keeps zod's issue", async () => {
    await errorBothWays(["symbol", "x", "--kind", "banana", "--root", RAG_APP], "codecite: error: INVALID_ARGUMENT: invalid value: --kind: must be one of function, class, method, interface, type, enum, variable, constant, struct, trait, module\nhint: See `codecite symbol --help`.\n", {
      message: expect.stringContaining('Invalid option: expected one of "function"|"class"'),
    });
    await errorBothWays(["refs", "x", "--kind", "banana", "--root", RAG_APP], "invalid value: --kind: must be one of call, import, type, inherit, value\n", {});
  });

  it("read of a folder: the hint offers a search inside it, in the CLI's words", async () => {
    await errorBothWays(["read", "data", "--root", RAG_APP], "codecite: error: INVALID_ARGUMENT: data is a directory, not a file\nhint: Pass a file path, or codecite search --path <folder>.\n", {
      hint: "Pass a file path, or search_code with path set to the folder.",
    });
  });

  it("diff outside git: the hint names codecite commands", async () => {
    const r = await runCli(["diff", "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("\nhint: codecite diff needs a git repository; use codecite search or codecite read instead.\n");
  });
});

describe("locations and suggested commands from another directory", () => {
  it("a cut record: location relative to the current directory, and a `codecite read` that works when pasted", async () => {
    const r = await runCli(["symbol", "long_function", "--root", "my repo"], { cwd: base });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("my repo/long.py:1  function long_function [truncated]");
    const marker = "       ┆ … lines 13-60 not shown: ";
    expect(lines.at(-1)).toBe(`${marker}codecite read long.py --root 'my repo' --start-line 13 --end-line 60`);
    expect(r.stderr).toBe("1 result\nnote: output is cut to fit a model's budget; add --all to see every record with whole snippets, or --all --max-lines N for N lines of each.\n");

    // Paste the suggestion into a POSIX shell in the same directory (codecite = the built CLI).
    const suggested = lines.at(-1)!.slice(marker.length);
    const out = execFileSync("/bin/sh", ["-c", suggested.replace(/^codecite /, `"${process.execPath}" "${CLI}" `)], {
      cwd: base,
      env: { ...process.env, NO_COLOR: "1" },
      encoding: "utf8",
    });
    const pasted = out.split("\n");
    expect(pasted[0]).toBe("my repo/long.py:13  lines 13-60");
    expect(pasted[1]).toBe("    13 │     y12 = x + 12");
    expect(pasted[48]).toBe("    60 │     return x");
  });

  it("absolute locations when climbing out with ../ would be longer; none of it in --json", async () => {
    const deep = path.join(base, ...Array.from({ length: 20 }, (_, i) => `d${i}`));
    mkdirSync(deep, { recursive: true });
    const r = await runCli(["read", "long.py", "--end-line", "1", "--root", root], { cwd: deep });
    expect(r.stdout).toBe(`${path.join(root, "long.py")}:1  line 1\n     1 │ def long_function(x):\n`);
    const j = await runCli(["read", "long.py", "--end-line", "1", "--root", root, "--json"], { cwd: deep });
    expect(j.stdout).toBe(await envelope(root, "read_evidence", { path: "long.py", end_line: 1 }));
  });

  it("run in the root itself, locations and commands are unchanged", async () => {
    const r = await runCli(["symbol", "long_function"], { cwd: root });
    expect(r.stdout.split("\n")[0]).toBe("long.py:1  function long_function [truncated]");
    expect(r.stdout).toContain("not shown: codecite read long.py --start-line 13 --end-line 60\n");
  });
});
