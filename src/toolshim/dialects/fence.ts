/**
 * Markdown code fences, for the dialects that live inside them (fenced JSON, xLAM lists, Gemma 3
 * `tool_code`, Continue ```` ```tool ```` blocks).
 */

/**
 * The info strings (lower-case) under which a fence may hold calls as JSON or markup: none,
 * `json` and its kin, `xml`, the tool labels. Real replies put calls only in fences labelled so
 * (test/fixtures/toolcalls*.jsonl: `json`, none, `xml`, `tool`, `tool_call`, `tool_code`); a fence
 * labelled with another language (```` ```ts ````, ```` ```d ````, ```` ```python ````) holds code
 * the answer quotes, and JSON in it is not a call. Python's calls are read by the pythonic dialect
 * (`pythonic.ts`), not as JSON.
 */
export const CALL_FENCE_LANGS: ReadonlySet<string> = new Set([
  "", "json", "jsonc", "json5", "javascript", "js", "tool", "tools", "tool_call", "tool_calls", "tool_code", "function", "function_call", "xml",
]);

/** One fenced block. Offsets are indices into the text. */
export interface Fence {
  /** Index of the opening backticks (or of the indentation before them). */
  start: number;
  /** Index just after the closing backticks; `text.length` when the fence is unterminated. */
  end: number;
  /** Info string after the opening backticks (`json`, `tool_code`, …), lower-case; `""` when none. */
  lang: string;
  bodyStart: number;
  bodyEnd: number;
  /** Whether a closing fence was found. */
  closed: boolean;
}

/** A fence as {@link FencePairing} reads it while the text may still grow. */
export interface PairedFence extends Fence {
  /** Index of the opening backticks (after the indentation). */
  ticksAt: number;
  /** The closing run of backticks is whole (a character other than a backtick follows it). */
  final: boolean;
}

/**
 * An opening fence line, without its line break: blanks, three or more backticks, blanks, an
 * optional info word, blanks, an optional carriage return.
 */
const OPENER_LINE = /^([ \t]*)(`{3,})[ \t]*([\w+.-]*)[ \t]*\r?$/;
/** The start of a line that may still become an opening line ({@link OPENER_LINE}'s characters). */
const OPENER_PREFIX = /^[ \t]*(?:`[`\w+.\- \t\r]*)?$/;
/** A line break before a line that may open a fence: blanks, then a backtick or the piece's end. */
const CANDIDATE_LINE = /\n(?=[ \t]*(?:`|$))/g;
const BACKTICK = 0x60;

/**
 * The pairing of {@link findFences}, read as the text arrives piece by piece (the stream filter,
 * `stream-filter.ts`, decides a fence with it exactly where the dialects' readers close it). The
 * rule: an opening fence is a whole line of blanks, a run of three or more backticks and an
 * optional info word (no other text on the line); the body runs to the next run of at least as
 * many backticks, anywhere (also inside a line: ```` {}``` ````), and the fence ends after that
 * whole run; an unterminated fence runs to the end of the text. After a fence, the next opening
 * line starts after a line break. Openings are read left to right, so a fence line inside a
 * fence's body or at its close opens nothing. Tilde fences are not read.
 *
 * Offsets are indices into the whole text. Reading costs time linear in the text; a line is kept
 * only while it may still be an opening line.
 */
export class FencePairing {
  readonly #fences: PairedFence[] = [];
  /** The text's length so far. */
  #length = 0;
  /** The fence whose body is being read, if any. */
  #open: PairedFence | undefined;
  /** The opening backticks' count of the open fence. */
  #ticks = 0;
  /** The run of backticks that ends the text so far (inside a body): where it starts and how long it is. */
  #runAt = 0;
  #run = 0;
  /** The current line starts a possible opening line (after a line break or at the text's start, outside fences). */
  #atLineStart = true;
  /** The current line so far, while it may be an opening line (`undefined`: it cannot be). */
  #line: string | undefined = "";
  #lineStart = 0;

