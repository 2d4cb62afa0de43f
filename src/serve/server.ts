/**
 * `codecite serve`: an HTTP gateway (node:http) that speaks the Ollama API (`/api/*`) and the
 * OpenAI API (`/v1/*`) to clients and forwards to one configured upstream (Ollama, or an
 * OpenAI-compatible server). Chat requests go through the tool shim with the client's own tools
 * (`shim-turn.ts`); the virtual model `codecite` runs the agent (`virtual-model.ts`); endpoints
 * without assistant turns are forwarded unchanged, streaming preserved.
 *
 * Routes: `POST /api/chat`, `POST /v1/chat/completions` (shim or agent); `GET /api/tags`,
 * `GET /v1/models` (upstream models plus `codecite` and `codecite/<model>`); `POST /api/show`
 * (synthesised for the virtual models); `GET /api/version`, `GET /api/ps`, `POST /api/generate`,
 * `POST /api/embed`, `POST /api/embeddings`, `POST /v1/embeddings` (forwarded); `GET /codecite/stats`;
 * `GET /` (a liveness line, as Ollama answers).
 *
 * Safety: when a token is set every request needs `Authorization: Bearer <token>` (compared in
 * constant time); without one, only requests addressed to the loopback and not sent by another
 * site's web page are answered (`request-guard.ts`: DNS rebinding, cross-site POSTs; else 403);
 * request bodies over `maxBodyBytes` get 413; a request not received within `requestTimeoutMs`
 * gets 408 and a connection that sends no request within `clientIdleMs` is closed (slow or idle
 * clients cannot hold sockets); a client that reads a streamed reply slower than the model writes
 * it pauses the upstream's reply (memory stays bounded, every byte is delivered), and one that
 * takes none of it for `clientIdleMs` is closed; the upstream comes only from the
 * options, never from a request; upstream failures become errors in the client API's shape (an
 * HTTP status before the first byte, an error line or event after it); a client that hangs up
 * cancels its upstream request; stopping the gateway (`close`: SIGTERM, Ctrl-C) ends each reply
 * being written with an error in its client's shape (503 before its first byte, else an error event
 * or line) and cancels its upstream request, rather than cutting the connection; request and
 * response content are logged only with `verbose`.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { splitCredentials } from "../llm/server-address.js";
import { SERVER_NAMES, unreachableMessage } from "../llm/unreachable.js";
import { ProviderError, type Provider } from "../llm/types.js";
import { OllamaChatWriter, parseOllamaChat, sendOllamaError } from "./ollama-api.js";
import { OpenAIChatWriter, parseOpenAIChat, sendOpenAIError } from "./openai-api.js";
import { checkRequestDepth, type BufferedChatWriter } from "./wire.js";
import { isLoopbackHost, isTrustedOrigin } from "./request-guard.js";
import { ToolSupport, shimTurn, upstreamError } from "./shim-turn.js";
import { GatewayStats, type StatsReport } from "./stats.js";
import { GatewayError, type GatewayChat } from "./types.js";
import { VIRTUAL_MODEL, agentTurn, virtualTarget, type VirtualModelContext } from "./virtual-model.js";
import { CallQueue } from "../tools/call-queue.js";
import { TurnStarts } from "./turn-starts.js";

/** What the log line of a chat request reads of its reply: the writer, once the chat has one. */
interface ChatReply {
  writer?: BufferedChatWriter;
}

/** Default request body cap: 16 MiB (long conversations, and images in base64). */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Default time to receive a whole request (headers and body), ms: 16 MiB at about 2 Mbit/s. */
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/**
 * Most bytes of the upstream's `/api/tags` reply that the gateway reads (16 MiB; a list of a
 * thousand models is about 1 MB): the list is read whole to add the `codecite` models, so an
 * upstream whose reply never ends would otherwise fill the gateway's memory.
 */
const MAX_TAGS_BYTES = 16 * 1024 * 1024;

/**
 * The JSON body of an upstream reply, read up to `max` bytes; `{}` when it is not JSON.
 * @throws GatewayError 502 when the body is longer than `max` (the rest is not read).
 */
