/**
 * `codecite mcp` end to end: the official SDK client spawns the real CLI (from source, through
 * tsx) as a separate process and talks MCP over its stdio.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spawn, execFileSync } from "node:child_process";
import { mkdtemp, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { TEST_TIMEOUT_MS } from "../helpers/patience.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "src/cli/main.ts");

let tmp: string;
let root: string;
let sibling: string;

async function write(rel: string, text: string, base = root): Promise<void> {
  const file = path.join(base, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeAll(async () => {
  tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), "codecite-mcp-")));
  root = path.join(tmp, "proj");
  sibling = path.join(tmp, "proj2"); // shares the prefix "proj": must still be outside
  await write("app/main.py", "from lib.util import helper\n\nprint(helper())\n");
  await write("lib/__init__.py", "");
  await write("lib/util.py", "def helper():\n    return 41\n");
  await write(".env", "TOKEN=secret\n");
  await write("secret.txt", "outside\n", sibling);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "app", "lib");
  git("commit", "-q", "-m", "init");
  await write("lib/util.py", "def helper():\n    return 42\n");
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface Session {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

const open: Session[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function connect(opts: { roots?: string[]; root?: string } = {}): Promise<Session & { setRoots(r: string[]): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", CLI, "mcp", "--root", opts.root ?? root],
    cwd: REPO,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  let roots = opts.roots;
  const client = new Client({ name: "codecite-test", version: "1.0.0" }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: (roots ?? []).map((uri) => ({ uri })) }));
  await client.connect(transport);
  const session = {
    client,
    stderr: () => err,
    close: () => client.close(),
    setRoots: async (r: string[]) => {
      roots = r;
      await client.sendRootsListChanged();
    },
  };
  open.push(session);
  return session;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/**
 * Waits until `check` passes: the server applies a roots change asynchronously (it asks the client
 * for the roots, then checks them), which on a loaded machine may take any time. Retried every
 * 100 ms until shortly before the test's timeout (not a fixed number of tries); a timeout reports
 * the last failure of `check`.
 */
async function eventually(check: () => Promise<void>): Promise<void> {
  await vi.waitFor(check, { timeout: 0.9 * TEST_TIMEOUT_MS, interval: 100 });
}