  /** Reads `piece`, which starts at index `base` of the text (the text so far ends there). */
  note(piece: string, base: number): void {
    let k = 0;
    const n = piece.length;
    this.#length = base + n;
    while (k < n) {
      const open = this.#open;
      if (open !== undefined) {
        // A body: look for a run of as many backticks as opened it.
        if (this.#run > 0 && !open.closed) {
          // A run that ended the text before this piece goes on here.
          while (k < n && piece.charCodeAt(k) === BACKTICK) {
            this.#run++;
            k++;
          }
          if (this.#run >= this.#ticks) this.#closeAt(this.#runAt, base + k, k < n);
          else if (k < n) this.#run = 0;
          continue;
        }
        if (open.closed) {
          // The closing run, whole once another character comes.
          while (k < n && piece.charCodeAt(k) === BACKTICK) k++;
          open.end = base + k;
          open.final = k < n;
          if (open.final) this.#open = undefined;
          continue;
        }
        const tick = piece.indexOf("`", k);
        if (tick < 0) return;
        let e = tick;
        while (e < n && piece.charCodeAt(e) === BACKTICK) e++;
        this.#runAt = base + tick;
        this.#run = e - tick;
        k = e;
        if (this.#run >= this.#ticks) this.#closeAt(this.#runAt, base + e, e < n);
        else if (e < n) this.#run = 0;
        continue;
      }
      if (!this.#atLineStart || this.#line === undefined) {
        // Only a next line that may open a fence matters now (one the piece's end cuts may).
        CANDIDATE_LINE.lastIndex = k;
        const m = CANDIDATE_LINE.exec(piece);
        if (m === null) {
          this.#atLineStart = false;
          return;
        }
        this.#newLine(base + m.index + 1);
        k = m.index + 1;
        continue;
      }
      // A line that may open a fence: read it whole, or keep what the piece holds of it while it may.
      const nl = piece.indexOf("\n", k);
      const line = this.#line + piece.slice(k, nl < 0 ? n : nl);
      if (nl >= 0) {
        this.#line = line;
        this.#endLine(base + nl);
        k = nl + 1;
        continue;
      }
      this.#line = OPENER_PREFIX.test(line) ? line : undefined;
      return;
    }
  }

  /**
   * The fence whose opening backticks are at `at`; `"pending"` when the line there may still
   * become an opening line (it has not ended); `undefined` when no fence opens there.
   */
  openedAt(at: number): PairedFence | "pending" | undefined {
    if (this.#open === undefined && this.#atLineStart && this.#line !== undefined && at >= this.#lineStart) return "pending";
    for (let i = this.#fences.length - 1; i >= 0; i--) {
      const f = this.#fences[i]!;
      if (f.ticksAt === at) return f;
      if (f.start < at) return undefined;
    }
    return undefined;
  }

  /** The first fence whose opening line starts in `[from, to)`, if any. */
  firstOpenedIn(from: number, to: number): PairedFence | undefined {
    let found: PairedFence | undefined;
    for (let i = this.#fences.length - 1; i >= 0; i--) {
      const f = this.#fences[i]!;
      if (f.start < from) break;
      if (f.start < to) found = f;
    }
    return found;
  }

  /** The fences read so far, the text taken as ended (a pending opening line opens a fence). */
  finish(): Fence[] {
    if (this.#open === undefined && this.#atLineStart && this.#line !== undefined) this.#endLine(this.#length, true);
    const n = this.#length;
    return this.#fences.map((f) => ({ start: f.start, end: f.closed ? f.end : n, lang: f.lang, bodyStart: f.bodyStart, bodyEnd: f.closed ? f.bodyEnd : n, closed: f.closed }));
  }

  /** The open fence's closing run starts at `at` and reaches `end` (`final`: the run is whole). */
  #closeAt(at: number, end: number, final: boolean): void {
    const f = this.#open!;
    f.closed = true;
    f.bodyEnd = at;
    f.end = end;
    f.final = final;
    this.#run = 0;
    // After a fence, the next opening line starts after a line break.
    this.#atLineStart = false;
    this.#line = undefined;
    if (final) this.#open = undefined;
  }

  /** The line starting at `at` begins. */
  #newLine(at: number): void {
    this.#atLineStart = true;
    this.#line = "";
    this.#lineStart = at;
  }

  /** The current line ends at `at` (its line break, or the text's end with `atEnd`): an opening line opens a fence. */
  #endLine(at: number, atEnd = false): void {
    const line = this.#line!;
    // At the text's end the line may not end with a carriage return (no line break follows it).
    const m = atEnd && line.endsWith("\r") ? null : OPENER_LINE.exec(line);
    if (m) {
      const bodyStart = atEnd ? at : at + 1;
      const f: PairedFence = {
        start: this.#lineStart,
        ticksAt: this.#lineStart + m[1]!.length,
        end: this.#length,
        lang: m[3]!.toLowerCase(),
        bodyStart,
        bodyEnd: this.#length,
        closed: false,
        final: false,
      };
      this.#fences.push(f);
      this.#open = f;
      this.#ticks = m[2]!.length;
      this.#run = 0;
    }
    this.#newLine(at + 1);
    if (m) this.#atLineStart = false;
  }
}

/**
 * Find fenced blocks ({@link FencePairing}'s rule): an opening run of three or more backticks at
 * the start of a line (leading spaces allowed), an optional info word, then the body up to the
 * next run of at least as many backticks (which may follow the body on the same line:
 * ```` {}``` ````). An unterminated fence runs to the end of the text.
 */
export function findFences(text: string): Fence[] {
  const pairing = new FencePairing();
  pairing.note(text, 0);
  return pairing.finish();
}
