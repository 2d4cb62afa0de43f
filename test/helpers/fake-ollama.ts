/**
 * A fake Ollama server on real HTTP (node:http, 127.0.0.1, an ephemeral port) for tests of the
 * provider, the agent loop, the CLI (run as a subprocess) and other helpers (doctor, bench).
 *
 * It speaks Ollama's wire protocol as the API documentation describes it:
 * - `POST /api/chat`: a scripted assistant turn, streamed as NDJSON (`stream` absent or `true`:
 *   `thinking` parts, `content` parts, one part with `tool_calls`, then a final `done: true`
 *   part with `done_reason` and counts) or as one JSON body (`stream: false`);
 * - `GET /api/tags`: the installed models; `POST /api/show`: `capabilities`, `details` and
 *   `model_info` with `<family>.context_length`; `GET /api/version`.
 * - Errors like the real server: a chat or show for a model that is not installed gets
 *   HTTP 404 `{"error":"model \"NAME\" not found, try pulling it first"}`; a chat that sends
 *   `tools` to a model whose capabilities lack `tools` gets HTTP 400
 *   `{"error":"registry.ollama.ai/library/NAME does not support tools"}`. Any turn can also
 *   script its own error (JSON or plain-text body, or an `{"error"}` line mid-stream).
 *
 * `prompt_eval_count` follows a simple model of Ollama's prompt evaluation when `prompt` is set
 * (a server-side context cap, the prompt cache; see `FakePromptModel`), and `done_reason` can be
 * scripted per turn (`length` for an answer cut by the output limit).
 *
 * Scripted turns are consumed in order; a turn with `when` is used only for a request that
 * satisfies the predicate (the first unconsumed turn that matches wins; `repeat` turns are
 * never consumed). A chat request with no matching turn gets HTTP 500 with a JSON error that
 * says so. Every request is recorded (`requests`, `chatRequests()`).
 *
 * Usage:
 * ```ts
 * const server = await startFakeOllama({
 *   models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }],
 *   turns: [
 *     { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
 *     { content: "src/rag_chat.py:10 imports it." },
 *   ],
 * });
 * const provider = new OllamaProvider({ host: server.host });
 * // … server.chatRequests()[1].messages …
 * await server.close();
 * ```
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A tool call as the fake server sends it (`{function: {name, arguments}}`, plus `id` when given). */
export interface FakeOllamaToolCall {
  name: string;
  /** An object is sent as is (Ollama's form); a string is sent verbatim (some proxies do that). */
  arguments: Record<string, unknown> | string;
  /** Sent as `id` when set (newer Ollama versions send call ids). */
  id?: string;
}

