/**
 * "Cannot reach the server": how a failed connection is recognised and worded, once for the
 * providers (`ollama.ts`, `openai.ts`) and the gateway's own requests to its upstream
 * (`serve/server.ts`), so that the CLI, `doctor` and every route of `serve` say it one way:
 * `cannot reach Ollama at http://127.0.0.1:11434 (ECONNREFUSED)`.
 */

/** Network error codes that mean "nothing is listening / cannot connect" (Node.js and undici). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The servers' names as messages say them. */
export const SERVER_NAMES = { ollama: "Ollama", openai: "the OpenAI-compatible server" } as const;

/**
 * The first string `code` on `e`'s cause chain (fetch wraps the socket error as `cause`; an
 * `AggregateError` from a dual-stack connect keeps the attempts in `errors`), else undefined.
 */
function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && typeof cur === "object" && cur !== null; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = causeCode(errors[0]);
      if (inner) return inner;
    }
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether `e` (a fetch or client error) means the server could not be connected to: a code of
 * {@link UNREACHABLE_CODES} on its cause chain, or undici's bare `TypeError: fetch failed`.
 */
export function isUnreachable(e: unknown): boolean {
  const code = causeCode(e);
  return (code !== undefined && UNREACHABLE_CODES.has(code)) || (e instanceof TypeError && /fetch failed/i.test(e.message));
}

/**
 * The one wording of a failed connection: `cannot reach <server> at <location> (<code>)`, the
 * code left out when the error carries none. `location` must already be free of credentials.
 */
export function unreachableMessage(server: string, location: string, e: unknown): string {
  const code = causeCode(e);
  return `cannot reach ${server} at ${location}${code !== undefined ? ` (${code})` : ""}`;
}
