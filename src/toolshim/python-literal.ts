/**
 * A small parser for the Python-literal text that "pythonic" tool-call formats use
 * (vLLM `pythonic` tool parser, OLMo 3, LFM2, Llama 3.1 built-in tools, Sarashina
 * Python-dict lists, Gemma 3 `tool_code`):
 *
 * - call lists `[f(a=1, b="x"), g()]` and bare call sequences `f(k="v")\ng()`;
 * - literals: strings in both quote styles (also triple-quoted, `r`/`u`/`b`/`f` prefixes,
 *   adjacent-literal concatenation, Python escape rules), ints, floats, hex/octal/binary,
 *   `True`/`False`/`None` (and the JSON spellings `true`/`false`/`null`, which OLMo 3 output uses),
 *   lists, tuples, dicts, sets (as arrays).
 *
 * A string holding a raw Windows drive path (`'C:\new\file.py'`) keeps its backslashes as if it
 * were `r'…'`: models mean a path, not `\n`/`\f` escapes (raw Windows paths).
 *
 * Values map to JSON: tuples and sets become arrays, `None` becomes `null`, dict keys become
 * strings. Not supported (the parse fails): expressions, names as values, nested calls (but for the
 * `print(…)` wrapper of {@link PyCallOptions.statements}), `**kwargs`.
 * Parsing never throws; failures return `undefined`.
 */
import { holdsRawDrivePath } from "./json.js";

/** A Python literal mapped to JSON. */
export type PyValue = null | boolean | number | string | PyValue[] | { [key: string]: PyValue };

/** One call `name(positional…, key=value…)` as written. Offsets are indices into the parsed text. */
export interface PyCall {
  /** The callee as written, dots included (`python.call`, `default_api.get_weather`). */
  name: string;
  /** Keyword arguments in source order. */
  kwargs: Record<string, PyValue>;
  /** Positional arguments (most formats forbid them; the caller decides). */
  positional: PyValue[];
  start: number;
  end: number;
}

/** Options for call parsing. */
export interface PyCallOptions {
  /** Also accept `key: value` inside the parentheses (a Gemma 4 variant writes `call:f(k: "v")`). */
  colonKwargs?: boolean;
  /**
   * Read a sequence as Python statements (Gemma 3 ```` ```tool_code ```` bodies, which the model
   * writes as code to run): a call may be wrapped in `print(…)` (`print(f(a=1))`, as LM Studio
   * logged gemma-3-4b-it writing) or assigned to a name (`x = f(a=1)`), and `print(x)` of a name
   * assigned before is bookkeeping, not a call.
   */
  statements?: boolean;
}

class Failure extends Error {}

const NAME_START = /[\p{L}_]/u;
const NAME_CHAR = /[\p{L}\p{N}_]/u;

class Parser {
  constructor(
    readonly text: string,
    public pos: number,
  ) {}

  fail(): never {
    throw new Failure();
  }

  peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  /** Skip whitespace (newlines included) and `#` comments. */
  ws(): void {
    for (;;) {
      const c = this.peek();
      if (c === undefined) return;
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v") this.pos++;
      else if (c === "#") {
        const nl = this.text.indexOf("\n", this.pos);
        this.pos = nl < 0 ? this.text.length : nl;
      } else return;
    }
  }