describe("codecite mcp", () => {
  it("lists exactly the six registry tools with read-only annotations and schemas", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_code", "find_symbol", "read_evidence", "find_importers", "find_references", "read_git_diff"]);
    const defs = createCodeToolRegistry().definitions();
    for (const t of tools) {
      expect(t.annotations).toEqual({ title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(t.inputSchema).toEqual(defs.find((d) => d.function.name === t.name)!.function.parameters);
      expect(t.outputSchema?.type).toBe("object");
      expect(t.outputSchema?.required).toEqual(["ok"]);
    }
    expect(client.getServerVersion()?.name).toBe("codecite");
  });

  it("calls each tool and returns the envelope as structuredContent plus path:line text", async () => {
    const { client } = await connect();

    const search = await call(client, "search_code", { query: "helper" });
    expect(search.isError).toBe(false);
    const s = search.structuredContent as { ok: boolean; evidence: { path: string; start_line: number }[]; total: number };
    expect(s.ok).toBe(true);
    expect(s.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["app/main.py:1", "app/main.py:3", "lib/util.py:1"]);
    expect(textOf(search)).toContain("lib/util.py:1 match helper\n  1 | def helper():");

    const symbol = await call(client, "find_symbol", { name: "helper" });
    expect(symbol.structuredContent).toMatchObject({
      ok: true,
      evidence: [{ path: "lib/util.py", start_line: 1, end_line: 2, kind: "definition", name: "helper", snippet: "def helper():\n    return 42" }],
    });
    expect(textOf(symbol)).toContain("lib/util.py:1-2 definition function helper");

    const read = await call(client, "read_evidence", { path: "lib/util.py", start_line: 2, end_line: 2 });
    expect(read.structuredContent).toMatchObject({ ok: true, evidence: [{ path: "lib/util.py", start_line: 2, end_line: 2, snippet: "    return 42" }] });

    const importers = await call(client, "find_importers", { module_name: "lib.util" });
    expect(importers.structuredContent).toMatchObject({
      ok: true,
      evidence: [{ path: "app/main.py", start_line: 1, end_line: 1, kind: "import", snippet: "from lib.util import helper" }],
    });

    const diff = await call(client, "read_git_diff", {});
    const d = diff.structuredContent as { ok: boolean; evidence: { path: string; kind: string; snippet: string }[] };
    expect(d.ok).toBe(true);
    expect(d.evidence[0]).toMatchObject({ path: "lib/util.py", kind: "diff" });
    expect(d.evidence[0]!.snippet).toContain("+    return 42");
  });

  it("names the caller of each reference in the text, as the CLI does (a client may read only the text)", async () => {
    const calls = path.join(tmp, "calls");
    await write("lib/util.py", "def helper():\n    return 41\n", calls);
    await write("app/jobs.py", "from lib.util import helper\n\n\ndef run():\n    return helper()\n\n\nhelper()\n", calls);
    const { client } = await connect({ root: calls });
    const refs = await call(client, "find_references", { name: "helper", kind: "call" });
    expect(refs.structuredContent).toMatchObject({ ok: true, evidence: [{ path: "app/jobs.py", start_line: 5, context: "run" }, { path: "app/jobs.py", start_line: 8, context: "app/jobs.py" }] });
    expect(textOf(refs).split("\n").filter((l) => !l.startsWith("  "))).toEqual([
      "2 results.",
      "app/jobs.py:5 reference in run [call]",
      "app/jobs.py:8 reference at top level [call]",
      "Note: References of helper (function, lib/util.py:1).",
    ]);
  });

  it("runs a call with an argument the tool does not take, and says in the note and the text which was ignored", async () => {
    const { client } = await connect();
    // The SDK's low-level server passes `arguments` as given (a record); the registry drops `stat` and says so.
    const diff = await call(client, "read_git_diff", { stat: true });
    const note = "Ignored `stat`: read_git_diff takes base, head, path, context_lines.";
    expect(diff.isError).toBe(false);
    expect(diff.structuredContent).toMatchObject({ ok: true, evidence: [{ path: "lib/util.py", kind: "diff" }], note: expect.stringMatching(/^Ignored `stat`: read_git_diff takes base, head, path, context_lines\./) });
    expect(textOf(diff)).toContain(`Note: ${note}`);
    const symbol = await call(client, "find_symbol", { symbol: "helper" });
    expect(symbol.isError).toBe(true);
    expect(textOf(symbol)).toMatch(/\nHint: Expected parameters: .* Ignored `symbol`: find_symbol takes name, kind, path, max_results\.$/);
  });

  it("refuses reads outside the root as isError results and keeps talking", async () => {
    const { client } = await connect();
    const outside = await call(client, "read_evidence", { path: "../proj2/secret.txt" });
    expect(outside.isError).toBe(true);
    expect(outside.structuredContent).toMatchObject({ ok: false, error: { code: "OUTSIDE_ROOT" } });
    expect(textOf(outside)).toMatch(/^ERROR OUTSIDE_ROOT: /);
    expect(textOf(outside)).not.toContain("outside\n");

    const absolute = await call(client, "read_evidence", { path: path.join(sibling, "secret.txt") });
    expect(absolute.structuredContent).toMatchObject({ ok: false, error: { code: "OUTSIDE_ROOT" } });

    const secret = await call(client, "read_evidence", { path: ".env" });
    expect(secret.structuredContent).toMatchObject({ ok: false, error: { code: "DENIED" } });

    const bad = await call(client, "search_code", { query: "" });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });

    const unknown = await call(client, "run_command", { cmd: "ls" });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ ok: false, error: { code: "UNKNOWN_TOOL" } });

    const after = await call(client, "read_evidence", { path: "lib/util.py", start_line: 1, end_line: 1 });
    expect(after.isError).toBe(false);
    expect(after.structuredContent).toMatchObject({ ok: true, evidence: [{ snippet: "def helper():" }] });
  });

  it("lets client roots narrow the root but never widen it", async () => {
    const session = await connect({ roots: [pathToFileURL(path.join(root, "lib")).href] });
    const { client } = session;
    await eventually(async () => {
      const r = await call(client, "search_code", { query: "helper" });
      const paths = (r.structuredContent as { evidence: { path: string }[] }).evidence.map((e) => e.path);
      expect(paths).toEqual(["util.py"]);
    });
    const up = await call(client, "read_evidence", { path: "../app/main.py" });
    expect(up.structuredContent).toMatchObject({ ok: false, error: { code: "OUTSIDE_ROOT" } });

    // A root outside --root (even one sharing its prefix) and the parent of --root are ignored.
    await session.setRoots([pathToFileURL(sibling).href, pathToFileURL(tmp).href]);
    await eventually(async () => {
      const r = await call(client, "search_code", { query: "helper" });
      const paths = (r.structuredContent as { evidence: { path: string }[] }).evidence.map((e) => e.path);
      expect(paths).toEqual(["app/main.py", "app/main.py", "lib/util.py"]);
    });
    expect(session.stderr()).toContain(`ignoring client root ${pathToFileURL(sibling).href}: outside --root ${root}`);
    expect(session.stderr()).toContain(`ignoring client root ${pathToFileURL(tmp).href}: outside --root`);
    const outside = await call(client, "read_evidence", { path: path.join(sibling, "secret.txt") });
    expect(outside.structuredContent).toMatchObject({ ok: false, error: { code: "OUTSIDE_ROOT" } });
  });

  it("writes nothing but JSON-RPC messages on stdout, and answers piped requests before exiting", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "mcp", "--root", root], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_evidence", arguments: { path: "/etc/passwd" } } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    // End input at once, as a script piping requests would: every request is still answered.
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    // Requests are handled concurrently: answers may come in any order.
    const messages = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result: Record<string, unknown> })
      .sort((a, b) => a.id - b.id);
    expect(messages.map((m) => [m.jsonrpc, m.id])).toEqual([
      ["2.0", 1],
      ["2.0", 2],
      ["2.0", 3],
    ]);
    expect(messages[1]!.result).toMatchObject({ isError: true, structuredContent: { ok: false, error: { code: "OUTSIDE_ROOT" } } });
    expect(err).toContain(`serving 6 read-only tools for ${root}`);
    expect(code).toBe(0);
  });

  it("exits 2 with a message on stderr when the root does not exist", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "mcp", "--root", path.join(tmp, "nope")], { cwd: REPO });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(`workspace root does not exist: ${path.join(tmp, "nope")}`);
  });
});
