/**
 * Which requests a gateway without a token answers: those addressed to this machine's loopback
 * and not sent by a web page of another site.
 *
 * Why: a server on 127.0.0.1 is reachable from every web page the user opens. A page cannot read
 * a cross-site reply, but it can send a "simple" POST (`Content-Type: text/plain`, no preflight)
 * that runs a chat, and with DNS rebinding (its own name re-resolved to 127.0.0.1) it becomes
 * same-origin and reads the replies — the `codecite` model's answers about the repository
 * included. The browser always sends the page's name in `Host` (RFC 9110 §7.2) and, for a POST or
 * a cross-origin request, the page's origin in `Origin` (Fetch standard, "origin header"), and a
 * page cannot forge either; so a `Host` that is not a loopback name and an `Origin` that is not a
 * loopback page are refused. Ollama guards its API the same way (its allowed-hosts check and
 * `OLLAMA_ORIGINS`). With a token, the token is the guard: a page cannot know it.
 */

/** Origin schemes of editor and desktop-app pages (never a web site's): VS Code webviews, Electron and Tauri apps. */
const APP_ORIGIN_SCHEMES = new Set(["vscode-webview:", "vscode-file:", "app:", "tauri:"]);

/** `localhost`, `*.localhost` (RFC 6761 §6.3), 127.0.0.0/8, `::1`, and the unspecified addresses `0.0.0.0`/`::` (which clients use for "this machine"). */
function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === "[::1]" || name === "[::]" || name === "0.0.0.0") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The hostname of `scheme://authority`, normalised by the WHATWG URL parser (`0x7f.1` → `127.0.0.1`); undefined when it does not parse. */
function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * True when a request's `Host` header names this machine's loopback (see the module comment).
 * A missing `Host` (HTTP/1.0) is accepted: browsers always send one.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  if (/[/?#@\\\s]/.test(host)) return false;
  const hostname = hostnameOf(`http://${host}`);
  return hostname !== undefined && isLoopbackHostname(hostname);
}

/**
 * True when a request's `Origin` header is absent, a page served from this machine's loopback
 * (`http(s)://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`), or an editor or desktop-app
 * page ({@link APP_ORIGIN_SCHEMES}). `null` (sandboxed frames, `file:` pages) is refused.
 */
export function isTrustedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (APP_ORIGIN_SCHEMES.has(url.protocol)) return true;
  return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHostname(url.hostname);
}
