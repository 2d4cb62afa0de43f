/**
 * A streamed HTTP `POST` read line by line (NDJSON, server-sent events), over `node:http` /
 * `node:https` with a keep-alive agent. The providers stream chats this way instead of through
 * `fetch`: web streams cost a promise, a copy and a decode per read, which a gateway relaying
 * thousands of chunks a second (`codecite serve`) pays on every chunk.
 */
import http from "node:http";
import https from "node:https";
import { ProviderError } from "./types.js";

/** A reply with a status outside 2xx: its status, content type and body (at most `ERROR_BODY_BYTES`). */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly contentType: string,
    readonly body: string,
  ) {
    super(`HTTP ${status} ${statusText}`);
  }
}

/** Most bytes of an error reply's body that are kept. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Longest line of a 2xx reply, in bytes (16 MiB). A streamed chunk of a chat is one line of a few
 * hundred bytes; bytes without a line break wait in memory, so a server that never sends one
 * would fill it until the process dies (and `codecite serve` with it, for every client).
 */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Most bytes of a 2xx reply, all lines together (256 MiB). The streamed text is kept (a turn's
 * answer and reasoning), so a server that streams without end (reasoning that never stops) would
 * fill memory before the request's time limit: a reply of 128K tokens is about 40 MB of NDJSON.
 */
export const MAX_REPLY_BYTES = 256 * 1024 * 1024;

/** The message of the error for a reply that began and broke off before its end. */
export const REPLY_CUT_SHORT = "the reply was cut short";

/** Options of {@link postLines}. */
export interface PostLinesOptions {
  headers?: Record<string, string>;
  /** Aborts the request; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Whole-request limit in ms, reading included; the promise rejects with a `TimeoutError`
   * DOMException. Time the reply spends paused by `backpressure` is not counted: the server is
   * then waiting for the caller's reader, not slow itself (a reader that takes nothing is the
   * caller's to bound: `codecite serve` closes a client that takes no byte for `clientIdleMs`).
   */
  timeoutMs?: number;
  /** Longest line of a 2xx reply in bytes (default {@link MAX_LINE_BYTES}). */
  maxLineBytes?: number;
  /** Most bytes of a 2xx reply (default {@link MAX_REPLY_BYTES}). */
  maxReplyBytes?: number;
  /**
   * Called after each read of a 2xx reply, its lines delivered: a promise when the caller cannot
   * take more lines now; the reply is paused until it resolves (Node.js documentation,
   * `readable.pause()`: the socket is read no further once its buffer is full, so the server's
   * writes wait). The `timeoutMs` clock stops while the reply is paused.
   */
  backpressure?: () => Promise<void> | undefined;
  /** Connection pool (default: one keep-alive agent per protocol for this module); the one resend after a pooled connection turned out closed uses a connection of its own. */
  agent?: http.Agent;
}

const AGENTS = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * POSTs `body` (a JSON text) to `url` and calls `onLine` with each line of a 2xx reply, without
 * its line break (`\n` or `\r\n`), as soon as the line is complete; a last line without a line
 * break too. `onLine` returns `true` to stop: the rest of the reply is read and dropped.
 * Resolves once the reply has ended or `onLine` stopped it.
 * @throws HttpStatusError for a status outside 2xx; ProviderError `BAD_RESPONSE` for a line longer
 *   than `maxLineBytes` or a reply longer than `maxReplyBytes` (the request is then destroyed); the socket's error (with its `code`, e.g.
 *   `ECONNREFUSED`, or `ECONNRESET` for a reply cut short) when the connection fails; a
 *   `TimeoutError` DOMException after `timeoutMs`; the signal's reason when it aborts; whatever
 *   `onLine` throws (the request is then destroyed).
 */
export function postLines(url: string, body: string, opts: PostLinesOptions, onLine: (line: string) => boolean | void): Promise<void> {
  return attempt(url, body, opts, onLine, true);
}

/**
 * One request. A kept-alive connection that the server closed while it was idle fails the next
 * request on it before any reply (`ECONNRESET`, `EPIPE`): that request is sent once more on a new
 * connection (Node.js documentation, `http.Agent`, "`request.reusedSocket`"), outside the pool:
 * after an idle spell every pooled connection may have been closed by the server, and the pool
 * would hand the retry another of them.
 */