  eat(s: string): boolean {
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  expect(s: string): void {
    if (!this.eat(s)) this.fail();
  }

  identifier(): string {
    const start = this.pos;
    if (!NAME_START.test(this.peek() ?? "")) this.fail();
    this.pos++;
    while (NAME_CHAR.test(this.peek() ?? "")) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** Dotted or hyphenated callee name: `a.b`, `get-weather`. */
  calleeName(): string {
    let name = this.identifier();
    while ((this.peek() === "." || this.peek() === "-") && NAME_START.test(this.peek(1) ?? "")) {
      this.pos++;
      name += this.text[this.pos - 1] + this.identifier();
    }
    return name;
  }

  value(): PyValue {
    this.ws();
    const c = this.peek();
    if (c === undefined) this.fail();
    if (c === "[") return this.sequence("[", "]");
    if (c === "(") return this.tupleOrGroup();
    if (c === "{") return this.dictOrSet();
    if (c === "'" || c === '"') return this.strings();
    if (/[rRuUbBfF]/.test(c) && this.stringPrefixLength() > 0) return this.strings();
    if (/[\d.+-]/.test(c)) return this.number();
    const word = this.identifier();
    switch (word) {
      case "True":
      case "true":
        return true;
      case "False":
      case "false":
        return false;
      case "None":
      case "null":
        return null;
      default:
        return this.fail();
    }
  }

  /** Length of a string prefix (`r`, `u`, `b`, `f`, `rb` …) directly followed by a quote, else 0. */
  stringPrefixLength(): number {
    const m = /^[rRuUbBfF]{1,2}(?=['"])/.exec(this.text.slice(this.pos, this.pos + 3));
    return m ? m[0].length : 0;
  }

  /** One or more adjacent string literals, concatenated. */
  strings(): string {
    let out = this.oneString();
    for (;;) {
      const save = this.pos;
      this.ws();
      const c = this.peek();
      if (c === "'" || c === '"' || (c !== undefined && /[rRuUbBfF]/.test(c) && this.stringPrefixLength() > 0)) {
        out += this.oneString();
      } else {
        this.pos = save;
        return out;
      }
    }
  }

  oneString(): string {
    const prefixLen = this.stringPrefixLength();
    let raw = /[rR]/.test(this.text.slice(this.pos, this.pos + prefixLen));
    this.pos += prefixLen;
    const q = this.peek()!;
    const triple = this.text.startsWith(q.repeat(3), this.pos);
    const delim = triple ? q.repeat(3) : q;
    this.pos += delim.length;
    // A raw Windows drive path written without `r` ('C:\new\file.py'): the model meant the
    // backslashes literally (the same heuristic as `json.ts`).
    const close = this.text.indexOf(delim, this.pos);
    if (!raw && holdsRawDrivePath(this.text.slice(this.pos, close < 0 ? this.text.length : close))) raw = true;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail();
      if (this.text.startsWith(delim, this.pos)) {
        this.pos += delim.length;
        return out;
      }
      if (!triple && (c === "\n" || c === "\r")) this.fail();
      if (c === "\\") {
        const n = this.peek(1);
        if (n === undefined) this.fail();
        if (raw) {
          out += c + n;
          this.pos += 2;
          continue;
        }
        this.pos += 2;
        out += this.escape(n);
        continue;
      }
      out += c;
      this.pos++;
    }
  }

  /** Python escape rules; the backslash and `n` are already consumed. Unknown escapes keep the backslash. */
  escape(n: string): string {
    const simple: Record<string, string> = {
      "\\": "\\",
      "'": "'",
      '"': '"',
      n: "\n",
      t: "\t",
      r: "\r",
      b: "\b",
      f: "\f",
      v: "\v",
      a: "\x07",
      "\n": "",
    };
    if (n in simple) return simple[n]!;
    const hex = (len: number): string | undefined => {
      const digits = this.text.slice(this.pos, this.pos + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(digits)) return undefined;
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff) return undefined;
      this.pos += len;
      return String.fromCodePoint(cp);
    };
    if (n === "x") return hex(2) ?? "\\x";
    if (n === "u") return hex(4) ?? "\\u";
    if (n === "U") return hex(8) ?? "\\U";
    if (/[0-7]/.test(n)) {
      let digits = n;
      while (digits.length < 3 && /[0-7]/.test(this.peek() ?? "")) digits += this.text[this.pos++];
      return String.fromCharCode(parseInt(digits, 8));
    }
    return "\\" + n;
  }

  number(): number {
    const rest = this.text.slice(this.pos, this.pos + 64);
    const m =
      /^[+-]?0[xX][0-9a-fA-F_]+/.exec(rest) ??
      /^[+-]?0[oO][0-7_]+/.exec(rest) ??
      /^[+-]?0[bB][01_]+/.exec(rest) ??
      /^[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?/.exec(rest);
    if (!m) this.fail();
    this.pos += m[0].length;
    let lit = m[0].replace(/_/g, "");
    const negative = lit.startsWith("-");
    lit = lit.replace(/^[+-]/, "");
    let n: number;
    if (/^0[xX]/.test(lit)) n = parseInt(lit.slice(2), 16);
    else if (/^0[oO]/.test(lit)) n = parseInt(lit.slice(2), 8);
    else if (/^0[bB]/.test(lit)) n = parseInt(lit.slice(2), 2);
    else n = Number(lit);
    if (!Number.isFinite(n)) this.fail();
    // A number must not run straight into a name character (`1abc`).
    if (NAME_CHAR.test(this.peek() ?? "")) this.fail();
    return negative ? -n : n;
  }

  /** Comma-separated values up to `close`; a trailing comma is allowed. */
  sequence(open: string, close: string): PyValue[] {
    this.expect(open);
    const items: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.eat(close)) return items;
      items.push(this.value());
      this.ws();
      if (this.eat(",")) continue;
      this.expect(close);
      return items;
    }
  }

  tupleOrGroup(): PyValue {
    this.expect("(");
    this.ws();
    if (this.eat(")")) return [];
    const first = this.value();
    this.ws();
    if (this.eat(")")) return first;
    this.expect(",");
    const items = [first];
    for (;;) {
      this.ws();
      if (this.eat(")")) return items;
      items.push(this.value());
      this.ws();
      if (this.eat(",")) continue;
      this.expect(")");
      return items;
    }
  }

  dictOrSet(): PyValue {
    this.expect("{");
    this.ws();
    if (this.eat("}")) return {};
    const firstKey = this.value();
    this.ws();
    if (!this.eat(":")) {
      // A set literal: keep its members as an array.
      const items = [firstKey];
      for (;;) {
        this.ws();
        if (this.eat("}")) return items;
        this.expect(",");
        this.ws();
        if (this.eat("}")) return items;
        items.push(this.value());
      }
    }
    const out: Record<string, PyValue> = {};
    out[keyString(firstKey)] = this.value();
    for (;;) {
      this.ws();
      if (this.eat("}")) return out;
      this.expect(",");
      this.ws();
      if (this.eat("}")) return out;
      const key = this.value();
      this.ws();
      this.expect(":");
      out[keyString(key)] = this.value();
    }
  }

  call(opts: PyCallOptions): PyCall {
    this.ws();
    const start = this.pos;
    const name = this.calleeName();
    this.ws();
    this.expect("(");
    const kwargs: Record<string, PyValue> = {};
    const positional: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.eat(")")) break;
      const save = this.pos;
      let key: string | undefined;
      if (NAME_START.test(this.peek() ?? "")) {
        const word = this.identifier();
        this.ws();
        if (this.peek() === "=" && this.peek(1) !== "=") {
          this.pos++;
          key = word;
        } else if (opts.colonKwargs && this.peek() === ":") {
          this.pos++;
          key = word;
        } else {
          this.pos = save;
        }
      }
      const v = this.value();
      if (key !== undefined) kwargs[key] = v;
      else if (Object.keys(kwargs).length > 0) this.fail(); // positional after keyword
      else positional.push(v);
      this.ws();
      if (this.eat(",")) continue;
      this.expect(")");
      break;
    }
    return { name, kwargs, positional, start, end: this.pos };
  }

  /**
   * One statement of {@link PyCallOptions.statements}: the call it makes, or `undefined` for
   * `print(x)` of a name in `assigned` (a name this statement assigns is added to it).
   */
  statement(opts: PyCallOptions, assigned: Set<string>): PyCall | undefined {
    this.ws();
    const save = this.pos;
    try {
      const word = this.identifier();
      this.ws();
      if (this.peek() === "=" && this.peek(1) !== "=") {
        this.pos++;
        const call = this.call(opts);
        assigned.add(word);
        return call;
      }
      if (word === "print" && this.eat("(")) {
        this.ws();
        const inner = this.pos;
        if (NAME_START.test(this.peek() ?? "")) {
          const name = this.identifier();
          this.ws();
          if (assigned.has(name) && this.eat(")")) return undefined;
          this.pos = inner;
        }
        const call = this.call(opts);
        this.ws();
        this.expect(")");
        return call;
      }
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
    }
    // Not a wrapped call (or a tool that is itself named `print`): a plain call.
    this.pos = save;
    return this.call(opts);
  }
}