/** The JSON body of a `POST /api/chat` request, as received. */
export interface ChatRequestBody {
  model: string;
  messages: Array<{
    role: string;
    content: string;
    thinking?: string;
    images?: string[];
    tool_calls?: Array<{ id?: string; function: { name: string; arguments: unknown } }>;
    tool_name?: string;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  format?: unknown;
  think?: unknown;
  stream?: boolean;
  options?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One scripted reply to `POST /api/chat`. */
export interface FakeOllamaTurn {
  /** Use this turn only for requests that satisfy the predicate. */
  when?: (req: ChatRequestBody) => boolean;
  /** Keep the turn after use (it answers every matching request). */
  repeat?: boolean;
  content?: string;
  thinking?: string;
  tool_calls?: FakeOllamaToolCall[];
  /** Default `stop`. */
  done_reason?: string;
  /** Characters per streamed content/thinking part (default 4). */
  chunkSize?: number;
  /** Reply with an HTTP error instead: a JSON body `{"error": message}`, or plain text when `text`. */
  error?: { status: number; message: string; text?: boolean };
  /** Stream: after `failAfterParts` content parts, send an `{"error": message}` line and end. */
  streamError?: { message: string; failAfterParts?: number };
  /** Never answer (for timeout tests); the connection stays open until the client gives up. */
  hang?: boolean;
  /** Wait this long before answering, ms (a slow model). */
  delayMs?: number;
  /** Stream: wait this long between lines, ms (a model that writes slowly). */
  partDelayMs?: number;
  /** `prompt_eval_count` of this reply (default: the server's prompt model, see `FakeOllamaOptions.prompt`). */
  prompt_eval_count?: number;
}

/**
 * How the fake counts evaluated prompt tokens (`prompt_eval_count`), like Ollama does:
 * - the prompt's tokens are estimated as 1 per 3.5 ASCII characters (+1 per other character) of
 *   every message's content and the tools' JSON, +4 per message;
 * - `contextCap`: a server-side context limit (a Modelfile `num_ctx`): a longer prompt is cut
 *   and only `contextCap` tokens are evaluated, whatever the request's `num_ctx`;
 * - `cache`: the prefix shared with the previous request (messages equal in role, content and
 *   calls, the previous reply counting as the next assistant message) is served from the cache
 *   and not counted, as Ollama's prompt cache does.
 */
export interface FakePromptModel {
  contextCap?: number;
  cache?: boolean;
}

/** An installed model. */
export interface FakeOllamaModel {
  name: string;
  /** `/api/show` capabilities (default `["completion", "tools"]`). */
  capabilities?: string[];
  /** `model_info["<family>.context_length"]` (default 32768). */
  context_length?: number;
  /** Architecture family (default `qwen3`). */
  family?: string;
}

export interface FakeOllamaOptions {
  models?: FakeOllamaModel[];
  turns?: FakeOllamaTurn[];
  /** `GET /api/version` (default `0.12.6`). */
  version?: string;
  /** How `prompt_eval_count` is computed (default: a constant 42). */
  prompt?: FakePromptModel;
  /**
   * A rule-following model: called for a chat request that no queued turn matches; its turn is
   * the reply (`undefined`: the usual "no scripted turn" error).
   */
  respond?: (req: ChatRequestBody) => FakeOllamaTurn | undefined;
}

export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/api/chat`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (`undefined` for GET or an empty body). */
  body: Record<string, unknown> | undefined;
}

export interface FakeOllama {
  /** `http://127.0.0.1:PORT`, as `OLLAMA_HOST` or `--host` would be set. */
  readonly host: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** The bodies of the `POST /api/chat` requests, in order. */
  chatRequests(): ChatRequestBody[];
  /** Adds scripted turns at the end of the queue. */
  enqueue(...turns: FakeOllamaTurn[]): void;
  /** Unconsumed, non-repeating turns left (a test can assert the script was used up). */
  pending(): number;
  close(): Promise<void>;
}

const DEFAULT_MODELS: FakeOllamaModel[] = [{ name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] }];

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `qwen3` → `qwen3`, `qwen3:8b` → `qwen3:8b`: Ollama matches names with and without `:latest`. */
function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => (s.includes(":") ? s : `${s}:latest`);
  return norm(a) === norm(b);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function tokensOf(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3.5) + other;
}

type WireMessage = ChatRequestBody["messages"][number];

function messageKey(m: WireMessage): string {
  return JSON.stringify([m.role, m.content, (m.tool_calls ?? []).map((c) => [c.function.name, c.function.arguments])]);
}

function messageTokens(m: WireMessage): number {
  return 4 + tokensOf(m.content ?? "") + (m.tool_calls ? tokensOf(JSON.stringify(m.tool_calls)) : 0);
}

function wireCalls(calls: FakeOllamaToolCall[]): unknown[] {
  return calls.map((c, index) => {
    const call: Record<string, unknown> = { function: { index, name: c.name, arguments: c.arguments } };
    if (c.id !== undefined) call.id = c.id;
    return call;
  });
}

