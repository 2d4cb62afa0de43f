/**
 * A `fetch` whose replies are read with a size limit. The official `ollama` and `openai` clients
 * read a whole reply (`response.json()`, `response.text()`) before they look at it, so a model
 * server that sends a model list, a model description or a chat reply without end would fill the
 * memory of `ask`, `chat`, `eval`, `doctor` or `codecite serve` (which asks `/api/show` for every
 * model it relays) before the request's time limit. The providers give this `fetch` to the
 * clients; streamed chats over `node:http` have their own limits (`http-lines.ts`).
 */
import { MAX_REPLY_BYTES } from "./http-lines.js";
import { ProviderError } from "./types.js";

/**
 * Most bytes of a reply that is not a chat (16 MiB): a model list (Ollama `GET /api/tags`, OpenAI
 * `GET /models`), a model description (`POST /api/show`: its license, template and parameters are
 * tens of KB, its `model_info` a few KB) or a version. A list of a thousand models is about 1 MB.
 */
export const MAX_METADATA_REPLY_BYTES = 16 * 1024 * 1024;

/**
 * Most bytes of an error reply's body that are passed on (64 KiB); the rest is dropped, the body
 * ends there and the connection is closed. The clients quote the body in their error, and the
 * providers cut that quote to a few hundred characters.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Whether `url` is a chat request (Ollama `POST /api/chat`, OpenAI `POST …/chat/completions`), whose reply may be long. */
function isChat(url: string): boolean {
  const pathname = new URL(url).pathname.replace(/\/+$/, "");
  return pathname.endsWith("/api/chat") || pathname.endsWith("/chat/completions");
}

/** The URL a `fetch` call asks for. */
function urlOf(input: string | URL | Request): string {
  return typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
}

/**
 * `base` with a limit on every reply's body, by the request's path: a chat reply at most
 * `MAX_REPLY_BYTES` of `http-lines.ts` (256 MiB, as a streamed chat), any other 2xx reply at
 * most {@link MAX_METADATA_REPLY_BYTES}, an error reply (status outside 2xx) is cut after
 * {@link MAX_ERROR_BODY_BYTES}. Past the limit of a 2xx reply, reading the body fails with
 * ProviderError `BAD_RESPONSE` ("the server at ORIGIN sent a reply longer than N bytes"); in
 * either case the rest is not read and the connection is closed (the reply's stream is
 * cancelled). Headers, status and `url` are the reply's own.
 * @param limits - other limits in bytes (tests use small ones).
 */
export function boundedFetch(
  base: typeof fetch,
  limits: { chat?: number; metadata?: number; errorBody?: number } = {},
): typeof fetch {
  return async (input, init) => {
    const url = urlOf(input);
    const res = await base(input, init);
    if (res.body === null) return res;
    const ok = res.status >= 200 && res.status <= 299;
    const max = !ok
      ? (limits.errorBody ?? MAX_ERROR_BODY_BYTES)
      : isChat(url)
        ? (limits.chat ?? MAX_REPLY_BYTES)
        : (limits.metadata ?? MAX_METADATA_REPLY_BYTES);
    const origin = new URL(url).origin;
    const reader = res.body.getReader();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          controller.close();
          return;
        }
        const room = max - seen;
        seen += next.value.byteLength;
        if (seen <= max) {
          controller.enqueue(next.value);
          return;
        }
        await reader.cancel().catch(() => undefined);
        if (ok) {
          controller.error(new ProviderError("BAD_RESPONSE", `the server at ${origin} sent a reply longer than ${max} bytes`));
          return;
        }
        if (room > 0) controller.enqueue(next.value.subarray(0, room));
        controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const bounded = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(bounded, "url", { value: res.url });
    return bounded;
  };
}
