/**
 * `read_evidence`: exact lines of one file as a single `source` record.
 *
 * The file is opened race-safely through {@link Workspace.openFile} and streamed in chunks, so a
 * huge file costs memory only for the lines returned (a multi-gigabyte file is no risk). Lines
 * follow the rules of `text-file.ts` (same numbers as `search_code`: split at `\n`, `\r` before it
 * dropped, BOM dropped, UTF-16 with BOM transcoded, invalid UTF-8 → U+FFFD; a lone `\r` is shown
 * as `\n` with the flag `bare_cr`).
 *
 * Range rules: lines are 1-based and inclusive. `start_line` defaults to 1; `end_line` defaults to
 * `start_line + DEFAULT_READ_LINES - 1`. Both must be integers ≥ 1 and `end_line ≥ start_line`
 * (else `INVALID_ARGUMENT`); a `start_line` past the last line is `INVALID_ARGUMENT` naming the
 * line count; `end_line` is clamped to the last line. At most {@link MAX_READ_LINES} lines and
 * {@link MAX_READ_CHARS} characters are returned, lines longer than {@link MAX_READ_LINE_CHARS}
 * are cut; whenever the file goes on past the lines returned, `truncated` is true and the `note`
 * says which `start_line` reads the next range.
 *
 * Binary files (a NUL byte in the first 8 KiB) are refused with `UNSUPPORTED` (no record, since a
 * binary file has no lines to cite).
 */
import { CUT_MARK, advice, joinAdvice, location, param, tool, type AdviceText } from "./advice.js";
import type { ReadEvidenceArgs } from "./args.js";
import { cancelledError, type Evidence, type EvidenceFlag, type EvidenceResult, ToolError } from "./evidence.js";
import type { OutputScope } from "./budget.js";
import {
  BARE_CR_FLAG,
  BINARY_SNIFF_BYTES,
  createDecoder,
  cutText,
  hasInvisibleUnicode,
  sniff,
  snippetLine,
} from "./sandbox/text-file.js";
import { SkippedFileError, type Workspace, fsError } from "./sandbox/workspace.js";

/** Lines returned when `end_line` is not given. */
export const DEFAULT_READ_LINES = 200;
/** Most lines returned by one call. */
export const MAX_READ_LINES = 500;
/** Most snippet characters (UTF-16 code units) returned by one call (about 3–4K tokens). */
export const MAX_READ_CHARS = 12_000;
/** Longest line shown; longer lines are cut and the record flagged `truncated`. */
export const MAX_READ_LINE_CHARS = 1000;
/** Largest `start_line`/`end_line` accepted (`tools/code-tool-inputs.ts`; past every file codecite reads, 16 MiB at most). */
export const MAX_LINE_NUMBER = 100_000_000;
/** Files up to this size are scanned to the end so the note can give the line count (bytes). */
const COUNT_ALL_LINES_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads lines `start_line..end_line` of `path`.
 * @param signal cancels a long scan (checked between 64 KiB chunks).
 * @returns one `source` record (name = the path) and `total: 1`, or no record and a note for an
 *   empty file.
 * @throws ToolError `INVALID_ARGUMENT` (bad range, directory, path), `OUTSIDE_ROOT`, `DENIED`,
 *   `NOT_FOUND`, `UNSUPPORTED` (binary file), `TIMEOUT` (cancelled).
 */
