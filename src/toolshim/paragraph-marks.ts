/**
 * Paragraph starts of a streamed text that no Markdown code region spans: the points where the
 * stream filter (`stream-filter.ts`) may recover a stretch of text on its own, because the recovery
 * (`recover.ts`) reads the text after such a point the same whether or not the text before it is
 * there, as far as code regions go. Code regions are `residue.ts` `findCodeRegions`' (which the
 * recovery uses to tell quoted markup from markup): a fenced block runs from an opening fence line
 * to a closing fence line of the same character and at least the same length (or to the end of the
 * text), and an inline code span never holds a paragraph break (`\n\n`) and starts at a backtick.
 * So a position right after `\n\n`, or after a line break with no backtick before it in its
 * paragraph, that no fenced block is open at lies outside every code region, and the code regions
 * after it are the same in the whole text and in the text from it. (Line starts count so that
 * lines without blank lines between them, a list of `a -> b`, give the filter such points too.)
 *
 * The text is read once, as it arrives, one line at a time: the fence state is known at every line
 * start from the lines before it only.
 */

/** An opening fence line: blanks, then three or more backticks or tildes (`findCodeRegions`' pattern). */
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})/;

/** The paragraph starts of a text given piece by piece; see the module comment. */
export class ParagraphMarks {
  /** Paragraph starts outside fenced blocks, increasing (older ones are dropped by {@link latest}). */
  #marks: number[] = [];
  /** The fenced block open at the current line (its fence character and length), if any. */
  #fence: { char: string; length: number } | undefined;
  /** Where the current line starts. */
  #lineStart = 0;
  /** The current line's lead: its characters up to the first one that is not a blank, `` ` `` or `~`. */
  #lead = "";
  /** The current line has a character after its lead. */
  #rest = false;
  /** A backtick came in the current paragraph outside fenced blocks (an inline code span may cross its line breaks). */
  #tickInParagraph = false;
  /**
   * Fenced blocks: where each starts (its opening line), where its closing fence's first character
   * is (`close`) and where the block ends (its closing line's break); both `Infinity` while open.
   */
  readonly #fences: { start: number; bodyStart: number; close: number; end: number }[] = [];
  /** Where the open fenced block's body has its first character that is not blank (`Infinity`: none yet). */
  #bodyFirst = Number.POSITIVE_INFINITY;

  /** Reads `piece`, which starts at index `base` of the text (the text so far ends there). */
  note(piece: string, base: number): void {
    let k = 0;
    while (k < piece.length) {
      if (this.#rest) {
        // Only the line's end matters now, and whether a backtick comes before it.
        const nl = piece.indexOf("\n", k);
        if (!this.#tickInParagraph && this.#fence === undefined) {
          const tick = piece.indexOf("`", k);
          if (tick >= 0 && (nl < 0 || tick < nl)) this.#tickInParagraph = true;
        }
        if (nl < 0) return;
        k = nl;
      }
      const c = piece[k]!;
      if (c === "\n") this.#endLine(base + k);
      else if (c === " " || c === "\t" || c === "`" || c === "~") {
        this.#lead += c;
        if (c === "`" || c === "~") this.#bodyFirst = Math.min(this.#bodyFirst, base + k);
      } else {
        this.#rest = true;
        if (c !== "\r") this.#bodyFirst = Math.min(this.#bodyFirst, base + k);
      }
      k++;
    }
  }

  /** The latest paragraph start at or before `upto` (-1: none). Earlier ones are dropped: `upto` is expected not to fall below the one returned. */
  latest(upto: number): number {
    const marks = this.#marks;
    let i = marks.length - 1;
    while (i >= 0 && marks[i]! > upto) i--;
    if (i < 0) return -1;
    if (i > 0) marks.splice(0, i);
    return marks[0]!;
  }

  /**
   * Where the fenced block that holds `at` after its opening line starts (`at` when none does): a
   * hold point inside a fence must not show the fence's opener, which the recovery removes with
   * the fence when what the fence holds is markup. With `onlyFirst`, only a fence whose body is
   * blank before `at` (`at` is the text's last word, in the open fence: markup may start there).
   */
  fenceStart(at: number, onlyFirst = false): number {
    for (let i = this.#fences.length - 1; i >= 0; i--) {
      const f = this.#fences[i]!;
      if (f.end <= at) return at;
      if (f.start < at) return onlyFirst && this.#bodyFirst < at ? at : f.start;
    }
    return at;
  }

  /** The fenced block that the fence characters at `at` closed, a whole line (`undefined`: they close none). */
  closedAt(at: number): { start: number; bodyStart: number } | undefined {
    for (let i = this.#fences.length - 1; i >= 0; i--) {
      const f = this.#fences[i]!;
      if (f.close === at) return f;
      if (f.close < at) return undefined;
    }
    return undefined;
  }

  /** The line ending with the line break at `at` is whole. */
  #endLine(at: number): void {
    const fence = this.#fence;
    if (fence !== undefined) {
      if (!this.#rest && closesFence(this.#lead, fence.char, fence.length)) {
        this.#fence = undefined;
        const f = this.#fences[this.#fences.length - 1]!;
        f.end = at;
        f.close = this.#lineStart + this.#lead.length - this.#lead.trimStart().length;
      }
    } else {
      const open = FENCE_OPEN.exec(this.#lead);
      if (open) {
        this.#fence = { char: open[1]![0]!, length: open[1]!.length };
        this.#fences.push({ start: this.#lineStart, bodyStart: at + 1, close: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY });
        this.#bodyFirst = Number.POSITIVE_INFINITY;
      }
      // An empty line after a line break: a paragraph break ends at `at`.
      else if (at === this.#lineStart && at > 0) {
        this.#marks.push(at + 1);
        this.#tickInParagraph = false;
      }
      // A line break that no inline code span can cross: no backtick before it in its paragraph.
      else if (!this.#tickInParagraph && !this.#lead.includes("`")) this.#marks.push(at + 1);
      else this.#tickInParagraph = true;
    }
    this.#lineStart = at + 1;
    this.#lead = "";
    this.#rest = false;
  }
}

/** A whole line (`line`: blanks, backticks and tildes only) that closes a fence of `length` × `char`: blanks, at least that many of the character, blanks. */
function closesFence(line: string, char: string, length: number): boolean {
  let s = 0;
  let e = line.length;
  while (s < e && (line[s] === " " || line[s] === "\t")) s++;
  while (e > s && (line[e - 1] === " " || line[e - 1] === "\t")) e--;
  if (e - s < length) return false;
  for (let k = s; k < e; k++) if (line[k] !== char) return false;
  return true;
}