async function boundedJson(r: Response, max: number, what: string): Promise<unknown> {
  if (!r.body) return {};
  const reader = r.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.length;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new GatewayError(502, `upstream's ${what} is longer than ${max} bytes`);
    }
    parts.push(next.value);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as unknown;
  } catch {
    return {};
  }
}

/**
 * The error of a reply the gateway ends because it stops (SIGTERM, Ctrl-C, the primary of
 * `--workers` stopping it): 503 before the reply's first byte, else an error event or line.
 */
function stopping(): GatewayError {
  return new GatewayError(503, "codecite serve is stopping; this reply was cut short, ask again when it runs", "server_error");
}

/** Time the replies ended by `close` have to reach their clients before the connections are closed, ms. */
const STOP_FLUSH_MS = 1_000;

/** Default time a connection may stay silent before its request's headers are complete, ms. */
const DEFAULT_CLIENT_IDLE_MS = 30_000;

/** Where the gateway forwards to. */
export type Upstream =
  | { api: "ollama"; /** Normalised Ollama base URL, e.g. `http://127.0.0.1:11434`. */ host: string }
  | { api: "openai"; /** Base URL including `/v1`. */ baseURL: string; apiKey?: string };

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  upstream: Upstream;
  /** The chat provider for the upstream (an `OllamaProvider` or `OpenAIProvider` on the same server). */
  provider: Provider;
  /** The virtual model's agent inputs (without `provider` and `stats`); absent = no virtual model. */
  agent?: Omit<VirtualModelContext, "provider" | "stats">;
  /**
   * Answers of the virtual model run at once, and more that wait in arrival order (default
   * {@link MAX_RUNNING_AGENT_TURNS}, {@link MAX_WAITING_AGENT_TURNS}); past both a request is
   * answered 503 at once.
   */
  agentTurns?: { maxRunning: number; maxWaiting: number };
  /** Bearer token every request must carry; absent = none. */
  token?: string;
  maxBodyBytes?: number;
  /**
   * Time to receive a whole request, headers and body, ms (default 60,000); past it the client
   * gets 408 and the connection is closed. The reply is not limited (a streamed answer may take minutes).
   */
  requestTimeoutMs?: number;
  /**
   * Time a connection may stay silent before its request's headers are complete, and time a client
   * may take none of a streamed reply that waits for it (`wire.ts` `clientBacklog`), ms (default
   * 30,000); past it the connection is closed.
   */
  clientIdleMs?: number;
  /** Reported by `GET /api/version` when the upstream is not Ollama. */
  version?: string;
  /**
   * What `GET /codecite/stats` answers, given this gateway's own report ({@link Gateway.report});
   * default: that report. (`codecite serve` with worker processes answers the sum over all of
   * them, `cli/serve-cluster.ts`.) A rejection is answered 500.
   */
  answerStats?: (own: StatsReport) => Promise<StatsReport>;
  /** One line per request (method, path, status, ms); with `verbose`, also the request bodies. */
  log?: (line: string) => void;
  verbose?: boolean;
}

/** A running gateway. */
export interface Gateway {
  readonly server: http.Server;
  readonly stats: GatewayStats;
  /** This gateway's own `GET /codecite/stats` report: {@link stats}, with the virtual model also its answers running and waiting now. */
  report(): StatsReport;
  /** Starts listening; resolves with the bound address. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops accepting, ends open connections. */
  close(): Promise<void>;
}

type Api = "ollama" | "openai";

/**
 * Answers of the virtual model worked on at once: each runs the agent loop, whose tool calls read
 * and parse files and start ripgrep, and whose model turns queue at the upstream anyway (Ollama
 * serves a few requests of a model in parallel, `OLLAMA_NUM_PARALLEL`).
 */
const MAX_RUNNING_AGENT_TURNS = 2;

/** Answers of the virtual model that wait for a running one to end. */
const MAX_WAITING_AGENT_TURNS = 8;

/** The error of a virtual-model request refused by the queue (`tools/call-queue.ts`): 503 in the client's API shape. */
function agentBusy(running: number, waiting: number): GatewayError {
  return new GatewayError(503, `server busy: ${running} answers of the codecite model are running and ${waiting} waiting; ask again when one has finished`, "server_error");
}

function apiOf(path: string): Api {
  return path.startsWith("/v1/") || path === "/v1" ? "openai" : "ollama";
}

