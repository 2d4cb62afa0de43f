/**
 * Server addresses of the HTTP providers, normalised by one set of rules that serves the
 * providers themselves, the tool-shim interpreter and `config.ts` (which turns an
 * `AddressError` into a `ConfigError` naming the variable or flag). Imports nothing, so the
 * `llm/` layer stays free of upward imports (ARCHITECTURE.md "Layers").
 */

/** Default Ollama address (Ollama's own default, `127.0.0.1:11434`). */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";
/** Ollama's default port, added to an address that names none (except `https://`, see below). */
const OLLAMA_DEFAULT_PORT = 11434;
/** The address forms `normalizeOllamaHost` accepts, for error messages. */
const OLLAMA_HOST_FORMS = "host, host:port, [IPv6]:port or http(s)://host[:port][/path]";
/** The form `normalizeHttpBaseURL` accepts, for error messages. */
export const BASE_URL_FORM = "an http(s) URL such as http://127.0.0.1:8080/v1";

/** A server address that cannot be used. `detail` says why, `accepted` which forms would do. */
export class AddressError extends Error {
  override readonly name = "AddressError";
  constructor(
    readonly value: string,
    readonly detail: string,
    readonly accepted: string,
  ) {
    super(`not a server address: ${JSON.stringify(redactCredentials(value))} (${detail}); accepted: ${accepted}`);
  }
}

/**
 * Any `user:password@` (or `user@`) before a host in `text` replaced with `***@`, so that an
 * address can be shown in an error, a log line or `doctor` without its credentials. Applies to
 * URLs with a scheme (`http://u:p@h`) and to bare `u:p@host` forms as `OLLAMA_HOST` accepts them.
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/\s@]*@/g, "$1***@")
    .replace(/^([^/\s:@]+(?::[^/\s@]*)?)@/, "***@");
}

/**
 * A normalised base URL split into the URL without user info and the HTTP Basic
 * `Authorization` header value its user info stands for (RFC 7617; user and password
 * percent-decoded as WHATWG URL parsing encodes them). Fetch refuses URLs with credentials
 * ("Request cannot be constructed from a URL that includes credentials"), so providers send
 * the header instead.
 */
export function splitCredentials(base: string): { url: string; authorization?: string } {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return { url: base };
  }
  if (u.username === "" && u.password === "") return { url: base };
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  const url = base.replace(/^([a-z]+:\/\/)[^/@]*@/i, "$1");
  return { url, authorization: `Basic ${Buffer.from(`${user}:${pass}`, "utf8").toString("base64")}` };
}

/**
 * Normalises an Ollama address (the `OLLAMA_HOST` rules of README "Configuration") into a
 * base URL without a trailing `/`:
 * - the scheme is optional (`http://` is added) and read in any case (`HTTP://h` → `http://h…`);
 *   only `http` and `https` are accepted;
 * - port 11434 is added when none is given — except for `https://` addresses, which keep the
 *   scheme's port 443. Ollama itself serves plain HTTP only, so an `https://` address is a TLS
 *   proxy in front of it, and Ollama's own clients (ollama-js `formatHost`, the Go client's
 *   `envconfig.Host`) and goose's shim interpreter all use 443 there;
 * - `0.0.0.0` (and `::`), the "listen on all interfaces" forms of Ollama's own server setting,
 *   mean this machine: `127.0.0.1` (and `[::1]`); `:PORT` alone means `127.0.0.1:PORT`;
 * - a bare IPv6 address (`::1`, `fe80::1`) is bracketed; bracketed ones are kept;
 * - user info and a path prefix (`http://h:11434/ollama`) are kept; trailing `/` are dropped.
 * Empty or blank input gives `DEFAULT_OLLAMA_HOST`.
 * @throws AddressError when the value is not an address (bad scheme, port, brackets, spaces).
 */
export function normalizeOllamaHost(raw: string): string {
  const text = raw.trim();
  if (text === "") return DEFAULT_OLLAMA_HOST;
  const bad = (detail: string): AddressError => new AddressError(raw, detail, OLLAMA_HOST_FORMS);

  let scheme = "http";
  let rest = text;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = text.slice(m[0].length);
    if (scheme !== "http" && scheme !== "https") throw bad(`unsupported scheme ${m[1]}`);
  }
  const slash = rest.indexOf("/");
  let authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  if (/[?#\s]/.test(authority)) throw bad("not a host");

  let userinfo = "";
  const at = authority.lastIndexOf("@");
  if (at !== -1) {
    userinfo = authority.slice(0, at + 1);
    authority = authority.slice(at + 1);
  }

  let host: string;
  let port: string | undefined;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close === -1) throw bad("unclosed [");
    host = authority.slice(0, close + 1);
    const after = authority.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(":")) throw bad("unexpected text after ]");
      port = after.slice(1);
    }
  } else if ((authority.match(/:/g) ?? []).length >= 2) {
    host = `[${authority}]`; // bare IPv6: every colon belongs to the address
  } else {
    const colon = authority.indexOf(":");
    host = colon === -1 ? authority : authority.slice(0, colon);
    port = colon === -1 ? undefined : authority.slice(colon + 1);
  }
  if (host === "" && port === undefined) throw bad("no host");
  if (host === "") host = "127.0.0.1"; // `:11434`, as Ollama's own OLLAMA_HOST accepts
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "[::]" || host === "[0:0:0:0:0:0:0:0]") host = "[::1]";
  if (port === "") port = undefined;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) throw bad(`bad port ${port}`);
  if (port !== undefined && Number(port) > 65535) throw bad(`port ${port} out of range`);
  if (port === undefined && scheme === "http") port = String(OLLAMA_DEFAULT_PORT);

  let url: URL;
  try {
    url = new URL(`${scheme}://${userinfo}${host}${port !== undefined ? `:${port}` : ""}${path}`);
  } catch {
    throw bad("not a valid address");
  }
  if (url.hostname === "") throw bad("no host");
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ""}@` : "";
  // URL drops a port equal to the scheme default (`http://h:80`); put it back explicitly.
  const portPart = port !== undefined ? `:${Number(port)}` : "";
  const pathname = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${auth}${url.hostname}${portPart}${pathname}`;
}

/**
 * Normalises the base URL of an OpenAI-compatible server: `http://` is added when no scheme
 * is given, only `http`/`https` are accepted, trailing `/` are dropped. The path is kept as
 * given (the provider adds `/v1` to a URL without one).
 * @throws AddressError when the value is not such a URL (empty input included).
 */
export function normalizeHttpBaseURL(raw: string): string {
  let text = raw.trim();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AddressError(raw, "not a URL", BASE_URL_FORM);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AddressError(raw, `unsupported scheme ${url.protocol.slice(0, -1)}`, BASE_URL_FORM);
  }
  return url.href.replace(/\/+$/, "");
}