export async function readEvidence(ws: Workspace, args: ReadEvidenceArgs, signal?: AbortSignal, output?: OutputScope): Promise<EvidenceResult> {
  // `all` (a person's `codecite read --all`): the whole file, or the range asked for, with no line or character cap.
  const all = output?.all === true;
  const start = checkLine(args.start_line, "start_line") ?? 1;
  const endArg = checkLine(args.end_line, "end_line");
  if (endArg !== undefined && endArg < start) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      advice`${param("end_line")} (${endArg}) is before ${param("start_line")} (${start})`,
      advice`Lines are 1-based and inclusive: pass ${param("start_line")} \u2264 ${param("end_line")}.`,
    );
  }
  const requestedEnd = endArg ?? (all ? Number.MAX_SAFE_INTEGER : start + DEFAULT_READ_LINES - 1);
  // Lines read at most: `--max-lines` under `all` (the one snippet's lines, as for every evidence command), else none; the tool's cap otherwise.
  const lineCap = all ? (output?.maxSnippetLines ?? Infinity) : MAX_READ_LINES;
  const spanEnd = Math.min(requestedEnd, start + lineCap - 1);

  const file = await ws.openFile(args.path);
  try {
    const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, Math.max(file.size, 1)));
    const { bytesRead: headBytes } = await file.handle.read(head, 0, head.length, 0);
    const info = sniff(head.subarray(0, headBytes));
    if (info.binary) {
      ws.skipped.binary++;
      throw new SkippedFileError(
        "binary",
        file.rel,
        `${file.rel} is a binary file (NUL byte in the first 8 KiB); it has no text lines to read`,
        advice`Read a text file instead, or ${tool("search_code")} for where this file is used.`,
      );
    }

    const decoder = createDecoder(info.encoding);
    const kept: string[] = [];
    let keptChars = 0;
    let lineNo = 0; // lines completed so far
    let cur = ""; // the current line (only while it may be returned), at most MAX_READ_LINE_CHARS + 1
    let curCut = false;
    let anyCut = false;
    let bareCr = false;
    let invisible = false;
    let charCapHit = false;
    let collecting = true; // still taking lines
    let stoppedEarly = false; // stopped before EOF (large files only)
    let moreAfterStop = false;
    let tail = false; // characters after the last "\n" seen so far
    const countAll = file.size <= COUNT_ALL_LINES_BYTES;

    const wantText = () => collecting && lineNo + 1 >= start;
    const append = (s: string) => {
      if (curCut || s === "") return;
      const room = MAX_READ_LINE_CHARS + 1 - cur.length; // +1 keeps a possible trailing "\r"
      if (s.length <= room) cur += s;
      else {
        cur += cutText(s, room).text;
        curCut = true;
      }
    };
    /** Completes the current line. */
    const endLine = () => {
      lineNo++;
      if (collecting && lineNo >= start) {
        let line = cur;
        if (curCut) line = cutText(line, MAX_READ_LINE_CHARS).text;
        else if (line.endsWith("\r")) line = line.slice(0, -1);
        const shown = snippetLine(line);
        const cost = shown.text.length + (kept.length > 0 ? 1 : 0);
        if (!all && kept.length > 0 && keptChars + cost > MAX_READ_CHARS) {
          charCapHit = true;
          collecting = false;
        } else {
          kept.push(shown.text);
          keptChars += cost;
          if (curCut) anyCut = true;
          if (shown.bareCr) bareCr = true;
          if (hasInvisibleUnicode(line)) invisible = true;
          if (lineNo >= spanEnd) collecting = false;
        }
      }
      cur = "";
      curCut = false;
    };

    const buf = Buffer.alloc(CHUNK_BYTES);
    let pos = info.bomBytes;
    read: for (;;) {
      if (signal?.aborted) {
        throw cancelledError(signal, "reading was cancelled", "Ask for a smaller line range or another file.");
      }
      const { bytesRead } = await file.handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const text = decoder.decode(buf.subarray(0, bytesRead), { stream: true });
      let from = 0;
      for (;;) {
        const nl = text.indexOf("\n", from);
        if (nl < 0) {
          if (from < text.length) tail = true;
          if (wantText()) append(text.slice(from));
          break;
        }
        if (wantText()) append(text.slice(from, nl));
        from = nl + 1;
        tail = false;
        endLine();
        if (!collecting && !countAll) {
          stoppedEarly = true;
          moreAfterStop = from < text.length || pos < file.size;
          break read;
        }
      }
    }
    if (!stoppedEarly) {
      const rest = decoder.decode();
      if (rest !== "") tail = true;
      if (wantText()) append(rest);
      // A last line without a final "\n" still counts; a final "\n" does not start a new line.
      if (tail) endLine();
    }

    const totalLines = stoppedEarly ? undefined : lineNo;
    if (totalLines === 0) {
      return { evidence: [], total: 0, truncated: false, note: advice`${location(file.rel)} is empty (0 lines).` };
    }
    if (kept.length === 0) {
      // start_line is past the end (only possible when the whole file was scanned).
      throw new PastEndError(file.rel, start, totalLines ?? lineNo);
    }
    const end = start + kept.length - 1;
    const flags: EvidenceFlag[] = [];
    if (anyCut) flags.push("truncated");
    if (bareCr) flags.push(BARE_CR_FLAG);
    if (invisible) flags.push("invisible_unicode");
    const rec: Evidence = {
      path: file.rel,
      start_line: start,
      end_line: end,
      kind: "source",
      name: file.rel,
      snippet: kept.join("\n"),
    };
    if (flags.length > 0) rec.flags = flags;

    const moreAfter = totalLines === undefined ? moreAfterStop : end < totalLines;
    const notes: AdviceText[] = [];
    const of = totalLines === undefined ? "" : ` of ${totalLines}`;
    if (endArg !== undefined && totalLines !== undefined && endArg > totalLines && end === totalLines) {
      notes.push(advice`${param("end_line")} ${endArg} clamped to the last line ${totalLines}.`);
    }
    const wanted = Math.min(requestedEnd, totalLines ?? requestedEnd);
    if (end < wanted) {
      const why = charCapHit
        ? `the ${MAX_READ_CHARS}-character limit`
        : `the ${lineCap}-line limit`;
      notes.push(advice`Showing lines ${start}-${end}${of} (stopped at ${why}); read on with ${param("start_line", end + 1)}.`);
    } else if (moreAfter && endArg === undefined) {
      notes.push(advice`Showing lines ${start}-${end}${of}; read on with ${param("start_line", end + 1)}.`);
    }
    if (anyCut) notes.push(advice`Lines longer than ${MAX_READ_LINE_CHARS} characters were cut ${CUT_MARK}.`);
    const truncated = anyCut || end < wanted || (moreAfter && endArg === undefined);
    const result: EvidenceResult = { evidence: [rec], total: 1, truncated };
    if (notes.length > 0) result.note = joinAdvice(...notes);
    return result;
  } catch (err) {
    throw fsError(err, file.rel); // read errors (EIO …) as typed errors; ToolErrors pass through
  } finally {
    await file.handle.close().catch(() => undefined);
  }
}

/**
 * `INVALID_ARGUMENT` for a `start_line` past the last line, with its numbers as data, so a
 * surface can word it in its user's terms (`codecite read file:N` names the location pasted).
 */
export class PastEndError extends ToolError {
  constructor(
    readonly path: string,
    readonly startLine: number,
    /** Lines in the file. */
    readonly lines: number,
  ) {
    super(
      "INVALID_ARGUMENT",
      advice`${param("start_line")} (${startLine}) is past the end of ${path} (${lines} lines)`,
      advice`Pass a ${param("start_line")} between 1 and ${lines}.`,
    );
  }
}

/** Validates an optional 1-based line argument. */
function checkLine(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new ToolError("INVALID_ARGUMENT", `${name} must be a whole number (got ${JSON.stringify(v)})`, "Lines are 1-based integers.");
  }
  if (v < 1) {
    throw new ToolError("INVALID_ARGUMENT", `${name} must be at least 1 (got ${v}); lines are 1-based`, "The first line is 1.");
  }
  return Math.min(v, Number.MAX_SAFE_INTEGER);
}
