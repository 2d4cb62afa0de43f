/**
 * `codecite toolshim` (src/cli/commands/toolshim.ts), run as the BUILT CLI with the assistant
 * text on stdin (`npm test` builds first; run `npm run build` before running this file alone).
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { CLI, REPO_ROOT } from "./run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir } from "../helpers/temp-tree.js";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function toolshim(args: readonly string[], stdin: string, env: Record<string, string> = {}): Promise<Run> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const clean: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const v of Object.keys(clean)) if (v === "OLLAMA_HOST" || v.startsWith("CODECITE_") || v === "FORCE_COLOR") delete clean[v];
  Object.assign(clean, env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "toolshim", ...args], { cwd: REPO_ROOT, env: clean, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

const dir = makeTempDir("codecite-toolshim-");
const toolsJson = path.join(dir, "tools.json");
writeFileSync(toolsJson, JSON.stringify(createCodeToolRegistry().definitions(), null, 2));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("codecite toolshim", () => {
  it("--json prints the calls, the visible content and the stage", async () => {
    const r = await toolshim(
      ["--tools", "search_code,read_evidence", "--json"],
      'Let me check.\n<tool_call>\n{"name": "search_code", "arguments": {"query": "load_index"}}\n</tool_call>',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      tool_calls: [{ name: "search_code", arguments: { query: "load_index" } }],
      content: "Let me check.",
      recovered_by: "dialect:hermes_json",
      rejected: [],
      diagnostics: [],
    });
  });

  it("types untyped XML values by the schemas of a tools.json from `codecite tools --json`", async () => {
    const r = await toolshim(
      ["--tools", toolsJson, "--json"],
      "<function=read_evidence>\n<parameter=path>\nsrc/rag_chat.py\n</parameter>\n<parameter=start_line>\n10\n</parameter>\n</function>\n</tool_call>",
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { tool_calls: unknown; recovered_by: string; content: string };
    expect(out.tool_calls).toEqual([{ name: "read_evidence", arguments: { path: "src/rag_chat.py", start_line: 10 } }]);
    expect(out.recovered_by).toBe("dialect:qwen3_coder_xml");
    expect(out.content).toBe("");
  });

  it("prints a readable report, with refused calls and diagnostics", async () => {
    const r = await toolshim(["--tools", "search_code"], '{"name": "bash", "arguments": {"command": "ls"}}');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "recovered_by: none",
        "tool calls: 0",
        "rejected: 1",
        '  UNKNOWN_TOOL bash: "bash" is not available: the tools here are read-only (they search and read code; nothing runs commands, writes files or reaches the network). Available tools: search_code.',
        "content:",
        '  {"name": "bash", "arguments": {"command": "ls"}}',
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe('policy: "bash" is not an offered tool; rejected\n');
  });

  it("exits 2 with a JSON error for a malformed tools file", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, '{"not": "an array"}');
    const r = await toolshim(["--tools", bad, "--json"], "text");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      error: { code: "INVALID_ARGUMENT", message: `tools file ${bad} is not a JSON array`, hint: "Use the array that `codecite tools --json` prints." },
    });
  });

  it("exits 2 when --tools is missing", async () => {
    const r = await toolshim(["--json"], "text");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, error: { code: "INVALID_ARGUMENT", message: "required option '--tools <list>' not specified", hint: "Run codecite toolshim --help for usage." } });
  });

  it("--interpreter asks the configured Ollama interpreter model when no parser matched", async () => {
    server = await startFakeOllama({
      models: [{ name: "qwen3:1.7b", capabilities: ["completion"] }],
      turns: [{ content: '{"tool_calls": [{"name": "find_symbol", "arguments": {"name": "load_index"}}]}' }],
    });
    const r = await toolshim(["--tools", toolsJson, "--interpreter", "--json"], "I should look up where find_symbol says load_index is defined.", {
      OLLAMA_HOST: server.host,
      CODECITE_TOOLSHIM_OLLAMA_MODEL: "qwen3:1.7b",
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { tool_calls: unknown; recovered_by: string };
    expect(out.tool_calls).toEqual([{ name: "find_symbol", arguments: { name: "load_index" } }]);
    expect(out.recovered_by).toBe("interpreter");
    const [req] = server.chatRequests();
    expect(req!.model).toBe("qwen3:1.7b");
    expect((req!.format as { properties: { tool_calls: { items: { properties: { name: { enum: string[] } } } } } }).properties.tool_calls.items.properties.name.enum).toEqual([
      "search_code",
      "find_symbol",
      "read_evidence",
      "find_importers",
      "find_references",
      "read_git_diff",
      "noop",
    ]);
  });

  it("--interpreter with a bad backend setting stops with exit 2 naming the variable", async () => {
    const r = await toolshim(["--tools", "search_code", "--interpreter", "--json"], "search_code?", { CODECITE_TOOLSHIM_BACKEND: "gpu" });
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(out.ok).toBe(false);
    expect(out.error.code).toBe("INVALID_ARGUMENT");
    expect(out.error.message).toContain("CODECITE_TOOLSHIM_BACKEND");
    expect(out.error.message).toContain("gpu");
  });
});