function sendError(res: http.ServerResponse, api: Api, error: GatewayError): void {
  if (api === "openai") sendOpenAIError(res, error);
  else sendOllamaError(res, error);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/**
 * Reads the body, at most `cap` bytes. A client that sent `Expect: 100-continue` (`awaitsContinue`) waits for a
 * `100 Continue` before it sends the body (RFC 9110 §10.1.1): it is written here, once the body is
 * wanted and its declared length is within the cap, so a body over the cap, or a request refused
 * before its body is read (401, 403, 404, 405), is never sent at all.
 * @throws GatewayError 413 beyond the cap (for a declared `Content-Length`, before any of the body is asked for).
 */
function readBody(req: http.IncomingMessage, res: http.ServerResponse, cap: number, awaitsContinue: boolean): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > cap) return Promise.reject(new GatewayError(413, `request body over ${cap} bytes`));
  if (awaitsContinue) res.writeContinue();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > cap) {
        reject(new GatewayError(413, `request body over ${cap} bytes`));
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseJson(buf: Buffer): unknown {
  const text = buf.toString("utf8");
  if (text.trim() === "") throw new GatewayError(400, "the request body is empty; a JSON object is required");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new GatewayError(400, `the request body is not valid JSON (${err instanceof SyntaxError ? err.message : "parse error"})`);
  }
  checkRequestDepth(body);
  return body;
}

/** Constant-time comparison of a presented bearer token with the configured one (SHA-256 of both, so lengths do not leak). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "");
  const presented = createHash("sha256").update(m?.[1] ?? "").digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(presented, expected) && m !== null;
}

/**
 * The methods each known route accepts. A GET route answers HEAD too, as GET without the body
 * (RFC 9110 §9.3.2; Node's `ServerResponse` sends no body for a HEAD request).
 */
const GET: readonly string[] = ["GET", "HEAD"];
const POST: readonly string[] = ["POST"];
const ROUTES: Record<string, readonly string[]> = {
  "/": GET,
  "/api/chat": POST,
  "/api/generate": POST,
  "/api/embed": POST,
  "/api/embeddings": POST,
  "/api/tags": GET,
  "/api/show": POST,
  "/api/ps": GET,
  "/api/version": GET,
  "/v1/chat/completions": POST,
  // Text completions (editors' code completion), no assistant turn: forwarded as they are.
  "/v1/completions": POST,
  "/v1/models": GET,
  "/v1/embeddings": POST,
  "/codecite/stats": GET,
};