function keyString(key: PyValue): string {
  if (typeof key === "string") return key;
  return JSON.stringify(key);
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    // Failure (not this syntax) or a RangeError from an impossible escape: no literal here.
    return undefined;
  }
}

/**
 * Parse one Python literal starting at `pos` (leading whitespace skipped).
 * @returns the value and the index just after it, or `undefined` when no literal parses there.
 */
export function parsePythonValueAt(text: string, pos: number): { value: PyValue; end: number } | undefined {
  return attempt(() => {
    const p = new Parser(text, pos);
    const value = p.value();
    return { value, end: p.pos };
  });
}

/**
 * Parse `text` as exactly one Python literal (surrounding whitespace allowed).
 * @returns the value mapped to JSON, or `undefined` when the text is not a single literal.
 */
export function parsePythonLiteral(text: string): PyValue | undefined {
  const r = parsePythonValueAt(text, 0);
  if (!r) return undefined;
  return text.slice(r.end).trim() === "" ? r.value : undefined;
}

/**
 * Parse one call `name(args)` starting at `pos` (leading whitespace skipped).
 * @returns the call and the index just after its `)`, or `undefined`.
 */
export function parsePythonCallAt(text: string, pos: number, opts: PyCallOptions = {}): { call: PyCall; end: number } | undefined {
  return attempt(() => {
    const p = new Parser(text, pos);
    const call = p.call(opts);
    return { call, end: p.pos };
  });
}

