/**
 * codecite as an MCP server over stdio (Model Context Protocol, `@modelcontextprotocol/sdk`
 * v1 line, 1.32.2).
 *
 * - Tools: exactly the code tool registry (`createCodeToolRegistry`), listed with the same
 *   JSON Schemas the models see (`registry.definitions()`), annotations
 *   `{readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false}`,
 *   and `outputSchema` = the tool result envelope (`result-schema.ts`).
 * - Calls go through `registry.dispatch` (zod validation, typed errors, never throws). The
 *   envelope is returned as `structuredContent`, with a text rendering (`summary.ts`) in
 *   `content`; a failed call is `isError: true` and the session continues.
 * - Root: `--root` is the widest the server will ever read. Client roots (MCP `roots/list`,
 *   re-read on `notifications/roots/list_changed`) may narrow it to a directory inside it;
 *   a root outside it (or not a `file:` URI, or missing), or inside a folder on the secrets
 *   deny-list (judged relative to `--root`), is ignored with a log line.
 *   Rule from the MCP reference filesystem server's CVE-2025-53110 fix: containment is
 *   decided on real paths by path segments, never by string prefix.
 * - Input lines pass `message-guard.ts` first: a message over 4 MiB, text that is not JSON, or
 *   JSON that is not a JSON-RPC message gets a JSON-RPC error reply and the server keeps serving.
 * - Tool calls run at most 4 at a time with 32 more waiting; a call past both gets the JSON-RPC
 *   error -32000 "server busy" (`tools/call-queue.ts`).
 * - Reports of refused or unusable client messages are logged at most 20 one by one, then only
 *   every power of ten, each on one line of at most 300 characters (`error-log.ts`).
 * - stdout carries only protocol messages; logs (and any `console.log`/`console.info`
 *   from libraries) go to stderr.
 *
 * The low-level `Server` class is used instead of `McpServer.registerTool` because our tools
 * already have JSON Schemas and a validator (the registry): advertising and validating them
 * once, our way, keeps MCP, the CLI and the agent byte-for-byte consistent, and turns bad
 * arguments into our `INVALID_ARGUMENT` envelope rather than a protocol error.
 */
import { realpath } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  RootsListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { isInside } from "../paths.js";
import { Workspace } from "../tools/index.js";
import { createCodeToolRegistry } from "../tools/code-tools.js";
import { packageVersion } from "../version.js";
import type { ToolRegistry } from "../tools/registry.js";
import { TOOL_RESULT_SCHEMA } from "./result-schema.js";
import { summarizeResult } from "./summary.js";
import { CallQueue } from "../tools/call-queue.js";
import { guardMessages } from "./message-guard.js";
import { boundedErrorLog } from "./error-log.js";

/** Options of `startMcpServer`; the streams and log are replaceable for tests. */
export interface McpServerOptions {
  /** The widest directory the server may read (`--root`, default the current directory). */
  root: string;
  /** Protocol input (default `process.stdin`). */
  stdin?: Readable;
  /** Protocol output (default `process.stdout`); nothing else is ever written to it. */
  stdout?: Writable;
  /** One log line, no newline (default: written to stderr as `codecite mcp: …`). */
  log?: (line: string) => void;
  /** How long to wait for the client's `roots/list` answer, in ms (default 5000). */
  rootsTimeoutMs?: number;
}

/** Tool calls run at once (each may itself use every core: ripgrep's threads, the parse pool). */
export const MAX_RUNNING_CALLS = 4;

/** Tool calls that wait for a running one to end (a model asks for a handful at a time). */
export const MAX_WAITING_CALLS = 32;

/**
 * JSON-RPC error code of a tool call refused because the server is busy (in the range JSON-RPC 2.0
 * §5.1 reserves for implementation-defined server errors).
 */
export const SERVER_BUSY = -32000;

/** The error of a tool call refused by the call queue (`tools/call-queue.ts`). */
export function serverBusy(running: number, waiting: number): McpError {
  return new McpError(SERVER_BUSY, `server busy: ${running} tool calls are running and ${waiting} waiting; send this call again when one has been answered`);
}

/** "search_code" → "Search code". */
function titleOf(name: string): string {
  const words = name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}