/** Starts the fake server. Close it with `close()` (also ends hanging requests). */
export async function startFakeOllama(opts: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = opts.models ?? DEFAULT_MODELS;
  const queue: FakeOllamaTurn[] = [...(opts.turns ?? [])];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  /** The previous request's messages plus its reply, for the prompt cache model. */
  let cached: string[] = [];

  /** `prompt_eval_count` of a request under `opts.prompt` (see `FakePromptModel`). */
  function promptEvalCount(body: ChatRequestBody, reply: WireMessage): number {
    const model = opts.prompt;
    if (!model) return 42;
    const tools = body.tools ? tokensOf(JSON.stringify(body.tools)) : 0;
    const keys = body.messages.map(messageKey);
    const tokens = body.messages.map(messageTokens);
    const total = tools + tokens.reduce((a, b) => a + b, 0);
    const previous = cached;
    cached = [...keys, messageKey(reply)];
    if (model.contextCap !== undefined && total > model.contextCap) return model.contextCap;
    if (!model.cache) return total;
    let shared = 0;
    while (shared < keys.length && shared < previous.length && keys[shared] === previous[shared]) shared++;
    const fresh = tokens.slice(shared).reduce((a, b) => a + b, 0);
    return shared === 0 ? total : fresh;
  }

  const findModel = (name: unknown): FakeOllamaModel | undefined =>
    typeof name === "string" ? models.find((m) => sameModel(m.name, name)) : undefined;

  const notFound = (res: http.ServerResponse, name: unknown) =>
    sendJson(res, 404, { error: `model "${String(name)}" not found, try pulling it first` });

  function takeTurn(req: ChatRequestBody): FakeOllamaTurn | undefined {
    for (let i = 0; i < queue.length; i++) {
      const t = queue[i]!;
      if (t.when && !t.when(req)) continue;
      if (!t.repeat) queue.splice(i, 1);
      return t;
    }
    return opts.respond?.(req);
  }

  function answerChat(body: ChatRequestBody, res: http.ServerResponse): void {
    const model = findModel(body.model);
    if (!model) return notFound(res, body.model);
    const caps = model.capabilities ?? ["completion", "tools"];
    if (Array.isArray(body.tools) && body.tools.length > 0 && !caps.includes("tools")) {
      return sendJson(res, 400, { error: `registry.ollama.ai/library/${body.model} does not support tools` });
    }
    const turn = takeTurn(body);
    if (!turn) return sendJson(res, 500, { error: "fake-ollama: no scripted turn matches this request" });
    if (turn.delayMs !== undefined && turn.delayMs > 0) {
      const { delayMs, ...rest } = turn;
      setTimeout(() => (res.destroyed ? undefined : replyWith(rest, body, res)), delayMs);
      return;
    }
    replyWith(turn, body, res);
  }

  function replyWith(turn: FakeOllamaTurn, body: ChatRequestBody, res: http.ServerResponse): void {
    if (turn.hang) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (turn.error) {
      if (turn.error.text) {
        res.writeHead(turn.error.status, { "content-type": "text/plain; charset=utf-8" });
        res.end(turn.error.message);
        return;
      }
      return sendJson(res, turn.error.status, { error: turn.error.message });
    }
    const created_at = new Date().toISOString();
    const reply: WireMessage = { role: "assistant", content: turn.content ?? "" };
    if (turn.tool_calls && turn.tool_calls.length > 0) reply.tool_calls = turn.tool_calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
    const evaluated = turn.prompt_eval_count ?? promptEvalCount(body, reply);
    const stats = {
      total_duration: 1_000_000,
      load_duration: 1000,
      prompt_eval_count: evaluated,
      prompt_eval_duration: 1000,
      eval_count: 7,
      eval_duration: 1000,
    };
    const stream = body.stream !== false; // Ollama streams unless told not to
    const content = turn.content ?? "";
    const calls = turn.tool_calls ?? [];
    const doneReason = turn.done_reason ?? "stop";
    if (!stream) {
      const message: Record<string, unknown> = { role: "assistant", content };
      if (turn.thinking) message.thinking = turn.thinking;
      if (calls.length > 0) message.tool_calls = wireCalls(calls);
      return sendJson(res, 200, {
        model: body.model,
        created_at,
        message,
        done: true,
        done_reason: doneReason,
        ...stats,
      });
    }
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    const size = turn.chunkSize ?? 4;
    const lines: string[] = [];
    const line = (msg: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      lines.push(`${JSON.stringify({ model: body.model, created_at, message: { role: "assistant", content: "", ...msg }, done: false, ...extra })}\n`);
    for (const p of pieces(turn.thinking ?? "", size)) line({ thinking: p });
    let sent = 0;
    let last: string | undefined;
    for (const p of pieces(content, size)) {
      if (turn.streamError && sent === (turn.streamError.failAfterParts ?? 0)) {
        last = `${JSON.stringify({ error: turn.streamError.message })}\n`;
        break;
      }
      line({ content: p });
      sent++;
    }
    if (last === undefined && turn.streamError) last = `${JSON.stringify({ error: turn.streamError.message })}\n`;
    if (last === undefined) {
      if (calls.length > 0) line({ tool_calls: wireCalls(calls) });
      last = `${JSON.stringify({
        model: body.model,
        created_at,
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: doneReason,
        ...stats,
      })}\n`;
    }
    const end = last;
    const gap = turn.partDelayMs ?? 0;
    if (gap <= 0) {
      for (const l of lines) res.write(l);
      res.end(end);
      return;
    }
    // One line per pause (a model that writes slowly); a client that has gone ends the reply.
    let next = 0;
    const tick = (): void => {
      if (res.destroyed) return;
      if (next < lines.length) {
        res.write(lines[next++]!);
        setTimeout(tick, gap);
      } else res.end(end);
    };
    tick();
  }

  function answerShow(body: Record<string, unknown> | undefined, res: http.ServerResponse): void {
    const name = body?.model ?? body?.name;
    const model = findModel(name);
    if (!model) return sendJson(res, 404, { error: `model '${String(name)}' not found` });
    const family = model.family ?? "qwen3";
    sendJson(res, 200, {
      license: "",
      modelfile: `FROM ${model.name}`,
      parameters: "temperature 0.6",
      template: "{{ .Prompt }}",
      details: {
        parent_model: "",
        format: "gguf",
        family,
        families: [family],
        parameter_size: "8.2B",
        quantization_level: "Q4_K_M",
      },
      model_info: {
        "general.architecture": family,
        "general.parameter_count": 8_190_735_360,
        [`${family}.context_length`]: model.context_length ?? 32768,
        [`${family}.embedding_length`]: 4096,
      },
      capabilities: model.capabilities ?? ["completion", "tools"],
      modified_at: "2026-11-01T10:00:00.000000000Z",
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | undefined;
      if (raw.trim() !== "") {
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          requests.push({ method: req.method ?? "", path, headers: req.headers, body: undefined });
          return sendJson(res, 400, { error: "invalid character in request body" });
        }
      }
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      if (req.method === "POST" && path === "/api/chat") return answerChat(body as ChatRequestBody, res);
      if (req.method === "POST" && path === "/api/show") return answerShow(body, res);
      if (req.method === "GET" && path === "/api/tags") {
        return sendJson(res, 200, {
          models: models.map((m, i) => ({
            name: m.name,
            model: m.name,
            modified_at: "2026-11-01T10:00:00.000000000Z",
            size: 5_000_000_000 + i,
            digest: `${i}`.padStart(64, "0"),
            details: {
              parent_model: "",
              format: "gguf",
              family: m.family ?? "qwen3",
              families: [m.family ?? "qwen3"],
              parameter_size: "8.2B",
              quantization_level: "Q4_K_M",
            },
          })),
        });
      }
      if (req.method === "GET" && path === "/api/version") return sendJson(res, 200, { version: opts.version ?? "0.12.6" });
      if (req.method === "GET" && path === "/") {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        res.end("Ollama is running");
        return;
      }
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("404 page not found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    host: `http://127.0.0.1:${port}`,
    port,
    requests,
    chatRequests: () =>
      requests.filter((r) => r.path === "/api/chat" && r.body !== undefined).map((r) => r.body as ChatRequestBody),
    enqueue: (...turns) => void queue.push(...turns),
    pending: () => queue.filter((t) => !t.repeat).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