/** Creates the gateway (not yet listening). */
export function createGateway(opts: GatewayOptions): Gateway {
  const stats = new GatewayStats();
  const support = new ToolSupport(opts.provider);
  const cap = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = opts.log ?? (() => undefined);
  const upstream = opts.upstream;
  // User info in the upstream address (`http://user:pass@host`) is sent as an HTTP Basic header,
  // as the providers do (fetch refuses URLs with credentials), and never appears in a reply.
  const { url: upstreamBase, authorization: upstreamBasic } = splitCredentials(upstream.api === "ollama" ? upstream.host : upstream.baseURL);
  const upstreamHeaders = (): Record<string, string> => {
    if (upstream.api === "openai" && upstream.apiKey !== undefined) return { authorization: `Bearer ${upstream.apiKey}` };
    return upstreamBasic !== undefined ? { authorization: upstreamBasic } : {};
  };
  /** A failed request of the gateway's own (`/api/tags`, a forwarded route) as the chat routes word it. */
  const unreachable = (err: unknown): GatewayError =>
    upstreamError(new ProviderError("UNREACHABLE", unreachableMessage(SERVER_NAMES[upstream.api], upstreamBase, err)), upstream.api);
  const agentCtx: VirtualModelContext | undefined = opts.agent ? { ...opts.agent, provider: opts.provider, stats } : undefined;
  // A flood of virtual-model requests must not start an agent loop each (the MCP server bounds its tool calls alike).
  const starts = new TurnStarts();
  const agentTurns = new CallQueue(opts.agentTurns?.maxRunning ?? MAX_RUNNING_AGENT_TURNS, opts.agentTurns?.maxWaiting ?? MAX_WAITING_AGENT_TURNS, agentBusy);

  // With the virtual model, also its answers running and waiting now (the queue above).
  const report = (): StatsReport => (agentCtx ? { ...stats.toJSON(), agent_turns: { running: agentTurns.running, waiting: agentTurns.waiting } } : stats.toJSON());

  /** The upstream URL of a forwarded path. */
  const forwardURL = (path: string): string | undefined => {
    if (upstream.api === "ollama") return `${upstreamBase}${path}`;
    if (path.startsWith("/v1/")) return `${upstreamBase}${path.slice(3)}`;
    return undefined;
  };

  /** Forwards a request unchanged and streams the upstream's answer back. */
  async function forward(req: http.IncomingMessage, res: http.ServerResponse, path: string, body: Buffer | undefined, signal: AbortSignal): Promise<void> {
    const url = forwardURL(path);
    if (url === undefined) throw new GatewayError(501, `${path} is not available: the upstream is an OpenAI-compatible server`, "not_implemented");
    const headers: Record<string, string> = { accept: req.headers.accept ?? "*/*", ...upstreamHeaders() };
    if (body !== undefined) headers["content-type"] = "application/json";
    let upstreamRes: Response;
    try {
      // HEAD is asked as GET (an upstream need not answer HEAD); the client still gets no body.
      upstreamRes = await fetch(url, { method: req.method === "HEAD" ? "GET" : (req.method ?? "GET"), headers, ...(body !== undefined ? { body: new Uint8Array(body) } : {}), signal });
    } catch (err) {
      if (signal.aborted) return;
      throw unreachable(err);
    }
    const type = upstreamRes.headers.get("content-type");
    res.writeHead(upstreamRes.status, type ? { "content-type": type } : {});
    if (!upstreamRes.body) {
      res.end();
      return;
    }
    const stream = Readable.fromWeb(upstreamRes.body as import("node:stream/web").ReadableStream<Uint8Array>);
    stream.on("error", () => {
      // A cut upstream stream ends the client's response too; the client sees the stream end early.
      if (!res.writableEnded) res.destroy();
    });
    stream.pipe(res);
    await new Promise<void>((resolve) => {
      res.on("close", resolve);
    });
  }

  async function listModels(): Promise<string[]> {
    if (!opts.provider.listModels) return [];
    return opts.provider.listModels();
  }

  async function tags(res: http.ServerResponse, signal: AbortSignal): Promise<void> {
    let models: Record<string, unknown>[];
    if (upstream.api === "ollama") {
      const r = await fetch(`${upstreamBase}/api/tags`, { signal, headers: upstreamHeaders() }).catch((err: unknown) => {
        throw unreachable(err);
      });
      if (!r.ok) throw new GatewayError(502, `upstream answered HTTP ${r.status} to /api/tags`);
      const body = (await boundedJson(r, MAX_TAGS_BYTES, "reply to /api/tags")) as { models?: unknown };
      models = Array.isArray(body.models) ? (body.models as Record<string, unknown>[]) : [];
    } else {
      models = (await listModels().catch((err: unknown) => Promise.reject(upstreamError(err, opts.provider.id)))).map((name) => ({ name, model: name }));
    }
    const names = models.map((m) => String(m.name ?? m.model ?? "")).filter((n) => n !== "");
    const virtual = agentCtx ? [VIRTUAL_MODEL, ...names.map((n) => `${VIRTUAL_MODEL}/${n}`)] : [];
    const entries = virtual.map((name) => ({
      name,
      model: name,
      modified_at: new Date(0).toISOString(),
      size: 0,
      digest: createHash("sha256").update(name).digest("hex"),
      details: { parent_model: "", format: "codecite", family: "codecite", families: ["codecite"], parameter_size: "", quantization_level: "" },
    }));
    sendJson(res, 200, { models: [...models, ...entries] });
  }

  async function openaiModels(res: http.ServerResponse): Promise<void> {
    const names = await listModels().catch((err: unknown) => Promise.reject(upstreamError(err, opts.provider.id)));
    const all = [...names, ...(agentCtx ? [VIRTUAL_MODEL, ...names.map((n) => `${VIRTUAL_MODEL}/${n}`)] : [])];
    sendJson(res, 200, { object: "list", data: all.map((id) => ({ id, object: "model", created: 0, owned_by: id.startsWith(VIRTUAL_MODEL) ? "codecite" : upstream.api })) });
  }

  /** `reply.writer`: the chat's writer, whose `failure` the request's log line reads (a turn ends its own failures with `out.fail`). */
  async function chat(api: Api, body: Buffer, res: http.ServerResponse, signal: AbortSignal, reply: ChatReply): Promise<void> {
    // Chunks of the chats already streaming go first (`turn-starts.ts`).
    await starts.next();
    if (signal.aborted) return;
    const parsed: GatewayChat = api === "ollama" ? parseOllamaChat(parseJson(body)) : parseOpenAIChat(parseJson(body));
    const out: BufferedChatWriter =
      api === "ollama" ? new OllamaChatWriter(res, parsed.model, parsed.stream, clientIdle) : new OpenAIChatWriter(res, parsed.model, parsed.stream, clientIdle, parsed.streamUsage === true);
    reply.writer = out;
    const target = virtualTarget(parsed.model);
    if (target !== undefined && agentCtx) return agentTurns.run(() => agentTurn(agentCtx, parsed, target, out, signal), signal);
    return shimTurn({ provider: opts.provider, support, stats }, parsed, out, signal);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, path: string, signal: AbortSignal, awaitsContinue: boolean, reply: ChatReply): Promise<void> {
    const api = apiOf(path);
    const method = req.method ?? "GET";
    if (opts.token === undefined) refuseForeignPages(req);
    if (opts.token !== undefined && !tokenMatches(req.headers.authorization, opts.token)) {
      res.setHeader("www-authenticate", "Bearer");
      throw new GatewayError(401, "missing or wrong bearer token (Authorization: Bearer <token>)", "authentication_error");
    }
    const allowed = ROUTES[path];
    if (!allowed) throw new GatewayError(404, `no route ${path}`, "not_found_error");
    if (!allowed.includes(method)) {
      res.setHeader("allow", allowed.join(", "));
      throw new GatewayError(405, `${path} accepts ${allowed.join(", ")}, not ${method}`);
    }
    const body = method === "POST" ? await readBody(req, res, cap, awaitsContinue) : undefined;
    if (opts.verbose && body !== undefined) log(`  request ${path}: ${body.toString("utf8").slice(0, 2000)}`);
    switch (path) {
      case "/":
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end("codecite serve is running");
        return;
      case "/codecite/stats":
        return sendJson(res, 200, opts.answerStats ? await opts.answerStats(report()) : report());
      case "/api/chat":
      case "/v1/chat/completions":
        return chat(api, body!, res, signal, reply);
      case "/api/tags":
        return tags(res, signal);
      case "/v1/models":
        return openaiModels(res);
      case "/api/show": {
        const parsed = parseJson(body!) as { model?: unknown; name?: unknown };
        const name = typeof parsed?.model === "string" ? parsed.model : typeof parsed?.name === "string" ? parsed.name : "";
        if ((agentCtx && virtualTarget(name) !== undefined) || upstream.api === "openai") {
          const known = agentCtx && virtualTarget(name) !== undefined;
          return sendJson(res, 200, {
            modelfile: "",
            parameters: "",
            template: "",
            details: { parent_model: "", format: known ? "codecite" : "openai", family: known ? "codecite" : "openai", families: [], parameter_size: "", quantization_level: "" },
            model_info: {},
            // The gateway gives every model native tool calling (prompt mode where the model lacks it).
            capabilities: known ? ["completion"] : ["completion", "tools"],
          });
        }
        return forward(req, res, path, body, signal);
      }
      case "/api/version":
        if (upstream.api === "openai") return sendJson(res, 200, { version: opts.version ?? "0.0.0" });
        return forward(req, res, path, body, signal);
      default:
        return forward(req, res, path, body, signal);
    }
  }

  /** How each reply being written is ended when the gateway stops (`close`). */
  const replying = new Set<() => void>();
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const clientIdle = Math.min(opts.clientIdleMs ?? DEFAULT_CLIENT_IDLE_MS, requestTimeout);
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse, awaitsContinue = false): void => {
    // The request's headers are in: its body is bounded by `requestTimeout`, its reply by nothing.
    req.socket.setTimeout(0);
    const started = Date.now();
    const path = (req.url ?? "/").split("?")[0]!;
    const api = apiOf(path);
    stats.request();
    const controller = new AbortController();
    // Why the gateway failed a request (upstream down, internal error): the operator reads it in the log line.
    let serverFault: string | undefined;
    const reply: ChatReply = {};
    // The gateway stopping ends this reply in its client's API shape, and cancels the upstream request.
    const stop = (): void => {
      if (res.writableEnded || res.destroyed) return;
      const error = stopping();
      serverFault = error.message;
      // Its connection closes once the error is written (no next request comes on it).
      res.once("finish", () => req.socket.end());
      if (reply.writer) reply.writer.fail(error);
      else if (!res.headersSent) {
        res.setHeader("connection", "close");
        sendError(res, api, error);
      }
      // A forwarded reply half written: its bytes are the upstream's, so it is cut.
      else res.destroy();
      controller.abort(error);
    };
    replying.add(stop);
    // A client that hangs up before the reply ended cancels the upstream request.
    res.on("close", () => {
      replying.delete(stop);
      if (!res.writableFinished) controller.abort(new Error("the client closed the connection"));
      // A chat turn ends its own failures in the client's shape (`out.fail`), without throwing.
      const turnFault = reply.writer?.failure;
      if (serverFault === undefined && turnFault !== undefined && turnFault.status >= 500) serverFault = turnFault.message;
      log(`${req.method} ${path} ${res.statusCode}${res.writableFinished ? "" : " (client gone)"} ${Date.now() - started} ms${serverFault === undefined ? "" : `: ${serverFault}`}`);
    });
    handle(req, res, path, controller.signal, awaitsContinue, reply).catch((err: unknown) => {
      if (controller.signal.aborted) return;
      const error = err instanceof GatewayError ? err : new GatewayError(500, `internal error: ${err instanceof Error ? err.message : String(err)}`, "server_error");
      if (error.status >= 500) serverFault = error.message;
      if (error.status === 413) res.setHeader("connection", "close");
      sendError(res, api, error);
    });
  };
  const server = http.createServer(
    // Node checks both limits every `connectionsCheckingInterval` ms (its default, 30 s, would let a
    // short limit run far over).
    { requestTimeout, headersTimeout: clientIdle, connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(clientIdle / 4))) },
    onRequest,
  );
  // An HTTP/1.1 request with `Expect: 100-continue` comes here instead of 'request' (Node.js
  // documentation, http.Server event 'checkContinue'; without a listener Node answers 100 at once,
  // before the gateway could refuse a declared body over the cap): `readBody` writes the 100 when it wants the body.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => onRequest(req, res, true));
  // A connection that sends nothing at all is not covered by `headersTimeout` (Node starts that
  // clock at the first byte): it is closed after `clientIdle` ms of silence. Node destroys a socket
  // whose timeout fires when the server has no 'timeout' listener.
  server.on("connection", (socket) => socket.setTimeout(clientIdle));
  server.keepAliveTimeout = 5_000;

  return {
    server,
    stats,
    report,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const stop of [...replying]) stop();
        // The connections of ended replies close once their last bytes are written (a client that
        // reads none of them is cut after STOP_FLUSH_MS).
        server.closeIdleConnections();
        const flushed = setTimeout(() => server.closeAllConnections(), STOP_FLUSH_MS);
        server.once("close", () => clearTimeout(flushed));
      }),
  };
}

/** @throws GatewayError 403 for a request from another site's web page (see `request-guard.ts`). */
function refuseForeignPages(req: http.IncomingMessage): void {
  const host = req.headers.host;
  if (!isLoopbackHost(host)) {
    throw new GatewayError(
      403,
      `requests for host ${shown(host ?? "")} are refused: without a token, codecite serve answers only requests addressed to this machine's loopback (localhost, 127.0.0.1, [::1])`,
      "permission_error",
    );
  }
  const origin = req.headers.origin;
  if (!isTrustedOrigin(origin)) {
    throw new GatewayError(
      403,
      `requests from the web page ${shown(origin ?? "")} are refused: without a token, codecite serve answers only pages served from this machine's loopback`,
      "permission_error",
    );
  }
}

/** A header value quoted for a message, at most 100 characters. */
function shown(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 97)}...` : value);
}

