/**
 * Reads ripgrep's `--json` output (one JSON event per line, ripgrep `grep-printer` JSON format)
 * in linear time and bounded memory, whatever the repository contains.
 *
 * Why a reader of our own: one `match` event holds the whole matching line plus one object per
 * submatch. A 16 MiB single-line file matched by a one-character query gives one event of
 * several hundred MiB (about 40 bytes per submatch), over V8's string limit; re-scanning a
 * growing buffer for the next newline made it quadratic as well. So:
 * - lines are split on the byte `\n` (0x0A never occurs inside a multi-byte UTF-8 sequence, and
 *   ripgrep escapes newlines inside JSON strings), scanning each chunk once;
 * - an event of at most {@link MAX_PARSED_EVENT_BYTES} bytes is decoded with `JSON.parse`;
 * - a larger event goes through a small byte-level JSON tokenizer that keeps only the fields
 *   used (`type`, `data.path` (up to 64 KiB; a hit with a longer path is dropped), at most
 *   {@link KEPT_LINE_BYTES} bytes of `data.lines`,
 *   `data.line_number`, `data.absolute_offset`, the first submatch's `start`,
 *   `data.stats.searches`) and skips the rest of the event once the first submatch is read.
 */

/** A ripgrep text value: UTF-8 `text`, or base64 `bytes` for data that is not valid UTF-8. */
export interface RgText {
  text?: string;
  bytes?: string;
}

/** A `match` event, reduced to what `search_code` uses. */
export interface RgMatchEvent {
  type: "match";
  path: RgText;
  /** The matching line with its terminator, or only its first bytes when `complete` is false. */
  lines: RgText;
  /** False when the line was longer than {@link KEPT_LINE_BYTES} and only a prefix was kept. */
  complete: boolean;
  /** 1-based line number (null when ripgrep does not count lines). */
  line_number: number | null;
  /** Byte offset of the line in ripgrep's input stream (after a BOM; transcoded for UTF-16). */
  absolute_offset: number | null;
  /** Byte offset of the first submatch within the line. */
  first_start: number | null;
}

/** The final `summary` event. */
export interface RgSummaryEvent {
  type: "summary";
  /** Files searched. */
  searches: number;
}

/** Any other event (`begin`, `end`, `context`) or an unreadable line. */
export interface RgOtherEvent {
  type: "other";
}

export type RgJsonEvent = RgMatchEvent | RgSummaryEvent | RgOtherEvent;

/** Events up to this size (bytes) are decoded with `JSON.parse`; larger ones are streamed: 1 MiB. */
const MAX_PARSED_EVENT_BYTES = 1024 * 1024;
/** Bytes of a streamed event's line (as JSON string content) that are kept: 64 KiB. */
const KEPT_LINE_BYTES = 64 * 1024;

/** How ripgrep's JSON printer starts the events that {@link RgJsonReader} skips without parsing. */
const BEGIN_TEXT = '{"type":"begin"';
const END_TEXT = '{"type":"end"';
const BEGIN_PREFIX = Buffer.from(BEGIN_TEXT);
const END_PREFIX = Buffer.from(END_TEXT);

function startsWith(buf: Buffer, prefix: Buffer): boolean {
  if (buf.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix[i]) return false;
  return true;
}

/** Receives events; returning `"stop"` stops reading (the caller then kills ripgrep). */
export type RgEventHandler = (ev: RgJsonEvent) => "stop" | void;

/** Splits ripgrep's JSON output into events; see the module comment. */
export class RgJsonReader {
  readonly #onEvent: RgEventHandler;
  readonly #maxParsed: number;
  readonly #keptLine: number;
  #parts: Buffer[] = [];
  #size = 0;
  #stream: StreamedEvent | undefined;
  #stopped = false;

  /**
   * @param opts.maxParsedBytes override {@link MAX_PARSED_EVENT_BYTES} (tests).
   * @param opts.keptLineBytes override {@link KEPT_LINE_BYTES} (tests).
   */
  constructor(onEvent: RgEventHandler, opts: { maxParsedBytes?: number; keptLineBytes?: number } = {}) {
    this.#onEvent = onEvent;
    this.#maxParsed = opts.maxParsedBytes ?? MAX_PARSED_EVENT_BYTES;
    this.#keptLine = opts.keptLineBytes ?? KEPT_LINE_BYTES;
  }