/** The MCP tool list: the registry's definitions with annotations and the envelope as output schema. */
function mcpToolList(registry: ToolRegistry): Tool[] {
  return registry.definitions().map((d) => ({
    name: d.function.name,
    title: titleOf(d.function.name),
    description: d.function.description,
    inputSchema: d.function.parameters as Tool["inputSchema"],
    outputSchema: TOOL_RESULT_SCHEMA as unknown as Tool["outputSchema"],
    annotations: {
      title: titleOf(d.function.name),
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }));
}

/**
 * Picks the workspace for a set of client roots: the first root whose real path lies within
 * `base.root` (a narrower view); `base` itself when none qualifies. Every ignored root is
 * logged with the reason.
 */
export async function narrowToRoots(base: Workspace, uris: readonly string[], log: (line: string) => void): Promise<Workspace> {
  const inside: string[] = [];
  for (const uri of uris) {
    let real: string;
    try {
      real = await realpath(fileURLToPath(uri));
    } catch (err) {
      log(`ignoring client root ${uri}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : "not a local file: URI"}`);
      continue;
    }
    if (!isInside(real, base.root)) {
      log(`ignoring client root ${uri}: outside --root ${base.root} (client roots may only narrow it)`);
      continue;
    }
    // The deny-list applies to the path relative to the original root: narrowing into `.ssh/`
    // or `credentials/` would otherwise make its files look like ordinary project files.
    if (base.isDenied(base.relativeOf(real))) {
      log(`ignoring client root ${uri}: it lies in a folder on the secrets deny-list`);
      continue;
    }
    inside.push(real);
  }
  const chosen = inside[0];
  if (chosen === undefined) return base;
  if (inside.length > 1) log(`client gave ${inside.length} roots inside ${base.root}; serving the first: ${chosen}`);
  if (chosen === base.root) return base;
  try {
    const ws = await Workspace.open(chosen);
    log(`serving ${ws.root} (narrowed by the client's roots)`);
    return ws;
  } catch (err) {
    log(`ignoring client root ${chosen}: ${(err as Error).message}`);
    return base;
  }
}

/** Sends `console.log`/`info`/`debug` to stderr while the server runs (stdout is the protocol channel). */
function guardStdout(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => Object.assign(console, saved);
}

/**
 * Serves the code tools over MCP on stdio until the client disconnects (stdin ends or the
 * transport closes), then resolves.
 * @throws ToolError `NOT_FOUND`/`INVALID_ARGUMENT` when `root` is not a directory (before
 *   anything is written to stdout).
 */
export async function startMcpServer(opts: McpServerOptions): Promise<void> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`codecite mcp: ${line}\n`));
  const base = await Workspace.open(opts.root);
  const registry = createCodeToolRegistry();
  const tools = mcpToolList(registry);
  let current: Promise<Workspace> = Promise.resolve(base);

  const server = new Server(
    { name: "codecite", title: "codecite", version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        "Read-only code evidence for one repository. Every result is evidence: a repository-relative path, " +
        "1-based line range and the exact lines. Start with search_code or find_symbol, then read_evidence to see more; " +
        "find_references answers who calls or uses a definition.",
    },
  );

  /** Tool calls being answered; on end of input they finish before the server closes. */
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p)).catch(() => undefined);
    return p;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  // At most a few calls at once, a few more waiting, the rest refused (tools/call-queue.ts).
  const calls = new CallQueue(MAX_RUNNING_CALLS, MAX_WAITING_CALLS, serverBusy);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => track(calls.run(() => callTool(request.params, extra.signal), extra.signal)));
  const callTool = async (params: { name: string; arguments?: Record<string, unknown> }, signal: AbortSignal): Promise<CallToolResult> => {
    const workspace = await current;
    const result = await registry.dispatch({ name: params.name, arguments: params.arguments ?? {} }, { workspace, signal });
    return {
      content: [{ type: "text", text: summarizeResult(result) }],
      structuredContent: result as unknown as Record<string, unknown>,
      isError: !result.ok,
    };
  };

  const refreshRoots = () => {
    current = (async () => {
      let uris: string[];
      try {
        const { roots } = await server.listRoots(undefined, { timeout: opts.rootsTimeoutMs ?? 5000 });
        uris = roots.map((r) => r.uri);
      } catch (err) {
        log(`roots/list failed (${(err as Error).message}); serving ${base.root}`);
        return base;
      }
      return narrowToRoots(base, uris, log);
    })();
  };
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) refreshRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => refreshRoots());
  // Reports about client messages are bounded (error-log.ts): a client looping bad messages
  // must not fill the log.
  const clientFault = boundedErrorLog(log);
  server.onerror = (err) => clientFault(`protocol error: ${err.message}`);

  const rawStdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  const restoreConsole = stdout === process.stdout ? guardStdout() : () => undefined;
  // Oversized, unparseable and non-JSON-RPC lines are answered with a JSON-RPC error here and
  // never reach the SDK (message-guard.ts); the server keeps serving.
  const stdin = rawStdin.pipe(
    guardMessages((line) => {
      clientFault("refused a malformed or oversized message with a JSON-RPC error");
      stdout.write(line);
    }),
  );
  rawStdin.once("close", () => {
    if (!stdin.writableEnded) stdin.end();
  });
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  // End of input (the client went away, or a script piped its requests): answer what was
  // asked, then close. A macrotask turn after the handlers settle lets the SDK write the replies.
  let ending = false;
  const onEnd = () => {
    if (ending) return;
    ending = true;
    void (async () => {
      do {
        await new Promise((r) => setImmediate(r));
        await Promise.allSettled([...inflight]);
      } while (inflight.size > 0);
      await new Promise((r) => setImmediate(r));
      await server.close();
    })();
  };
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  try {
    await server.connect(transport);
    log(`serving ${tools.length} read-only tools for ${base.root} on stdio`);
    await closed;
  } finally {
    stdin.off("end", onEnd);
    stdin.off("close", onEnd);
    restoreConsole();
  }
}