function attempt(url: string, body: string, opts: PostLinesOptions, onLine: (line: string) => boolean | void, mayRetry: boolean): Promise<void> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const target = new URL(url);
  const secure = target.protocol === "https:";
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    /** What is left of `timeoutMs`, and since when the clock has been running (`performance.now()`). */
    let timeLeft = opts.timeoutMs;
    let clockSince = 0;
    const startClock = (): void => {
      if (timeLeft === undefined || settled || timer !== undefined) return;
      clockSince = performance.now();
      timer = setTimeout(() => fail(new DOMException(`no complete reply within ${opts.timeoutMs} ms`, "TimeoutError")), timeLeft);
    };
    /** Stops the clock while the reply waits for the caller's reader (`backpressure`). */
    const stopClock = (): void => {
      if (timer === undefined || timeLeft === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      timeLeft = Math.max(0, timeLeft - (performance.now() - clockSince));
    };
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (err === undefined) resolve();
      else reject(err);
    };
    const fail = (err: unknown) => {
      settle(err);
      req.destroy();
    };
    const onAbort = () => fail(signal!.reason);
    const req = (secure ? https : http).request(
      target,
      {
        method: "POST",
        // `false`: a connection of its own, closed after the reply (the retry).
        agent: mayRetry ? (opts.agent ?? (secure ? AGENTS.https : AGENTS.http)) : false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...opts.headers },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          res.setEncoding("utf8");
          let text = "";
          res.on("data", (d: string) => {
            if (text.length < ERROR_BODY_BYTES) text += d;
          });
          res.on("end", () => settle(new HttpStatusError(status, res.statusMessage ?? "", String(res.headers["content-type"] ?? ""), text.slice(0, ERROR_BODY_BYTES))));
          res.on("error", fail);
          return;
        }
        // Lines are cut from the bytes (a line break byte is never inside a UTF-8 sequence) and
        // decoded one by one: no string decoder per read. Bytes of a line not yet ended wait in `pending`.
        const pending: Buffer[] = [];
        const maxLine = opts.maxLineBytes ?? MAX_LINE_BYTES;
        const maxReply = opts.maxReplyBytes ?? MAX_REPLY_BYTES;
        let pendingBytes = 0;
        let replyBytes = 0;
        let stopped = false;
        const deliver = (line: string): void => {
          if (stopped) return;
          try {
            if (onLine(line.endsWith("\r") ? line.slice(0, -1) : line) === true) {
              stopped = true;
              settle();
            }
          } catch (err) {
            fail(err);
          }
        };
        const withPending = (d: Buffer, end: number): string => {
          pending.push(d.subarray(0, end));
          const line = Buffer.concat(pending).toString("utf8");
          pending.length = 0;
          pendingBytes = 0;
          return line;
        };
        const keep = (rest: Buffer): void => {
          pending.push(rest);
          pendingBytes += rest.length;
          if (pendingBytes > maxLine) {
            fail(new ProviderError("BAD_RESPONSE", `the server at ${target.origin} sent a line longer than ${maxLine} bytes`));
          }
        };
        res.on("data", (d: Buffer) => {
          if (stopped) return;
          replyBytes += d.length;
          if (replyBytes > maxReply) {
            fail(new ProviderError("BAD_RESPONSE", `the server at ${target.origin} sent a reply longer than ${maxReply} bytes`));
            return;
          }
          let nl = d.indexOf(0x0a);
          if (nl === -1) {
            keep(d);
            return;
          }
          // The usual case: a read holds whole lines; the first joins what was pending.
          deliver(pending.length === 0 ? d.toString("utf8", 0, nl) : withPending(d, nl));
          let start = nl + 1;
          while (!stopped && (nl = d.indexOf(0x0a, start)) !== -1) {
            deliver(d.toString("utf8", start, nl));
            start = nl + 1;
          }
          if (start < d.length) keep(d.subarray(start));
          const full = opts.backpressure?.();
          if (full !== undefined) {
            res.pause();
            stopClock();
            void full.then(() => {
              startClock();
              res.resume();
            });
          }
        });
        res.on("end", () => {
          if (pending.length > 0) deliver(Buffer.concat(pending).toString("utf8"));
          settle();
        });
        // A reply cut short: an `ECONNRESET` error (and no `end`).
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(Object.assign(new Error(REPLY_CUT_SHORT), { code: "ECONNRESET" }));
        });
      },
    );
    let replied = false;
    req.on("response", () => (replied = true));
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (mayRetry && !replied && !settled && req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE")) {
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        attempt(url, body, opts, onLine, false).then(resolve, reject);
        return;
      }
      fail(err);
    });
    startClock();
    signal?.addEventListener("abort", onAbort, { once: true });
    req.end(body);
  });
}
