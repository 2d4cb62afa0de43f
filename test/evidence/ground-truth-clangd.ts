/**
 * The C/C++ oracle of `ground-truth-references.ts`: clangd (Debian `clangd`) answering LSP
 * `textDocument/references` (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#textDocument_references)
 * after its background index of the whole checkout is built.
 *
 * clangd needs each file's flags: the checkout's own `compile_commands.json` when it has one at its
 * top, else one written to a temporary folder (never into the checkout) that compiles every `.c`
 * (`-std=gnu11`) and C++ source (`-std=c++17`) with `-I` for the checkout's top and its `include/`
 * folder, plus `extraFlags`. References are asked without the declaration (`includeDeclaration:
 * false`); clangd then still lists other declarations (prototypes), which the comparison keeps.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

/** A position to ask about: repository-relative file, 1-based line, 0-based column (UTF-16). */
interface ClangdQuery {
  file: string;
  line: number;
  column: number;
}

const SOURCE = /\.(c|cc|cpp|cxx|c\+\+)$/;

/** Writes a compilation database for `root` into a new temporary folder; returns the folder. */
function syntheticDatabase(root: string, files: readonly string[], extraFlags: readonly string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codecite-clangd-"));
  const entries = files
    .filter((f) => SOURCE.test(f))
    .map((f) => {
      const cxx = !f.endsWith(".c");
      const args = [cxx ? "c++" : "cc", cxx ? "-std=c++17" : "-std=gnu11", `-I${root}`, `-I${path.join(root, "include")}`, ...extraFlags, "-c", path.join(root, f)];
      return { directory: root, file: path.join(root, f), arguments: args };
    });
  fs.writeFileSync(path.join(dir, "compile_commands.json"), JSON.stringify(entries));
  return dir;
}

/**
 * Runs clangd over `root` and answers each query with the `path:line` of its references (outside
 * the checkout dropped); `undefined` for a query clangd failed on.
 * @throws Error when clangd cannot be started or the index does not finish within `timeoutMs`.
 */
export async function clangdReferences(root: string, files: readonly string[], queries: readonly ClangdQuery[], extraFlags: readonly string[] = [], timeoutMs = 1_800_000): Promise<(string[] | undefined)[]> {
  const own = fs.existsSync(path.join(root, "compile_commands.json"));
  const dbDir = own ? root : syntheticDatabase(root, files, extraFlags);
  const child = spawn("clangd", [`--compile-commands-dir=${dbDir}`, "--background-index", "--log=error", "-j=2"], { stdio: ["pipe", "pipe", "ignore"] });
  let buffer = Buffer.alloc(0);
  let nextId = 1;
  const pending = new Map<number, (v: unknown) => void>();
  let indexing = 0;
  let indexedOnce = false;
  let onIdle: (() => void) | undefined;
  const send = (msg: object) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send({ id, method, params });
    });
  child.stdout.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const head = buffer.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, head).toString())?.[1] ?? "0");
      if (buffer.length < head + 4 + len) return;
      const msg = JSON.parse(buffer.subarray(head + 4, head + 4 + len).toString()) as { id?: number; method?: string; result?: unknown; params?: { value?: { kind?: string } } };
      buffer = buffer.subarray(head + 4 + len);
      if (msg.method === "window/workDoneProgress/create" && msg.id !== undefined) send({ id: msg.id, result: null });
      else if (msg.method === "$/progress") {
        const kind = msg.params?.value?.kind;
        if (kind === "begin") indexing++;
        if (kind === "end") {
          indexing = Math.max(0, indexing - 1);
          indexedOnce = true;
          if (indexing === 0) onIdle?.();
        }
      } else if (msg.id !== undefined && pending.has(msg.id)) {
        (pending.get(msg.id) as (v: unknown) => void)(msg.result);
        pending.delete(msg.id);
      }
    }
  });
  try {
    await request("initialize", { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: { window: { workDoneProgress: true } } });
    send({ method: "initialized", params: {} });
    // clangd reads the compilation database, and starts its background index, when a file is opened.
    const first = queries[0];
    if (first !== undefined) {
      const abs = path.join(root, first.file);
      send({ method: "textDocument/didOpen", params: { textDocument: { uri: pathToFileURL(abs).href, languageId: first.file.endsWith(".c") ? "c" : "cpp", version: 1, text: fs.readFileSync(abs, "utf8") } } });
    }
    // The background index reports begin/end; wait until it has ended once and nothing is running.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("clangd index timed out")), timeoutMs);
      const check = () => {
        if (indexedOnce && indexing === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      onIdle = check;
      const poll = setInterval(() => {
        check();
        if (indexedOnce && indexing === 0) clearInterval(poll);
      }, 2000);
    });
    const out: (string[] | undefined)[] = [];
    for (const q of queries) {
      const abs = path.join(root, q.file);
      const uri = pathToFileURL(abs).href;
      send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: q.file.endsWith(".c") ? "c" : "cpp", version: 1, text: fs.readFileSync(abs, "utf8") } } });
      const res = (await request("textDocument/references", { textDocument: { uri }, position: { line: q.line - 1, character: q.column }, context: { includeDeclaration: false } })) as { uri: string; range: { start: { line: number } } }[] | null;
      send({ method: "textDocument/didClose", params: { textDocument: { uri } } });
      if (res === null) {
        out.push(undefined);
        continue;
      }
      out.push(
        res
          .map((loc) => ({ rel: path.relative(root, fileURLToPath(loc.uri)).replace(/\\/g, "/"), line: loc.range.start.line + 1 }))
          .filter((l) => !l.rel.startsWith(".."))
          .map((l) => `${l.rel}:${l.line}`),
      );
    }
    await request("shutdown", null);
    send({ method: "exit" });
    return out;
  } finally {
    child.kill();
    if (!own) fs.rmSync(dbDir, { recursive: true, force: true });
  }
}