  /** Feeds a chunk of stdout. Returns `"stop"` once the handler asked to stop. */
  push(chunk: Buffer): "stop" | void {
    if (this.#stopped) return "stop";
    let from = 0;
    // The whole lines of a chunk no larger than the parse limit are decoded with one `toString`
    // and split as a string (one native call each instead of several per line: perf, issue 17);
    // the line a previous chunk began, and the unfinished last one, go through #take/#finish.
    if (chunk.length <= this.#maxParsed) {
      const last = chunk.lastIndexOf(0x0a);
      if (last >= 0 && (this.#size > 0 || this.#stream !== undefined)) {
        const nl = chunk.indexOf(0x0a);
        this.#take(chunk.subarray(0, nl));
        from = nl + 1;
        if (this.#finish() === "stop") return this.#stop();
      }
      if (last >= from) {
        const lines = chunk.toString("utf8", from, last).split("\n");
        for (const line of lines) {
          if (line === "" || line.startsWith(BEGIN_TEXT) || line.startsWith(END_TEXT)) continue;
          const ev = fromText(line);
          if (ev.type !== "other" && this.#onEvent(ev) === "stop") return this.#stop();
        }
        from = last + 1;
      }
    }
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      this.#take(chunk.subarray(from, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      from = nl + 1;
      if (this.#finish() === "stop") return this.#stop();
    }
  }

  #stop(): "stop" {
    this.#stopped = true;
    return "stop";
  }

  /** Ends the input: a last event without a final newline is still delivered. */
  end(): "stop" | void {
    if (this.#stopped) return "stop";
    return this.#finish();
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#stream !== undefined) {
      this.#stream.feed(piece);
      return;
    }
    if (this.#size + piece.length <= this.#maxParsed) {
      this.#parts.push(piece);
      this.#size += piece.length;
      return;
    }
    const stream = new StreamedEvent(this.#keptLine);
    for (const p of this.#parts) stream.feed(p);
    stream.feed(piece);
    this.#parts = [];
    this.#size = 0;
    this.#stream = stream;
  }

  #finish(): "stop" | void {
    let ev: RgJsonEvent;
    if (this.#stream !== undefined) {
      ev = this.#stream.result();
      this.#stream = undefined;
    } else if (this.#size > 0) {
      const buf = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts, this.#size);
      this.#parts = [];
      this.#size = 0;
      // `begin`/`end` events (two per matching file) carry nothing we use: skip them unparsed (perf, J).
      if (startsWith(buf, BEGIN_PREFIX) || startsWith(buf, END_PREFIX)) return;
      ev = fromParsed(buf);
    } else {
      return;
    }
    if (ev.type === "other") return;
    return this.#onEvent(ev);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function rgText(v: unknown): RgText {
  if (!isObject(v)) return {};
  if (typeof v.text === "string") return { text: v.text };
  if (typeof v.bytes === "string") return { bytes: v.bytes };
  return {};
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Maps a fully parsed event (defensively: any shape is accepted). */
function fromParsed(buf: Buffer): RgJsonEvent {
  return fromText(buf.toString("utf8"));
}

/** {@link fromParsed} of an event already decoded to a string. */
function fromText(text: string): RgJsonEvent {
  let ev: unknown;
  try {
    ev = JSON.parse(text);
  } catch {
    return { type: "other" };
  }
  if (!isObject(ev) || !isObject(ev.data)) return { type: "other" };
  const data = ev.data;
  if (ev.type === "match") {
    const subs = Array.isArray(data.submatches) ? data.submatches : [];
    const first: unknown = subs[0];
    return {
      type: "match",
      path: rgText(data.path),
      lines: rgText(data.lines),
      complete: true,
      line_number: num(data.line_number),
      absolute_offset: num(data.absolute_offset),
      first_start: isObject(first) ? num(first.start) : null,
    };
  }
  if (ev.type === "summary") {
    const stats = isObject(data.stats) ? data.stats : {};
    return { type: "summary", searches: num(stats.searches) ?? 0 };
  }
  return { type: "other" };
}

interface Frame {
  arr: boolean;
  /** The current key (objects). */
  key: string;
  /** The current index (arrays). */
  index: number;
  /** The next string in this object is a key. */
  expectKey: boolean;
}

/** Captured string values and their byte caps, by JSON path. */
const STRING_CAPS: Readonly<Record<string, number>> = {
  type: 32,
  "data.path.text": 64 * 1024,
  "data.path.bytes": 96 * 1024,
  "data.lines.text": -1, // KEPT_LINE_BYTES (constructor)
  "data.lines.bytes": -1,
};
const NUMBER_PATHS: ReadonlySet<string> = new Set([
  "data.line_number",
  "data.absolute_offset",
  "data.submatches.0.start",
  "data.stats.searches",
]);

interface Capture {
  parts: Buffer[];
  size: number;
  cap: number;
  complete: boolean;
}

/**
 * A byte-level tokenizer for one oversized event. It tracks the path of keys and indices,
 * captures the wanted values with caps, and ignores everything after the first submatch.
 */
class StreamedEvent {
  readonly #keptLine: number;
  readonly #stack: Frame[] = [];
  readonly #strings = new Map<string, Capture>();
  readonly #numbers = new Map<string, number>();
  #inString = false;
  #escape = false;
  #isKey = false;
  #keyBytes: number[] = [];
  #capture: Capture | undefined;
  #scalar: string | undefined;
  #scalarPath = "";
  #done = false;

  constructor(keptLine: number) {
    this.#keptLine = keptLine;
  }

  feed(buf: Buffer): void {
    let i = 0;
    const n = buf.length;
    while (i < n && !this.#done) {
      if (this.#inString) {
        let k = i;
        if (this.#escape) {
          this.#escape = false;
          k = i + 1;
        }
        while (k < n) {
          const c = buf[k];
          if (c === 0x22 || c === 0x5c) break;
          k++;
        }
        this.#collect(buf, i, Math.min(k, n));
        if (k >= n) return;
        if (buf[k] === 0x5c) {
          this.#collect(buf, k, k + 1);
          this.#escape = true;
          i = k + 1;
          continue;
        }
        this.#endString();
        i = k + 1;
        continue;
      }
      const c = buf[i] as number;
      if (this.#scalar !== undefined) {
        if (c !== 0x2c && c !== 0x7d && c !== 0x5d && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
          if (this.#scalar.length < 40) this.#scalar += String.fromCharCode(c);
          i++;
          continue;
        }
        this.#endScalar();
      }
      switch (c) {
        case 0x7b: // {
        case 0x5b: // [
          this.#stack.push({ arr: c === 0x5b, key: "", index: 0, expectKey: c === 0x7b });
          break;
        case 0x7d: // }
        case 0x5d: // ]
          this.#stack.pop();
          break;
        case 0x2c: {
          // ,
          const top = this.#stack[this.#stack.length - 1];
          if (top?.arr) {
            top.index++;
            // Past the first submatch: the rest of the event is not needed.
            if (this.#stack.length === 3 && this.#stack[0]?.key === "data" && this.#stack[1]?.key === "submatches") {
              this.#done = true;
            }
          } else if (top) {
            top.expectKey = true;
          }
          break;
        }
        case 0x3a: {
          // :
          const top = this.#stack[this.#stack.length - 1];
          if (top) top.expectKey = false;
          break;
        }
        case 0x22: // "
          this.#beginString();
          break;
        case 0x20:
        case 0x09:
        case 0x0d:
          break;
        default:
          this.#scalar = String.fromCharCode(c);
          this.#scalarPath = this.#path();
      }
      i++;
    }
  }

  #path(): string {
    return this.#stack.map((f) => (f.arr ? String(f.index) : f.key)).join(".");
  }

  #beginString(): void {
    this.#inString = true;
    this.#escape = false;
    const top = this.#stack[this.#stack.length - 1];
    this.#isKey = top !== undefined && !top.arr && top.expectKey;
    this.#capture = undefined;
    if (this.#isKey) {
      this.#keyBytes = [];
      return;
    }
    const p = this.#path();
    const cap = STRING_CAPS[p];
    if (cap !== undefined) {
      this.#capture = { parts: [], size: 0, cap: cap < 0 ? this.#keptLine : cap, complete: true };
      this.#strings.set(p, this.#capture);
    }
  }

  #collect(buf: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (this.#isKey) {
      for (let j = from; j < to && this.#keyBytes.length < 64; j++) this.#keyBytes.push(buf[j] as number);
      return;
    }
    const cap = this.#capture;
    if (cap === undefined) return;
    const room = cap.cap - cap.size;
    if (room <= 0) {
      cap.complete = false;
      return;
    }
    const take = Math.min(room, to - from);
    cap.parts.push(Buffer.from(buf.subarray(from, from + take)));
    cap.size += take;
    if (take < to - from) cap.complete = false;
  }

  #endString(): void {
    this.#inString = false;
    if (this.#isKey) {
      const top = this.#stack[this.#stack.length - 1];
      if (top) top.key = Buffer.from(this.#keyBytes).toString("latin1");
    }
    this.#capture = undefined;
  }

  #endScalar(): void {
    if (this.#scalar !== undefined && NUMBER_PATHS.has(this.#scalarPath)) {
      const v = Number(this.#scalar);
      if (Number.isFinite(v)) this.#numbers.set(this.#scalarPath, v);
    }
    this.#scalar = undefined;
  }

  result(): RgJsonEvent {
    this.#endScalar();
    const type = this.#text("type");
    if (type === "summary") return { type: "summary", searches: this.#numbers.get("data.stats.searches") ?? 0 };
    if (type !== "match") return { type: "other" };
    // A path is never cut: a hit whose path did not fit cannot be named, so it is dropped.
    const pathCap = this.#strings.get("data.path.text") ?? this.#strings.get("data.path.bytes");
    if (pathCap?.complete === false) return { type: "other" };
    const pathText = this.#text("data.path.text");
    const pathBytes = this.#text("data.path.bytes");
    const lineCap = this.#strings.get("data.lines.text") ?? this.#strings.get("data.lines.bytes");
    const linesText = this.#text("data.lines.text");
    const linesBytes = this.#text("data.lines.bytes");
    return {
      type: "match",
      path: pathText !== undefined ? { text: pathText } : pathBytes !== undefined ? { bytes: pathBytes } : {},
      lines:
        linesText !== undefined
          ? { text: linesText }
          : linesBytes !== undefined
            ? { bytes: lineCap?.complete === false ? linesBytes.slice(0, linesBytes.length - (linesBytes.length % 4)) : linesBytes }
            : {},
      complete: lineCap?.complete ?? true,
      line_number: this.#numbers.get("data.line_number") ?? null,
      absolute_offset: this.#numbers.get("data.absolute_offset") ?? null,
      first_start: this.#numbers.get("data.submatches.0.start") ?? null,
    };
  }

  /** A captured string, decoded; a cut one is cut back to the last complete character or escape. */
  #text(p: string): string | undefined {
    const cap = this.#strings.get(p);
    if (cap === undefined) return undefined;
    let raw = Buffer.concat(cap.parts, cap.size);
    if (!cap.complete) raw = raw.subarray(0, safeJsonPrefix(raw));
    try {
      const v: unknown = JSON.parse(`"${raw.toString("utf8")}"`);
      return typeof v === "string" ? v : undefined;
    } catch {
      return raw.toString("utf8");
    }
  }
}

/**
 * Length of the longest prefix of JSON string content (UTF-8 bytes, escapes undecoded) that ends
 * on a whole character or escape sequence.
 */
export function safeJsonPrefix(raw: Uint8Array): number {
  let i = 0;
  let safe = 0;
  while (i < raw.length) {
    const c = raw[i] as number;
    let len: number;
    if (c === 0x5c) len = raw[i + 1] === 0x75 ? 6 : 2;
    else len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (i + len > raw.length) break;
    i += len;
    safe = i;
  }
  return safe;
}
