/**
 * A fake OpenAI-compatible server on real HTTP (127.0.0.1, ephemeral port) for tests.
 *
 * Speaks the real wire protocol: `POST /v1/chat/completions` (one JSON body, or server-sent
 * events `data: {chat.completion.chunk}` … `data: [DONE]` when `stream: true`, with tool-call
 * argument deltas split across chunks and keyed by `index`, and the usage chunk when the request
 * sets `stream_options.include_usage`), `POST /v1/completions` (the prompt reversed, as one body
 * or streamed two characters per event) and `GET /v1/models`. Replies
 * are scripted turns consumed in order; every request is recorded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeToolCall {
  id?: string;
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (e.g. to test repair of bad JSON). */
  arguments: string | Record<string, unknown>;
}

export interface FakeOpenAITurn {
  content?: string;
  /** Reasoning text, sent as `reasoning_content` (vLLM, llama-server) or `reasoning` (Ollama `/v1`). */
  reasoning?: string;
  reasoningField?: "reasoning_content" | "reasoning";
  tool_calls?: FakeToolCall[];
  /** Default `tool_calls` when there are calls, else `stop`. */
  finish_reason?: string;
  /** Reply with this HTTP error instead (body `{"error":{"message","type","code"}}`). */
  error?: { status: number; message: string };
  /** Characters per streamed content/argument piece (default 3). */
  chunkSize?: number;
  /** Alternate argument pieces of several calls (stream only). */
  interleave?: boolean;
  /** Write each SSE event in two halves, so an event straddles TCP writes. */
  splitEvents?: boolean;
  /** Leave `index` out of tool-call deltas, as some older servers do (stream only). */
  omitIndex?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (`undefined` for GET). */
  body: Record<string, unknown> | undefined;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, as `OPENAI_BASE_URL` would be set. */
  readonly baseURL: string;
  /** `http://127.0.0.1:PORT` without a path. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Recorded chat requests only. */
  chatRequests(): Record<string, unknown>[];
  /** Adds scripted turns at the end of the queue. */
  enqueue(...turns: FakeOpenAITurn[]): void;
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  turns?: FakeOpenAITurn[];
  /** Served by `GET /v1/models` (default `["fake-model"]`). */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <key>` get HTTP 401. */
  apiKey?: string;
  /** Answers a chat request when no scripted turn is left (e.g. a reply that depends on the request's tools). */
  reply?: (body: Record<string, unknown>) => FakeOpenAITurn;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type: status === 404 ? "not_found_error" : "invalid_request_error", code: status } }));
}

/** Starts the fake server. Close it in `afterEach`/`afterAll`. */
export async function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeOpenAITurn[] = [...(opts.turns ?? [])];
  const requests: RecordedRequest[] = [];
  const models = opts.models ?? ["fake-model"];
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> | undefined;
      try {
        body = raw === "" ? undefined : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        sendError(res, 400, "body is not JSON");
        return;
      }
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        sendError(res, 401, "Incorrect API key provided");
        return;
      }
      if (req.method === "GET" && path === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) }));
        return;
      }
      if (req.method === "POST" && path === "/v1/completions" && body) {
        // A text completion (the legacy API editors use for code completion): the prompt's echo, reversed.
        const text = [...String(body.prompt ?? "")].reverse().join("");
        const event = (t: string, finish: string | null) => ({ id: "cmpl-1", object: "text_completion", created: 0, model: body.model, choices: [{ index: 0, text: t, finish_reason: finish }] });
        if (body.stream === true) {
          res.writeHead(200, { "content-type": "text/event-stream" });
          for (const p of pieces(text, 2)) res.write(`data: ${JSON.stringify(event(p, null))}\n\n`);
          res.end(`data: ${JSON.stringify(event("", "stop"))}\n\ndata: [DONE]\n\n`);
        } else {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(event(text, "stop")));
        }
        return;
      }
      if (req.method === "POST" && path === "/v1/chat/completions" && body) {
        const model = String(body.model ?? "");
        if (!models.includes(model)) {
          sendError(res, 404, `The model \`${model}\` does not exist.`);
          return;
        }
        const turn = queue.shift() ?? opts.reply?.(body);
        if (!turn) {
          sendError(res, 500, "fake-openai: no scripted turn left");
          return;
        }
        if (turn.error) {
          sendError(res, turn.error.status, turn.error.message);
          return;
        }
        counter += 1;
        const id = `chatcmpl-${counter}`;
        const calls = (turn.tool_calls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_${counter}_${i}` }));
        const finish = turn.finish_reason ?? (calls.length > 0 ? "tool_calls" : "stop");
        const reasoningField = turn.reasoningField ?? "reasoning_content";
        if (body.stream === true) {
          const options = body.stream_options;
          const includeUsage = typeof options === "object" && options !== null && (options as { include_usage?: unknown }).include_usage === true;
          streamTurn(res, { id, model, turn, calls, finish, reasoningField, includeUsage });
        } else {
          const message: Record<string, unknown> = { role: "assistant", content: turn.content ?? (calls.length > 0 ? null : "") };
          if (turn.reasoning) message[reasoningField] = turn.reasoning;
          if (calls.length > 0) {
            message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: argsText(c) } }));
          }
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              id,
              object: "chat.completion",
              created: 0,
              model,
              choices: [{ index: 0, message, finish_reason: finish }],
              usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
            }),
          );
        }
        return;
      }
      sendError(res, 404, `no route ${req.method} ${path}`);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseURL: `${origin}/v1`,
    origin,
    requests,
    chatRequests: () =>
      requests.filter((r) => r.path === "/v1/chat/completions" && r.body).map((r) => r.body as Record<string, unknown>),
    enqueue: (...turns) => void queue.push(...turns),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function streamTurn(
  res: http.ServerResponse,
  t: {
    id: string;
    model: string;
    turn: FakeOpenAITurn;
    calls: (FakeToolCall & { id: string })[];
    finish: string;
    reasoningField: string;
    /** The request asked for `stream_options.include_usage`: a last chunk with `usage` and no choices. */
    includeUsage: boolean;
  },
): void {
  const size = t.turn.chunkSize ?? 3;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => {
    const event = `data: ${JSON.stringify({
      id: t.id,
      object: "chat.completion.chunk",
      created: 0,
      model: t.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })}\n\n`;
    if (t.turn.splitEvents) {
      const mid = Math.floor(event.length / 2);
      res.write(event.slice(0, mid));
      res.write(event.slice(mid));
    } else {
      res.write(event);
    }
  };
  send({ role: "assistant", content: "" });
  for (const p of pieces(t.turn.reasoning ?? "", size)) send({ [t.reasoningField]: p });
  for (const p of pieces(t.turn.content ?? "", size)) send({ content: p });
  const at = (index: number) => (t.turn.omitIndex ? {} : { index });
  const argPieces = t.calls.map((c) => pieces(argsText(c), size));
  if (t.turn.interleave) {
    t.calls.forEach((c, index) =>
      send({ tool_calls: [{ ...at(index), id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }),
    );
    const longest = Math.max(0, ...argPieces.map((p) => p.length));
    for (let k = 0; k < longest; k++) {
      argPieces.forEach((ps, index) => {
        const p = ps[k];
        if (p !== undefined) send({ tool_calls: [{ ...at(index), function: { arguments: p } }] });
      });
    }
  } else {
    // Each call in turn: its first chunk (id, type, name, empty arguments), then its argument pieces.
    t.calls.forEach((c, index) => {
      send({ tool_calls: [{ ...at(index), id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
      argPieces[index]!.forEach((p) => send({ tool_calls: [{ ...at(index), function: { arguments: p } }] }));
    });
  }
  send({}, t.finish);
  // The usage chunk only when the request asks for it (OpenAI API reference, `stream_options.include_usage`).
  if (t.includeUsage) {
    res.write(
      `data: ${JSON.stringify({ id: t.id, object: "chat.completion.chunk", created: 0, model: t.model, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`,
    );
  }
  res.end("data: [DONE]\n\n");
}