/**
 * Parse a call list `[f(a=1), g()]` whose `[` is at `pos` (leading whitespace skipped). Calls are
 * separated by commas (spaces optional); a trailing comma is allowed; an empty list `[]` fails
 * (it holds no call).
 * @returns the calls and the index just after `]`, or `undefined` when the list is not a pure call list.
 */
export function parsePythonCallListAt(
  text: string,
  pos: number,
  opts: PyCallOptions = {},
): { calls: PyCall[]; end: number } | undefined {
  return attempt(() => {
    const p = new Parser(text, pos);
    p.ws();
    p.expect("[");
    const calls: PyCall[] = [];
    for (;;) {
      p.ws();
      if (p.eat("]")) break;
      calls.push(p.call(opts));
      p.ws();
      if (p.eat(",")) continue;
      p.expect("]");
      break;
    }
    if (calls.length === 0) p.fail();
    return { calls, end: p.pos };
  });
}

/**
 * Parse `text.slice(start, end)` as a sequence of calls separated by newlines, commas or
 * semicolons, optionally wrapped in one `[…]` (OLMo 3 `<function_calls>` bodies). The whole range
 * must be consumed.
 * @returns the calls (at least one), or `undefined`.
 */
export function parsePythonCallSequence(text: string, start: number, end: number, opts: PyCallOptions = {}): PyCall[] | undefined {
  end = Math.min(end, text.length);
  const body = text.slice(0, end);
  const trimmedStart = start + (text.slice(start, end).length - text.slice(start, end).trimStart().length);
  if (body[trimmedStart] === "[") {
    const list = parsePythonCallListAt(body, trimmedStart, opts);
    if (list && body.slice(list.end).trim() === "") return list.calls;
  }
  return attempt(() => {
    const p = new Parser(body, start);
    const calls: PyCall[] = [];
    const assigned = new Set<string>();
    for (;;) {
      p.ws();
      if (p.pos >= end) break;
      const call = opts.statements ? p.statement(opts, assigned) : p.call(opts);
      if (call) calls.push(call);
      p.ws();
      if (p.eat(",") || p.eat(";")) continue;
    }
    if (calls.length === 0) p.fail();
    return calls;
  });
}
