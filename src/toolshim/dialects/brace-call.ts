/**
 * The `call:NAME{key:value,…}` body shared by Gemma 4 (`<|"|>` string delimiter) and
 * FunctionGemma (`<escape>` delimiter) (vLLM `gemma4` and `functiongemma` tool parsers; ollama
 * `model/parsers/gemma4.go`, `functiongemma.go`).
 *
 * Grammar: keys are bare (or delimited / double-quoted); values are delimited raw strings (no
 * escapes: single backslashes and unescaped quotes are literal), JSON double-quoted strings,
 * numbers, `true`/`false`/`null`, nested `{…}` objects and `[…]` lists; any other bare run up to
 * `,`/`}`/`]` is a string. The paren variant `call:NAME(k: "v")` (NousResearch/hermes-agent
 * pull#7449) is parsed as a Python call with `key: value` arguments.
 */
import { parsePythonCallAt } from "../python-literal.js";
import type { MatchBuilder } from "./define-dialect.js";
import { earliestFinder, skipWs } from "./text-scan.js";

/** Result of {@link parseBraceCall}. */
export type BraceCall =
  | { ok: true; name: string; args: Record<string, unknown>; end: number }
  | { ok: false; reason: "truncated" | "invalid"; end: number };

class Cut extends Error {}
class Bad extends Error {}

class Reader {
  constructor(
    readonly text: string,
    public pos: number,
    readonly quote: string,
  ) {}

  ws(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
    if (this.pos >= this.text.length) throw new Cut();
  }

  raw(): string {
    this.pos += this.quote.length;
    const end = this.text.indexOf(this.quote, this.pos);
    if (end < 0) throw new Cut();
    const s = this.text.slice(this.pos, end);
    this.pos = end + this.quote.length;
    return s;
  }

  json(): string {
    let j = this.pos + 1;
    while (j < this.text.length && this.text[j] !== '"') j += this.text[j] === "\\" ? 2 : 1;
    if (j >= this.text.length) throw new Cut();
    const lit = this.text.slice(this.pos, j + 1);
    this.pos = j + 1;
    try {
      return JSON.parse(lit) as string;
    } catch {
      return lit.slice(1, -1);
    }
  }

  value(): unknown {
    this.ws();
    const t = this.text;
    if (t.startsWith(this.quote, this.pos)) return this.raw();
    const c = t[this.pos]!;
    if (c === '"') return this.json();
    if (c === "{") return this.object();
    if (c === "[") return this.list();
    let j = this.pos;
    while (j < t.length && !",}]".includes(t[j]!)) j++;
    if (j >= t.length) throw new Cut();
    const word = t.slice(this.pos, j).trim();
    this.pos = j;
    if (word === "") throw new Bad();
    if (word === "true") return true;
    if (word === "false") return false;
    if (word === "null") return null;
    if (/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(word)) return Number(word);
    return word;
  }

  key(): string {
    this.ws();
    if (this.text.startsWith(this.quote, this.pos)) return this.raw();
    if (this.text[this.pos] === '"') return this.json();
    const colon = this.text.indexOf(":", this.pos);
    if (colon < 0) throw new Cut();
    const k = this.text.slice(this.pos, colon).trim();
    if (k === "" || /[{}[\],]/.test(k)) throw new Bad();
    this.pos = colon;
    return k;
  }

  object(): Record<string, unknown> {
    this.pos++; // {
    const out: Record<string, unknown> = {};
    this.ws();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      const k = this.key();
      this.ws();
      if (this.text[this.pos] !== ":") throw new Bad();
      this.pos++;
      out[k] = this.value();
      this.ws();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "}") return out;
      if (c !== ",") throw new Bad();
      this.ws();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return out;
      }
    }
  }

  list(): unknown[] {
    this.pos++; // [
    const out: unknown[] = [];
    this.ws();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.ws();
      const c = this.text[this.pos];
      this.pos++;
      if (c === "]") return out;
      if (c !== ",") throw new Bad();
    }
  }
}

/**
 * Parse the call whose `call:` starts at `at`.
 * @param quote the raw-string delimiter (`<|"|>` or `<escape>`).
 * @returns the call and the index after its closing `}`/`)`; or why not: `truncated` (the text
 *   ends inside it) or `invalid`.
 */
export function parseBraceCall(text: string, at: number, quote: string, prefixed = true): BraceCall {
  const m = prefixed ? /call:\s*([^\s{(]+)\s*/y : /\s*([^\s{(<>]+)\s*/y;
  m.lastIndex = at;
  const head = m.exec(text);
  if (!head) return { ok: false, reason: text.length - at < 6 ? "truncated" : "invalid", end: at + 5 };
  const name = head[1]!;
  const p = m.lastIndex;
  if (p >= text.length) return { ok: false, reason: "truncated", end: text.length };
  if (text[p] === "(") {
    const call = parsePythonCallAt(text, at + head[0].indexOf(name), { colonKwargs: true });
    if (call && call.call.positional.length === 0) return { ok: true, name, args: call.call.kwargs, end: call.end };
    return { ok: false, reason: text.indexOf(")", p) < 0 ? "truncated" : "invalid", end: text.length };
  }
  if (text[p] !== "{") return { ok: false, reason: "invalid", end: p };
  const r = new Reader(text, p, quote);
  try {
    const args = r.object();
    return { ok: true, name, args, end: r.pos };
  } catch (e) {
    return { ok: false, reason: e instanceof Cut ? "truncated" : "invalid", end: e instanceof Cut ? text.length : r.pos };
  }
}

/**
 * Scan `open call:NAME{…}[, call:NAME{…}] close` blocks into `out` (Gemma 4 and FunctionGemma).
 * The closer may be missing at the end of the text. A block whose body is cut by the end of the
 * text yields no call and is removed to the end; a block without a readable `call:` is removed
 * up to its closer (or just the opener when there is none before the next opener).
 */
export function scanBraceCallBlocks(
  text: string,
  open: string,
  close: string | readonly string[],
  quote: string,
  out: MatchBuilder,
): void {
  const closers = typeof close === "string" ? [close] : close;
  // The next opener and each closer are searched again only once the scan has passed them: many
  // openers with no closer cost one pass, not one pass each.
  const nextOpen = earliestFinder(text, [open]);
  const nextCloser = closers.map((c) => earliestFinder(text, [c]));
  for (let at = text.indexOf(open); at >= 0; ) {
    let i = skipWs(text, at + open.length);
    // A stray colon after the opener (`<|tool_call>:call:…`, vLLM gemma4 tests).
    if (text[i] === ":" && text.startsWith("call:", i + 1)) i++;
    let end = at + open.length;
    let calls = 0;
    while (text.startsWith("call:", i)) {
      const r = parseBraceCall(text, i, quote);
      if (!r.ok) {
        if (r.reason === "truncated") {
          out.span(at, text.length);
          return;
        }
        break;
      }
      out.call({ name: r.name, arguments: r.args }, i);
      calls++;
      end = r.end;
      i = skipWs(text, end);
      if (text[i] === ",") i = skipWs(text, i + 1);
    }
    const q = skipWs(text, end);
    const closer = closers.find((c) => text.startsWith(c, q));
    if (closer) end = q + closer.length;
    else if (calls === 0) {
      const next = nextOpen(end)?.index ?? -1;
      for (const find of nextCloser) {
        const c = find(end);
        if (c && (next < 0 || c.index < next)) {
          end = c.index + c.token.length;
          break;
        }
      }
    }
    out.span(at, end);
    at = nextOpen(end)?.index ?? -1;
  }
}
