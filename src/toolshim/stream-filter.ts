/**
 * Streaming filter: while a model streams, prose reaches the terminal at once;
 * only text that could be (or start) call markup or reasoning is held back until it is decided;
 * recovered markup never reaches the user. Technique: hold back only a suffix that could be the
 * prefix of a known marker (the technique goose's think-tag filter uses), extended to whole constructs.
 *
 * How it decides: the buffer is scanned for the earliest undecided construct (the hold point);
 * the visible text is `recoverDeterministic` of the text before it, so what is shown is exactly
 * what the non-streamed pipeline keeps. Constructs and when they are decided:
 * - call markers (special tokens `<|…|>`/`<｜…｜>`, `<tool_call`, `<function`, `[TOOL_CALLS]`,
 *   `functools[`, `>>>`, every dialect's markers that start with `<`, `[` or `>` …): held to
 *   the end of the message (closers are often missing at EOS);
 * - reasoning openers (`<think>` …): held until the closer;
 * - `{…}` / `[{…}]` / `[f(…)]` that look like JSON or a pythonic call, with a preceding
 *   `name(`: held until the value closes;
 * - a tag followed by `{`/`[` (a wrapper): held until the value and the closing tag; a tag
 *   that opens a line: held until its closing tag;
 * - a code fence labelled for calls (``` / ```json / ```tool …): held until it closes;
 * - a construct decided as a whole (a fence, a tag that opens a line with its closing tag, a
 *   JSON value) that holds a call marker: held from its start to the end of the message, like
 *   the marker (the recovery may read from the marker on past the construct's end);
 * - everything after a call found in the decided text (a later marker or backtick can turn the
 *   call back into text): held to the end of the message;
 * - a message whose first line is a lone identifier (Functionary v3.2 `python`/`all` headers)
 *   or that starts with `analysis`, `commentary to=functions.` or `to=functions.` (Harmony with
 *   special tokens stripped): held;
 * - the last word of the buffer (it could become `name(` or a marker), a last line that is one
 *   token (a call header such as `functions.x:0` before its marker), a partial marker at the
 *   end, and a `;`/`,` after a closed value (it could join the value to a next call);
 * - a run of backticks at the end of the text (a longer run closes no code span that a shorter
 *   one would).
 *
 * Cost: the text before the hold point is recovered again only when it grew by something other
 * than plain prose; plain prose (no markup characters, no marker words, whole inline code spans)
 * extends the visible text directly and is shown as it is; after a recovery, shown text is
 * compared with the pipeline's output with whitespace runs counted as equal (the pipeline tidies
 * whitespace at span junctions). A message of plain prose costs time linear in its length.
 * Per delta, the scan reads only the new text, the characters that may start a construct and
 * the end of the text: it jumps between significant characters, reads the last word and line
 * backwards, knows where the last `[`/`<`/`>` and `}`/`]` are (the end-anchored markup patterns
 * run only when one is near), and stops re-reading the message's lead once it is whole.
 *
 * Known limit: a template that prefills a reasoning opener (the text holds only the closer)
 * cannot be recognised before the closer arrives; pass `prefilledReasoning: true` for such models
 * (the recover diagnostics say `reasoning: prefilled`). Without it, text streamed before the
 * closer was already shown; the answer after it is then shown again from its start.
 */
import { matchBalanced } from "./json.js";
import { DIALECTS } from "./dialects/index.js";
import { CALL_FENCE_LANGS, FencePairing, type PairedFence } from "./dialects/fence.js";
import { escapeRegExp, skipWs } from "./dialects/text-scan.js";
import { recoverDeterministic } from "./recover.js";
import { ParagraphMarks } from "./paragraph-marks.js";
import { REASONING_MARKERS, REASONING_TAGS } from "./reasoning.js";
import { strayOpenerAt, tidy } from "./residue.js";
import { TOOL_NAME_ATTRS } from "./structural.js";
import { skipSpaceOrMarkers } from "./word-markers.js";
import type { ArgumentValidator, OfferedTool, RecoverResult } from "./types.js";

/** Options of {@link StreamFilter}. */
export interface StreamFilterOptions {
  /** The model's template prefills a reasoning opener: hold everything until a closer arrives. */
  prefilledReasoning?: boolean;
  /**
   * The argument validator for the recovery at {@link StreamFilter.end} (`recoverDeterministic`'s
   * `validate`), so that {@link StreamFilter.result} is the turn's whole recovery when the model
   * made no native calls. It judges calls only; the visible text does not depend on it.
   */
  validate?: ArgumentValidator;
}

const OWN_MARKERS = [
  "<|", "<｜", "<tool_call", "<tool_calls", "<function", "<invoke", "<minimax:tool_call", "<seed:tool_call",
  "<steptml:", "<TOOLCALL", "<start_function_call", "<arg_key", "<parameter", "<tools>", "<tool>",
  "[TOOL_CALLS]", "[ARGS]", "functools[", ">>>", "Using tool:", "using tool:", "Using Tool:", "Tool Call:", "Tool call:",
  "Tool Call**:", "Tool call**:", "**Tool Call:", "**Tool call:", "**Tool Call**:", "**Tool call**:", "Tool result", "Tool error:", "<tool_response>", "Observation:", "Action:", "Tool:", "Function:",
  // HyperCLOVAX-SEED-Think's role header before its calls (`residue.ts` CALL_DIRECTIVE_LINE).
  "-> tool/function_call", "->tool/function_call",
];

/** Openers anchored at the scan position (sticky), each with its closer. */
const OPENERS: readonly (readonly [RegExp, RegExp])[] = REASONING_TAGS.map((t) => [
  new RegExp(t.open.source, `${t.open.flags}y`),
  new RegExp(t.close.source, `${t.close.flags}g`),
]);
/** Any closer (the prefilled-opener case). */
const CLOSERS = new RegExp(REASONING_TAGS.map((t) => t.close.source).join("|"), "i");
/** {@link CLOSERS} anchored at `lastIndex`: the closer that starts at a position, if any. */
const CLOSER_AT = new RegExp(CLOSERS.source, "iy");
/** Fences that may hold calls (`dialects/fence.ts`), and Python's, whose calls the pythonic dialect reads. */
const isCallFence = (info: string): boolean => CALL_FENCE_LANGS.has(info) || info === "python" || info === "py";

function markerList(): string[] {
  const fromDialects = DIALECTS.flatMap((d) => d.markers).filter((m) => m.length >= 2 && /^[<[>｜◁\]]/.test(m) && m !== "[{");
  return [...new Set([...OWN_MARKERS, ...fromDialects])].sort((a, b) => b.length - a.length);
}

/** Every marker, longest first, and their first characters: the same for every filter, so built once. */
const MARKERS: readonly string[] = markerList();
const MARKER_STARTS: ReadonlySet<string> = firstChars(MARKERS);
/** The markers by first character, longest first within each. */
const MARKERS_BY_START: ReadonlyMap<string, readonly string[]> = byFirstChar(MARKERS);
/**
 * The characters where {@link construct} may do more than step over one character: marker and
 * reasoning-tag starts, `<`, `{`, `[`, and fence characters. The scan jumps from one to the next.
 */
const SIGNIFICANT = new RegExp(`[${[...MARKER_STARTS, "<", "{", "[", "`", "~"].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("")}]`, "g");

type Scan = { hold: number } | { next: number };

/** First characters of every marker and reasoning tag: only there is a marker check needed. */
function firstChars(markers: readonly string[]): Set<string> {
  return new Set([...markers, ...REASONING_MARKERS].map((m) => m[0]!));
}

function byFirstChar(markers: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of markers) {
    const list = out.get(m[0]!);
    if (list) list.push(m);
    else out.set(m[0]!, [m]);
  }
  return out;
}

/** Where to hold, and where the next scan may resume (everything before it is decided). */
interface HoldScan {
  hold: number;
  resume: number;
  /** The hold is the text's last word or line ({@link tailHold}), not a construct. */
  tail?: true;
}

/**
 * Where markup the structural stage (`structural.ts`) could read starts: an offered tool's name
 * opening a line (optionally after `[`, `<` or `call:`) and followed by call syntax, a tag
 * whose `name` (`tool` …) attribute is an offered tool, or a `call:`/`<call>` opening a line. Such text is
 * held to the end of the message.
 */
function structuralPattern(tools: readonly OfferedTool[]): RegExp | undefined {
  if (tools.length === 0) return undefined;
  // JSON text of the names: no two lists share it (a joined list would: `["a,b"]`, `["a", "b"]`).
  const key = JSON.stringify(tools.map((t) => t.name));
  const known = STRUCTURAL_PATTERNS.get(key);
  if (known !== undefined) return known;
  const pattern = buildStructuralPattern(tools);
  if (STRUCTURAL_PATTERNS.size >= STRUCTURAL_PATTERNS_KEPT) STRUCTURAL_PATTERNS.delete(STRUCTURAL_PATTERNS.keys().next().value!);
  STRUCTURAL_PATTERNS.set(key, pattern);
  return pattern;
}

/**
 * The structural patterns built, by the offered tools' names: a client sends the same tools with
 * every request, and building the pattern of 20 tools cost about 46 µs per filter (measured under
 * `codecite serve`, where a filter is made per streamed reply). The pattern has no `g`/`y` flag, so
 * filters share it safely. At most {@link STRUCTURAL_PATTERNS_KEPT}, the oldest dropped first.
 */
const STRUCTURAL_PATTERNS = new Map<string, RegExp>();
const STRUCTURAL_PATTERNS_KEPT = 64;

function buildStructuralPattern(tools: readonly OfferedTool[]): RegExp {
  const names = [...new Set(tools.map((t) => t.name))].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|");
  // Gemma's opener-less `call:` / `<call>` (`dialects/gemma4-tool-call.ts`), its unfenced
  // `tool_code = NAME(…)` line (`dialects/pythonic.ts`), and a name glued to its arguments after
  // a clause's colon (`Let me run: NAME{…}`, `dialects/mistral-v11-args.ts`) too.
  return new RegExp(
    `(?:^|\\n)[ \\t]*(?:\\[|<|call:\\s*)?(?:${names})(?=[ \\t]*(?:[({:\\]>/]|$)|[ \\t]+[\\w-]+[ \\t]*=)|<[\\w.:-]+[^<>]*\\b(?:${TOOL_NAME_ATTRS})\\s*=\\s*["'](?:${names})["']|(?:^|\\n|<channel\\|>)[ \\t]*(?:call:|<call>)|(?:^|\\n)[ \\t]*tool_code[ \\t]*=|(?<=[:：][ \\t]*)(?:${names})(?=\\[ARGS\\]|\\{|$)`,
  );
}

/**
 * What a filter knows about its text that spares work on every push (each field is exact, so the
 * hold point is the same as without it).
 */
interface ScanFacts {
  /** The message's lead (its first 80 characters after whitespace) is whole and opens nothing. */
  leadDecided: boolean;
  /** The last index of `[`, `<` or `>` in the text (-1: none). */
  lastMarkup: number;
  /** The last index of `}` or `]` in the text (-1: none). */
  lastCloseValue: number;
  /** The first index of `<` in the message (-1: none); in the message's indices also when the text scanned is a window. */
  firstTagOpen: number;
  /** The message's fenced blocks, in the message's indices also when the text scanned is a window. */
  fences?: ParagraphMarks;
  /** The message's fences as the dialects pair them (`dialects/fence.ts` `findFences`), in the message's indices. */
  pairs?: FencePairing;
}

/**
 * The text is held from `hold`; a `;`/`,` after a closed value is held with it.
 *
 * `text` may be a window of the message (see `StreamFilter#window`): its indices are then relative
 * to the window's start, `from` is negative (the message starts before the window), `facts` are
 * shifted with it, and `off` is where the window starts in the message. `undefined`: a read that
 * may matter falls before the window (the caller scans the whole message instead). Reads of the
 * whole message (`from` ≥ 0) never give `undefined`.
 */
function holdPoint(text: string, from: number, resume: number, tools: readonly OfferedTool[], facts: ScanFacts, structural: StructuralCheck | undefined, off: number): HoldScan | undefined {
  const tagBefore = facts.firstTagOpen >= 0 && facts.firstTagOpen < off;
  const held = structuralHold(text, from, rawHoldPoint(text, from, resume, tools, facts, off), structural, off, tagBefore);
  const scan = held === undefined ? undefined : cutPartialMarker(text, from, held, facts);
  if (scan === undefined) return undefined;
  const start = Math.max(from, scan.hold - 200);
  // Only a window with `}` or `]` can match (the end-anchored pattern would be tried at every position).
  if (facts.lastCloseValue < start) return scan;
  if (start < 0) return undefined;
  const sep = /[}\]]\s*([;,][\s;,]*)$/.exec(text.slice(start, scan.hold));
  return sep ? { hold: scan.hold - sep[1]!.length, resume: Math.min(scan.resume, scan.hold - sep[1]!.length) } : scan;
}

/** Records in `facts` where `delta`, appended at index `base`, holds markup and value closers. */
function noteDelta(facts: ScanFacts, delta: string, base: number): void {
  for (let k = delta.length - 1; k >= 0; k--) {
    const c = delta.charCodeAt(k);
    if (c === 0x5b || c === 0x3c || c === 0x3e) {
      // [ < >
      facts.lastMarkup = Math.max(facts.lastMarkup, base + k);
      if (c === 0x3c && facts.firstTagOpen === -1) facts.firstTagOpen = base + delta.indexOf("<");
      if (c === 0x5b) continue;
    }
    if (c === 0x7d || c === 0x5d) facts.lastCloseValue = Math.max(facts.lastCloseValue, base + k); // } ]
  }
}

function isReasoningMarkerStart(s: string): boolean {
  return REASONING_MARKERS.some((r) => r.toLowerCase().startsWith(s.toLowerCase()));
}

/** A wrapper marker cut by the hold point (`[/TOOL_RE`, `</fn_ca`) (`markers.ts` shapes). */
const PARTIAL_MARKER = /(?:\[\/?(?:[A-Z][A-Z0-9_]{0,40})?|<\/?(?:[A-Za-z_][\w.:-]{0,40}(?:\|[\w.:-]{0,40})?)?|<[|｜][^<>|｜\n]{0,60})$/;
/** A whole wrapper marker (`markers.ts` shapes), optionally with the header words a marker frames (`functions.x:0`, `to=functions.x`). */
const FRAME_BEFORE = /(<[|｜][^<>|｜\n]{1,60}[|｜]>|<\/?[|｜][^<>|｜\s]{1,20}[|｜][A-Za-z_][\w.:-]{0,40}>|<\|[A-Za-z_][\w.:-]{0,40}>|<\/?(?:[A-Za-z][\w.:-]{0,12}\|)?[A-Za-z_][\w.:-]{0,40}\|?>|\[\/?[A-Z][A-Z0-9_]{1,40}\]|>>>)(?:[ \t]*[\w.:=-]{1,80}){0,2}\s*$/;

/**
 * The hold point moved back over a marker still being written and over whole markers (with the
 * header words they frame) right before it: the structural stage removes the markers that frame a
 * call (`markers.ts`), so they are not shown until what follows them is decided.
 */
function cutPartialMarker(text: string, from: number, scan: HoldScan, facts: ScanFacts): HoldScan | undefined {
  let at = scan.hold;
  // Every alternative of both patterns starts with `[`, `<` or `>`: a window without them cannot
  // match (tested first: the end-anchored patterns are tried at every position).
  if (facts.lastMarkup < Math.max(from, at - 200)) return scan;
  // A windowed text (`from` < 0, see `holdPoint`): a read that starts before the window is not made.
  if (at - 64 < 0 && from < 0) return undefined;
  const partial = PARTIAL_MARKER.exec(text.slice(Math.max(from, at - 64), at));
  if (partial) at -= partial[0].length;
  for (let k = 0; k < 8 && at > from; k++) {
    if (at - 200 < 0 && from < 0) {
      if (facts.lastMarkup < at - 200) break;
      return undefined;
    }
    const m = FRAME_BEFORE.exec(text.slice(Math.max(from, at - 200), at));
    // Reasoning tags have their own rule (held from the opener to the closer).
    if (!m || m[0].length === 0 || isReasoningMarkerStart(m[1]!)) break;
    at -= m[0].length;
  }
  return at === scan.hold ? scan : { hold: at, resume: Math.min(scan.resume, at) };
}

/**
 * The structural pattern's check (`text[from, hold)` searched), with what an earlier check of the
 * same text found: no match in `text[from, checked)` (-1: not checked yet).
 */
interface StructuralCheck {
  pattern: RegExp;
  /** The offered tools' names are safe for {@link structuralRestart} (word characters, `.`, `:`, `-`). */
  incremental: boolean;
  checked: number;
}

/**
 * Where a match of the structural pattern can start that an earlier check of `text[from, end)`
 * without a match missed, the check now ending at `hold`: such a match reads up to `min(end, hold)`
 * (it ends at the end of the text through a `$`, or it needed text past `end`), so the characters
 * between its start and there are ones its alternatives span. Only two parts span a line break:
 * `call:\s*` (alternative 1) and `<name[^<>]*…=\s*"name"` (alternative 2, a tag: no `<`/`>` after
 * its `<`); every other part starts at the message's start or a line break, or holds no line break
 * (the names have none: `incremental`). The returned point is `from` or a line break: there a
 * slice's `^` matches only where `\n` would (every `^` is followed by `[ \t]*` and a non-space),
 * and no lookbehind (`[:：][ \t]*`) reads across a line break, so the slice finds the same matches.
 *
 * In a windowed text (`from` < 0, see `holdPoint`; `tagBefore`: the message holds a `<` before
 * the window) the result is negative when that point is before the window or cannot be told from it.
 */
function structuralRestart(text: string, from: number, upto: number, tagBefore: boolean): number {
  const windowed = from < 0;
  // Past a line's first runs, only a match that starts at most two runs back, or at a tag, can be new.
  const mid = midLineRestart(text, from, upto);
  let at = mid ?? text.lastIndexOf("\n", upto - 1);
  if (mid === undefined) {
    // The line holding `upto`, from its line break (a match starting at `\n` takes it).
    if (at < 0 && windowed) return -1;
    // `call:` and whitespace (line breaks included) before that line: the match starts before `call:`.
    let ws = at;
    while (ws > from && ws > 0 && /\s/.test(text[ws - 1]!)) ws--;
    if (windowed && ws < 5) return -1;
    if (ws - 5 >= from && text.startsWith("call:", ws - 5)) at = text.lastIndexOf("\n", ws - 6);
  }
  // A tag opened before and not closed by `upto` (no `<`/`>` after it).
  const lt = text.lastIndexOf("<", upto - 1);
  // Windowed, without a `<` in the window before `upto`: one before the window is closed by a `>` in it, or there is none.
  if (windowed && lt < 0 && tagBefore && !text.slice(0, upto).includes(">")) return -1;
  const open = lt >= 0 && lt >= from;
  const gt = open ? text.indexOf(">", lt) : 0;
  if (open && (gt === -1 || gt >= upto)) at = Math.min(at, mid === undefined ? text.lastIndexOf("\n", lt) : lt);
  return at < 0 && windowed ? -1 : Math.max(from, at);
}

/** How far back {@link midLineRestart} reads before it gives up (a line restart is used then). */
const RUNS_REACH = 1024;

/**
 * A restart inside the line of `upto` (`undefined`: none, restart at the line): the start of the
 * third-last run of non-space characters that starts before `upto`, when the line holds at least
 * five runs before `upto`. The parts of the structural pattern that start at a line start read
 * at most four runs from it (`call:` or `[`/`<`, a name, a word, `=`: the names hold no space),
 * so with a fifth run before `upto` none of them reads text past the last check. The parts that
 * start inside a line read at most two runs (`<channel|>` and `call:`; a `:` and a name, with the
 * lookbehind) or start at a tag (`<name … tool="x"`, which {@link structuralRestart} restarts at
 * when it is open). The restart is preceded by a space, so the search must not read it as a line
 * start or past its lookbehind: {@link structuralHold} puts a character before it that no part
 * reads. Reads back over five runs (at most {@link RUNS_REACH} characters), not the whole line.
 */
function midLineRestart(text: string, from: number, upto: number): number | undefined {
  const lo = Math.max(from, 0);
  let k = upto;
  let third = -1;
  for (let runs = 1; runs <= 5; runs++) {
    while (k > lo && text[k - 1] !== "\n" && SPACE.test(text[k - 1]!)) k--;
    if (k <= lo || text[k - 1] === "\n" || upto - k > RUNS_REACH) return undefined;
    while (k > lo && !SPACE.test(text[k - 1]!)) k--;
    if (runs === 3) third = k;
    if (runs < 5 && k <= lo) return undefined;
  }
  return third;
}

/** The structural pattern's hold (`text` may be a window starting at `off`: see `holdPoint`; `tagBefore` as for {@link structuralRestart}). */
function structuralHold(text: string, from: number, scan: HoldScan, check: StructuralCheck | undefined, off: number, tagBefore: boolean): HoldScan | undefined {
  if (!check) return scan;
  const checked = check.checked - off;
  const start = check.incremental && checked >= from ? structuralRestart(text, from, Math.min(checked, scan.hold), tagBefore) : from;
  // A windowed text: the search would start before the window.
  if (start < 0) return undefined;
  // A restart inside a line (see `midLineRestart`): a NUL before it stands for the text before, which no part of the pattern reads as a line start, a `:` or a blank.
  const inLine = start > from && text[start] !== "\n";
  const m = check.pattern.exec(inLine ? `\u0000${text.slice(start, scan.hold)}` : text.slice(start, scan.hold));
  if (!m) {
    check.checked = scan.hold + off;
    return scan;
  }
  const at = start - (inLine ? 1 : 0) + m.index + (m[0].startsWith("\n") ? 1 : 0);
  return { hold: at, resume: Math.min(scan.resume, at) };
}

/** The leads of a Harmony recipient header whose special tokens were stripped (`dialects/harmony-gptoss.ts`). */
const SOUP_RECIPIENT_LEADS = ["commentary to=functions.", "to=functions."];

/** `lead` is, or may still become, a Harmony recipient header without special tokens. */
function isSoupRecipientLead(lead: string): boolean {
  const squeezed = lead.replace(/^commentary\s+/, "commentary ");
  return SOUP_RECIPIENT_LEADS.some((p) => p.startsWith(squeezed) || squeezed.startsWith(p));
}

/**
 * `lead` is, or may still become, the rest of a Harmony header whose `<|start|>assistant` ended
 * the prompt: ` to=NAME<|message|>` or `<|message|>` alone (Glimmer; `dialects/harmony-gptoss.ts`).
 */
function isHeadlessLead(lead: string): boolean {
  const MESSAGE = "<|message|>";
  const atMessage = (rest: string): boolean => MESSAGE.startsWith(rest) || rest.startsWith(MESSAGE);
  if (/^to?$|^to\s+$/.test(lead)) return true;
  const to = /^to\s*=\s*[^\s<]*\s*/.exec(lead);
  return atMessage(to ? lead.slice(to[0].length) : lead);
}

/** Where the message's lead holds the text (constructs only the message's start can open), if it does. */
function leadHold(text: string, from: number, tools: readonly OfferedTool[]): number | undefined {
  const n = text.length;
  const leadAt = skipWs(text, from);
  const lead = text.slice(leadAt, leadAt + 80);
  // Harmony with stripped special tokens: `analysis…assistantfinal…`, a recipient header (`dialects/harmony-gptoss.ts`).
  if (lead !== "" && ("analysis".startsWith(lead) || lead.startsWith("analysis") || isSoupRecipientLead(lead) || isHeadlessLead(lead))) return leadAt;
  // Functionary v3.2 header line: a lone identifier that names a tool (or `all`).
  const header = /^([A-Za-z_][\w.-]*)(\n|$)/.exec(lead);
  if (header && leadAt + header[0].length <= n) {
    const name = header[1]!;
    const complete = header[2] === "\n";
    const known = name === "all" || tools.some((t) => t.name === name);
    const maybe = name.length <= 64 && ("all".startsWith(name) || tools.some((t) => t.name.startsWith(name)));
    if ((complete && known) || (!complete && leadAt + header[0].length === n && maybe)) return leadAt;
  }
  return undefined;
}

/** The text is held from `hold` (an undecided construct starts there). */
function rawHoldPoint(text: string, from: number, resume: number, tools: readonly OfferedTool[], facts: ScanFacts, off: number): HoldScan {
  const n = text.length;
  if (!facts.leadDecided) {
    const lead = leadHold(text, from, tools);
    if (lead !== undefined) return { hold: lead, resume: from };
    // A whole lead (one character after it has come) that opens nothing never will.
    facts.leadDecided = n > skipWs(text, from) + 80;
  }
  let i = Math.max(from, resume);
  while (i < n) {
    // Any other character is stepped over by `construct`: jump to the next one that may matter.
    SIGNIFICANT.lastIndex = i;
    if (SIGNIFICANT.exec(text) === null) break;
    i = SIGNIFICANT.lastIndex - 1;
    const r = construct(text, i, facts, off);
    if ("hold" in r) {
      // A construct held inside the last word (`read_f`, which may become `functools[`) holds the word too.
      const tail = tailHold(text, from, n);
      return tail < r.hold ? { hold: tail, resume: Math.min(i, tail), tail: true } : { hold: r.hold, resume: Math.min(i, r.hold) };
    }
    i = r.next;
  }
  return { hold: tailHold(text, from, n), resume: n, tail: true };
}

/**
 * Where the text's end is held: a last line that is one token could be the header of a marker
 * that follows (`functions.x:0 <|tool_call_argument_begin|>`); the last word could become `name(`.
 */
function tailHold(text: string, from: number, n: number): number {
  const tailStart = Math.max(from, n - 200);
  const line = loneTokenLine(text, tailStart, n);
  return n - (line > 0 ? line : tailWord(text, tailStart, n));
}

const BLANK = /[ \t]/;
const TOKEN_CHAR = /[\w.:-]/;

/**
 * The length of {@link LONE_TOKEN_LINE}'s group in `text[start, end)` (0 when it does not match):
 * the window's last line (from its last line break, or from `start`) when that line is one token.
 * The group holds no line break, so only that line can match.
 */
function loneTokenLine(text: string, start: number, end: number): number {
  // Read backwards over what the group allows (blanks, the token, blanks); any other character
  // before the line's start means no match.
  let k = end;
  while (k > start && BLANK.test(text[k - 1]!)) k--;
  const tokenEnd = k;
  while (k > start && TOKEN_CHAR.test(text[k - 1]!)) k--;
  if (k === tokenEnd || !WORD_START.test(text[k]!)) return 0;
  while (k > start && BLANK.test(text[k - 1]!)) k--;
  return k === start || text[k - 1] === "\n" ? end - k : 0;
}

const WORD_CHAR = /[A-Za-z0-9_]/;
const WORD_OR_DOT = /[A-Za-z0-9_.]/;
const WORD_START = /[A-Za-z_]/;
const SPACE = /\s/;

/**
 * The length of the match of `/[A-Za-z_](?:[\w.]*\w)?(?:\(\s*)?$/` in `text[start, end)` (0 when
 * none): a last word that could become `name(`, with a `(` and spaces after it. Read backwards
 * from the end; the regular expression would retry at every word start of the window.
 */
function tailWord(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && SPACE.test(text[e - 1]!)) e--;
  if (e > start && text[e - 1] === "(") e--;
  else if (e !== end) return 0;
  // The word ends at `e` with a word character.
  if (e <= start || !WORD_CHAR.test(text[e - 1]!)) return 0;
  let r = e;
  while (r > start && WORD_OR_DOT.test(text[r - 1]!)) r--;
  // The leftmost start: the first letter or `_` of the run.
  for (let s = r; s < e; s++) if (WORD_START.test(text[s]!)) return end - s;
  return 0;
}

/** A line holding one identifier-like token (a call header such as `functions.search_code:0`). */
const LONE_TOKEN_LINE = /(?:^|\n)([ \t]*[A-Za-z_][\w.:-]*[ \t]*)$/;

/** Where the markup starting at `i` starts: a lone header token before it on its line belongs to it. */
function headerStart(text: string, i: number): number {
  const line = LONE_TOKEN_LINE.exec(text.slice(Math.max(0, i - 200), i));
  return line ? i - line[1]!.length : i;
}

/**
 * Text that cannot start or change any construct: no markup characters, no marker words, and
 * backticks only as whole inline code spans (prose about code is full of them).
 */
const PLAIN = /^[^<>[\]{}~|｜◁▷]*$/;
const WORD_MARKERS = /Tool result|Tool error|Observation:|Action:|Tool:|Function:|Using tool:|functools|```/;

function isPlain(region: string): boolean {
  return PLAIN.test(region) && !WORD_MARKERS.test(region) && (region.match(/`/g) ?? []).length % 2 === 0;
}

/**
 * Whether the whole message `text` is plain prose that the end-of-turn recovery
 * (`recoverDeterministic`) reads as text only: {@link isPlain} (no markup characters, so no
 * reasoning tag, special token, dialect marker, stray marker, JSON value or fence; no marker
 * words), no lead or channel words that a header dialect could read ({@link HEADER_LEAD},
 * {@link CHANNEL_WORDS}), and no text the structural stage could read (`structural`, the offered
 * tools' names opening a line). For such a message the recovery's result is {@link plainResult}:
 * test/toolshim/stream-filter-plain.test.ts checks that over every corpus case, random chunkings
 * and generated prose (a dialect that reads plain words needs its words excluded here).
 */
function plainMessage(text: string, structural: RegExp | undefined): boolean {
  return isPlain(text) && !HEADER_LEAD.test(text) && !CHANNEL_WORDS.test(text) && !(structural?.test(text) ?? false);
}

/**
 * A message lead that the recovery may read as a header, whatever the offered tools: a first line
 * that is one token (Functionary v3.2 `python`/`all`/a tool name, which the recovery refuses when
 * not offered) or a Harmony channel word (`analysis`, `commentary`, `final`; special tokens
 * stripped). Broader than `leadHold`, which holds only leads that can become a call of an offered tool.
 */
const HEADER_LEAD = /^\s*(?:[A-Za-z_][\w.:-]*[ \t]*(?:\n|$)|analysis|commentary|final)/i;

/**
 * Harmony's channel words and recipients with the special tokens stripped (`dialects/harmony-gptoss.ts`
 * "soup": `…assistantfinal…`, `commentary to=functions.x json{…}`): the recovery removes the words.
 */
const CHANNEL_WORDS = /to=|assistant(?:analysis|commentary|final)/i;

/** {@link plainMessage} with the structural pattern of `tools` (for tests of the end-of-turn fast path). */
export function isPlainMessage(text: string, tools: readonly OfferedTool[]): boolean {
  return plainMessage(text, structuralPattern(tools));
}

/** What `recoverDeterministic` returns for a message of plain prose ({@link plainMessage}): no calls, the text tidied (`residue.ts` `tidy`, as `cleanContent` with nothing to remove). */
function plainResult(text: string): RecoverResult {
  return { tool_calls: [], content: tidy(text), recovered_by: "none", rejected: [], diagnostics: [] };
}

/** A reasoning closer, then blanks, at the end of the text (`</think><response>` opens the answer like a line start). */
const AFTER_CLOSER = new RegExp(`(?:${CLOSERS.source})[ \\t]*$`, "i");

function lineStart(text: string, i: number): boolean {
  const before = text.slice(Math.max(0, i - 20), i);
  return i === 0 || /(^|\n)[ \t]*$/.test(before) || AFTER_CLOSER.test(before);
}

/**
 * Classify the text at `i`: hold from a position, or continue at `next`. The fenced blocks of
 * `facts` (in the message's indices, `text` starting at `off` in it) tell a fence line's part.
 */
function construct(text: string, i: number, facts: Pick<ScanFacts, "fences" | "pairs">, off = 0): Scan {
  const c = text[i]!;
  const n = text.length;

  if (MARKER_STARTS.has(c)) {
    for (const [open, close] of OPENERS) {
      open.lastIndex = i;
      const m = open.exec(text);
      if (m) {
        close.lastIndex = i + m[0].length;
        const cm = close.exec(text);
        return cm ? { next: cm.index + cm[0].length } : { hold: i };
      }
    }
    // A closer within the next 80 characters that starts here.
    CLOSER_AT.lastIndex = 0;
    const closer = CLOSER_AT.exec(text.slice(i, i + 80));
    if (closer) return { next: i + closer[0].length };
    // A marker here starts with `c` (one that the text's end cuts short too).
    for (const mk of MARKERS_BY_START.get(c) ?? []) {
      if (text.startsWith(mk, i) || (n - i < mk.length && mk.startsWith(text.slice(i)))) return { hold: headerStart(text, i) };
    }
    // A wrapper opener the recovery removes as stray, or keeps, by what follows it up to the end
    // of the text (`residue.ts` strayOpenerAt): a vendor-namespaced one is no marker above.
    if (c === "<" && strayOpenerAt(text, i)) return { hold: headerStart(text, i) };
    for (const lit of REASONING_MARKERS) {
      if (n - i < lit.length && lit.toLowerCase().startsWith(text.slice(i).toLowerCase())) return { hold: i };
    }
  }
  let r: Scan;
  if (c === "<") r = tag(text, i);
  else if (c === "{") r = jsonish(text, i, i);
  else if (c === "[") r = bracket(text, i);
  else if ((c === "`" || c === "~") && lineStart(text, i)) r = fenceLine(text, i, facts, off);
  else return { next: i + 1 };
  // A construct decided as a whole that holds a call marker is held from its start like the
  // marker: the recovery may read from the marker on past the construct's end (a call fence
  // holding `functools[` or `<|tool_call_begin|>` is read with everything after it).
  return "next" in r && r.next > i + 1 && holdsMarker(text, i + 1, r.next) ? { hold: i } : r;
}

/** Any of {@link MARKERS}. */
const ANY_MARKER = new RegExp(MARKERS.map(escapeRegExp).join("|"));

/**
 * Whether a call marker or a reasoning tag starts in `text[a, b)` (the scan holds a marker it
 * meets to the end of the message; the recovery reads a reasoning opener inside a fence as the
 * start of reasoning that runs to its closer, or to the end).
 */
function holdsMarker(text: string, a: number, b: number): boolean {
  // The slice reaches as far past `b` as the longest marker: a marker starting before `b` matches whole.
  const slice = text.slice(a, b + MARKERS[0]!.length - 1);
  const limit = b - a;
  return (ANY_MARKER.exec(slice)?.index ?? limit) < limit || (REASONING_HINT.exec(slice)?.index ?? limit) < limit;
}

function startWithCallSyntax(text: string, i: number): number {
  const m = /([A-Za-z_][\w.]{0,80})\(\s*$/.exec(text.slice(Math.max(0, i - 100), i));
  return m ? Math.max(0, i - 100) + m.index : i;
}

/** `{` at `i`: JSON-looking objects are held until they close. */
function jsonish(text: string, i: number, holdAt: number): Scan {
  // SentencePiece markers stand for spaces between tokens (`word-markers.ts`).
  const j = skipSpaceOrMarkers(text, i + 1);
  if (j >= text.length) return { hold: startWithCallSyntax(text, holdAt) };
  const d = text[j]!;
  let looksJson = d === '"' || d === "'" || d === "}";
  if (!looksJson && /[A-Za-z_$]/.test(d)) {
    let k = j;
    while (k < text.length && /[\w$]/.test(text[k]!)) k++;
    while (k < text.length && /[ \t▁]/.test(text[k]!)) k++;
    if (k >= text.length) return { hold: startWithCallSyntax(text, holdAt) };
    looksJson = text[k] === ":";
  }
  if (!looksJson) return { next: i + 1 };
  const m = matchBalanced(text, i);
  if (m.ok) {
    // `name({…}` waits for its `)`.
    const callStart = startWithCallSyntax(text, holdAt);
    if (callStart < holdAt && /^\s*$/.test(text.slice(m.end))) return { hold: callStart };
    return { next: m.end };
  }
  if (m.reason === "eof") return { hold: startWithCallSyntax(text, holdAt) };
  return { next: i + 1 };
}

/** `[` at `i`: a JSON array of objects or a pythonic call list is held until it closes. */
function bracket(text: string, i: number): Scan {
  const j = skipSpaceOrMarkers(text, i + 1);
  if (j >= text.length) return { hold: i };
  const d = text[j]!;
  let callish = d === "{" || d === "[";
  if (!callish && /[A-Za-z_]/.test(d)) {
    let k = j;
    while (k < text.length && /[\w.]/.test(text[k]!)) k++;
    if (k >= text.length) return { hold: i };
    callish = text[k] === "(";
  }
  if (!callish) return { next: i + 1 };
  const m = matchBalanced(text, i);
  if (m.ok) return { next: m.end };
  if (m.reason === "eof") return { hold: i };
  return { next: i + 1 };
}

/** `<` at `i` that is not a marker: a tag wrapping JSON is held until its closing tag. */
function tag(text: string, i: number): Scan {
  const rest = text.slice(i, i + 200);
  if (!rest.includes(">")) {
    const atTail = rest.length < 200 && !rest.includes("\n");
    return atTail && /^<\/?(?:[A-Za-z][\w:.=-]*(?:\|[\w:.=-]*)?(?:\s[^<>]*)?)?$/.test(rest) ? { hold: i } : { next: i + 1 };
  }
  // A tag name may carry a vendor namespace before a bar (`<ifm|tool_call>`, `<k2|tool_calls>`), as
  // `residue.ts` reads the tag it removes right before a removed call.
  const close = /^<\/(?:[A-Za-z][\w:.-]{0,12}\|)?[A-Za-z][\w:.-]*\s*>/.exec(rest);
  if (close) return { next: i + close[0].length };
  const open = /^<((?:[A-Za-z][\w:.-]{0,12}\|)?[A-Za-z][\w:.-]*)(?:=[^\s>]*)?(?:\s[^<>]*)?(\/?)>/.exec(rest);
  if (!open) return { next: i + 1 };
  const end = i + open[0].length;
  if (open[2] === "/") return { next: end };
  if (lineStart(text, i)) {
    // A tag that opens a line may wrap a whole answer with calls (Hunyuan `<answer>`): it is
    // decided once its closing tag has arrived.
    const ct = new RegExp(`</${escapeRegExp(open[1]!)}\\s*>`, "g");
    ct.lastIndex = end;
    const cm = ct.exec(text);
    return cm ? { next: cm.index + cm[0].length } : { hold: i };
  }
  const j = skipWs(text, end);
  if (j >= text.length) return { hold: i };
  if (text[j] !== "{" && text[j] !== "[") return { next: end };
  const m = matchBalanced(text, j);
  if (!m.ok) return m.reason === "eof" ? { hold: i } : { next: end };
  const k = skipWs(text, m.end);
  const after = text.slice(k, k + 100);
  if (after === "" || /^<\/?[\w:.-]*$/.test(after)) return { hold: i };
  const ct = new RegExp(`^</${escapeRegExp(open[1]!)}\\s*>`).exec(after);
  return { next: ct ? k + ct[0].length : m.end };
}

/**
 * A fence line at `i` (backticks or tildes opening a line). Backtick fences are paired as the
 * dialects pair them (`dialects/fence.ts` `FencePairing`, the rule of `findFences`): a fence that
 * may hold calls is decided as a whole once its closing run of backticks is whole (the line it
 * opens, too: the run may open a Markdown fence, whose info string comes after it), and the scan
 * goes on right after that run, where the pairing reads the next opening line. A line that the
 * pairing does not read as an opener (a closing line, a tilde fence, an opener with words after
 * its info) is read as `residue.ts` `findCodeRegions` reads fences ({@link fence}), but the scan
 * never steps over a line that the pairing reads as an opener.
 */
function fenceLine(text: string, i: number, facts: Pick<ScanFacts, "fences" | "pairs">, off: number): Scan {
  const pairs = facts.pairs;
  const paired = text[i] === "`" ? pairs?.openedAt(i + off) : undefined;
  if (paired === "pending") return { hold: i };
  if (paired !== undefined) {
    if (!isCallFence(paired.lang)) return { next: paired.bodyStart - off };
    return callFenceDecided(text, paired, off) ? { next: paired.end - off } : { hold: i };
  }
  // A fenced block's closing line opens nothing (it would read as a ``` fence that may hold calls).
  if (closesQuotedCode(i + off, facts)) return { next: closingLineEnd(text, i) };
  const r = fence(text, i);
  const opener = "next" in r && pairs !== undefined ? pairs.firstOpenedIn(i + off + 1, r.next + off) : undefined;
  return opener === undefined ? r : { next: opener.start - off };
}

/**
 * The call fence `f` is decided: its closing run of backticks is whole and, when the run opens its
 * line, that line has ended (with an info string after it, the run opens a Markdown fence).
 */
function callFenceDecided(text: string, f: PairedFence, off: number): boolean {
  if (!f.closed || !f.final) return false;
  let k = f.bodyEnd - off;
  while (k > 0 && (text[k - 1] === " " || text[k - 1] === "\t")) k--;
  return !(k === 0 || text[k - 1] === "\n") || text.indexOf("\n", f.end - off) >= 0;
}

/**
 * Whether the fence characters at `at` (in the message's indices) are the whole closing line of a
 * fenced block of quoted code that every reader of the recovery closes there: `residue.ts`
 * `findCodeRegions` (a line of fence characters) and `dialects/fence.ts` `findFences` (the first
 * run of as many backticks), for a block that the latter reads with a label of a program's
 * language (a label that may hold calls is held with its fence). Only then is the line read by
 * none of them as an opener.
 */
function closesQuotedCode(at: number, facts: Pick<ScanFacts, "fences" | "pairs">): boolean {
  const f = facts.fences?.closedAt(at);
  if (f === undefined) return false;
  const paired = facts.pairs?.firstOpenedIn(f.start, f.start + 1);
  return paired !== undefined && paired.closed && paired.bodyEnd === at && !isCallFence(paired.lang);
}

/** The end of the closing fence line at `i` (after its line break). */
function closingLineEnd(text: string, i: number): number {
  const nl = text.indexOf("\n", i);
  return nl < 0 ? text.length : nl + 1;
}

/** A fence at a line start: fences that may hold calls are held until they close. */
function fence(text: string, i: number): Scan {
  const rest = text.slice(i);
  const open = /^(`{3,}|~{3,})([^\n]*)\n/.exec(rest);
  if (!open) {
    if (/^(`{1,}|~{1,})[^\n]*$/.test(rest)) return { hold: i };
    return { next: i + 1 };
  }
  const info = open[2]!.trim().toLowerCase();
  const bodyStart = i + open[0].length;
  if (!isCallFence(info)) return { next: bodyStart };
  const marker = open[1]!;
  const close = new RegExp(`(^|\\n)[ \\t]*${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*(?=\\n|$)`, "g");
  close.lastIndex = bodyStart - 1;
  const m = close.exec(text);
  if (!m) return { hold: i };
  const end = m.index + m[0].length;
  // The closing fence is only certain once its line has ended.
  return end >= text.length ? { hold: i } : { next: end };
}

/** How far back from the hold point the stretch of {@link StreamFilter#plainInParagraph} may start: it is recovered on every push that adds markup. */
const PARAGRAPH_REACH = 2048;

/**
 * The start of every reasoning opener and closer (`reasoning.ts` REASONING_MARKERS; a tag's `>`
 * left out, since attributes may come before it), case-insensitively.
 */
const REASONING_HINT = new RegExp(
  REASONING_MARKERS.map((m) => escapeRegExp(/^<\/?[a-z]/i.test(m) && m.endsWith(">") ? m.slice(0, -1) : m)).join("|"),
  "i",
);
/** Every call marker of the filter and the dialects but code fences (which {@link ParagraphMarks} follows). */
const CALL_MARKERS = [...new Set([...OWN_MARKERS, ...DIALECTS.flatMap((d) => d.markers)])].filter((m) => !m.startsWith("```"));
/** Any of {@link CALL_MARKERS}. */
const CALL_MARKER_HINT = new RegExp(CALL_MARKERS.map(escapeRegExp).join("|"));
/** The longest reasoning tag or call marker, less one: how much of the text before a piece a marker cut by the piece may hold. */
const MARKUP_HINT_REACH = Math.max(...[...REASONING_MARKERS, ...CALL_MARKERS].map((m) => m.length)) - 1;

/** Shortest slice that V8 makes a view of its parent string (`SlicedString::kMinLength`, V8 `src/objects/string.h`); shorter slices are copies. */
const SLICE_MIN = 13;

/**
 * `s` as a string that holds only its own characters. A slice of 13 or more characters shares
 * the characters of the string it was cut from (V8's `SlicedString`, `src/objects/string.h`), so
 * a piece of the scan text kept in the shown text keeps that whole text alive: each push scans a
 * new flattened copy of the window (512–1024 characters), and the piece it adds to the shown text
 * kept that copy until the message ended (about 730 bytes per delta of 40 characters, all of it
 * copied twice by the young-generation collector under `codecite serve`'s load). The copy here is
 * the piece and one character: the join is flattened by the slice, which then views the join only.
 */
function detached(s: string): string {
  return s.length < SLICE_MIN ? s : `\u0000${s}`.slice(1);
}

/** How far before its resume point a scan may read (see `StreamFilter#window`): 200 for a construct's lead, 200 more for the patterns before the hold point. */
const SCAN_REACH = 400;
/** The scan window's length after trimming, and the length at which it is trimmed. */
const WINDOW_KEEP = 512;
const WINDOW_MAX = 1024;

/**
 * Filters one streamed assistant message.
 *
 * Use: `push(delta)` for every content delta and print what it returns; `end()` once at the end
 * and print what it returns. The printed text equals `recoverDeterministic(turn).content` of the
 * whole message (compare with whitespace collapsed), markup and reasoning excluded.
 */
export class StreamFilter {
  #buffer = "";
  /**
   * The end of `#buffer` (its last WINDOW_KEEP to WINDOW_MAX characters): scanned instead of the
   * whole buffer when every read of the scan falls inside it (see `#window`). Reading a string
   * built by appending flattens it, which copies it whole: without the window, every push copied
   * the whole message.
   */
  #recent = "";
  #emitted = "";
  #result: RecoverResult | undefined;
  #lastHold = -1;
  #resume = 0;
  /** The visible text of `buffer[0, lastHold)` (tidied: no trailing whitespace). */
  #target: string | undefined;
  /** Raw index up to which `#target` accounts for the buffer (its trailing whitespace excluded). */
  #rawEnd = 0;
  /** What was shown covers `#target` exactly (the last `#advance` showed all of it). */
  #inSync = false;
  readonly #tools: readonly OfferedTool[];
  readonly #prefilled: boolean;
  readonly #validate: ArgumentValidator | undefined;
  readonly #structural: RegExp | undefined;
  /** The structural pattern's check, with how far it found nothing (see {@link structuralHold}). */
  readonly #structuralCheck: StructuralCheck | undefined;
  /** Paragraph starts outside code (see {@link StreamFilter#plainInParagraph}) and fenced blocks. */
  readonly #paragraphs = new ParagraphMarks();
  /** The message's fences as the dialects pair them (see {@link fenceLine}). */
  readonly #pairs = new FencePairing();
  readonly #facts: ScanFacts = { leadDecided: false, lastMarkup: -1, lastCloseValue: -1, firstTagOpen: -1, fences: this.#paragraphs, pairs: this.#pairs };
  /** The `from` that `#facts.leadDecided` was found for. */
  #leadFrom = 0;
  /**
   * A reasoning tag or a call marker was seen in the text (see {@link StreamFilter#plainInParagraph}):
   * reasoning makes the answer's code regions differ from the text's, and the recovery may read
   * from a marker the scan stepped over (one inside a code fence it decided) across paragraphs.
   */
  #markupSeen = false;
  /** The end of the text before the last piece, where a tag or marker cut by the piece's start begins. */
  #probe = "";
  /** `#target` is a recovery's output (not extended by prose since): see {@link StreamFilter#gluedToRecovered}. */
  #recoveredEnd = false;
  /** The first half of a surrogate pair that ended the last piece, not yet returned (see `push`). */
  #heldHalf = "";
  /**
   * A recovery of the decided text found a call (or refused one): nothing more is shown before
   * {@link StreamFilter#end}, which shows the whole recovery's text after what was shown. What
   * follows a call can change how the recovery reads it: a call marker later in the message makes
   * the dialect stage find calls, which turns the inline-JSON and structural stages off, so a
   * `{"name": …}` the filter hid is text in the whole message; a later backtick can put an
   * earlier call inside an inline code span (CommonMark pairs backtick strings left to right, so a
   * later run can close an earlier unmatched one). The text before the call was decided without
   * it and stays a prefix of the whole recovery's text either way.
   */
  #callFound = false;
  /** The last fence opener that the hold point moved back to, and where the markers before it start (see `#cutMarkersBefore`). */
  #openerCut: { at: number; from: number; cut: number } | undefined;

  /**
   * @param tools the offered tools (names decide whether inline JSON is a call).
   * @param opts see {@link StreamFilterOptions}.
   */
  constructor(tools: readonly OfferedTool[] = [], opts: StreamFilterOptions = {}) {
    this.#tools = tools;
    this.#prefilled = opts.prefilledReasoning === true;
    this.#validate = opts.validate;
    this.#structural = structuralPattern(tools);
    this.#structuralCheck =
      this.#structural === undefined ? undefined : { pattern: this.#structural, incremental: tools.every((t) => /^[\w.:-]+$/.test(t.name)), checked: -1 };
  }

  /** The raw text received so far. */
  get text(): string {
    return this.#buffer;
  }

  /**
   * Add a streamed delta; returns the newly visible text (possibly `""`). A piece never ends with
   * the first half of a surrogate pair (a delta cut inside an emoji): that half waits for the next
   * piece, since a client that decodes each piece's JSON on its own would turn a lone half into
   * U+FFFD (Go's `encoding/json`) or an unprintable code point (Python).
   */
  push(delta: string): string {
    return this.#release(this.#push(delta));
  }

  /** Returns `piece` after the surrogate half held back from the previous piece, holding back its own trailing half. */
  #release(piece: string, last = false): string {
    let out = this.#heldHalf === "" ? piece : this.#heldHalf + piece;
    this.#heldHalf = "";
    if (!last && out.length > 0 && isHighSurrogate(out.charCodeAt(out.length - 1))) {
      this.#heldHalf = out.slice(-1);
      out = out.slice(0, -1);
    }
    return out;
  }

  #push(delta: string): string {
    if (this.#result !== undefined) throw new Error("StreamFilter.push after end()");
    const base = this.#buffer.length;
    this.#buffer += delta;
    // After a call, the rest of the message is decided at its end (see `#callFound`).
    if (this.#callFound) return "";
    this.#recent += delta;
    const facts = this.#facts;
    noteDelta(facts, delta, base);
    this.#paragraphs.note(delta, base);
    this.#pairs.note(delta, base);
    if (!this.#markupSeen) {
      const probe = this.#probe + delta;
      this.#markupSeen = REASONING_HINT.test(probe) || CALL_MARKER_HINT.test(probe);
      this.#probe = probe.slice(-MARKUP_HINT_REACH);
    }
    let from = 0;
    if (this.#prefilled) {
      const closer = CLOSERS.exec(this.#buffer);
      if (!closer) return "";
      from = closer.index + closer[0].length;
    }
    if (from !== this.#leadFrom) {
      facts.leadDecided = false;
      this.#leadFrom = from;
      if (this.#structuralCheck) this.#structuralCheck.checked = -1;
    }
    let off = this.#window();
    let text = off === 0 ? this.#buffer : this.#recent;
    let scan =
      off === 0
        ? undefined
        : holdPoint(text, from - off, this.#resume - off, this.#tools, { leadDecided: true, lastMarkup: facts.lastMarkup - off, lastCloseValue: facts.lastCloseValue - off, firstTagOpen: facts.firstTagOpen, fences: this.#paragraphs, pairs: this.#pairs }, this.#structuralCheck, off);
    if (scan === undefined) {
      // A read of the windowed scan fell before the window: scan the whole message (which never fails).
      off = 0;
      text = this.#buffer;
      scan = holdPoint(text, from, this.#resume, this.#tools, facts, this.#structuralCheck, 0)!;
    }
    if (this.#recent.length > WINDOW_MAX) this.#recent = this.#recent.slice(-WINDOW_KEEP);
    this.#resume = scan.resume + off;
    // Markup held inside a fenced block holds the fence from its opening line: the recovery removes
    // the fence with it when the markup is a call (a fence's body is read as a whole, or the block
    // emptied of markup goes). The text's last word in a fence is code being written, unless it
    // is all the body has so far (markup may follow it). Once the text shown runs past the
    // fence's opener, moving back gains nothing (the opener stays shown) and would make each later
    // push recover the whole message (the text from the hold point is no longer plain prose): the
    // hold then stays where it was until the raw hold point passes it.
    // Read in the scanned text (the window when `off` > 0): a read of `#buffer`, a string built by
    // appending, would flatten it, copying the whole message on every push. A run that reaches the
    // window's start is read in the whole message (a rare case).
    let raw = backtickRunStart(text, scan.hold) + off;
    if (raw === off && off > 0 && text.charCodeAt(0) === 0x60) raw = backtickRunStart(this.#buffer, scan.hold + off);
    const inFence = this.#paragraphs.fenceStart(raw, scan.tail === true);
    // Whole markers right before the fence's opener are held with it, as before any hold point.
    const moved = inFence < raw && inFence >= this.#lastHold ? this.#cutMarkersBefore(text, off, from, inFence) : inFence;
    const hold = moved < raw && moved < this.#lastHold ? Math.min(raw, this.#lastHold) : moved;
    // The visible text depends only on the text before the hold point, which only grows.
    if (hold === this.#lastHold) return "";
    if (hold <= from && this.#emitted === "") {
      this.#lastHold = hold;
      return "";
    }
    if (this.#target === undefined && this.#lastHold < from && !this.#prefilled) {
      // The first decided text: plain prose from the message's start is decided as it is, like
      // plain prose after decided text (the constructs that only the message's start can open
      // — a Harmony `analysis` lead, a lone header line — are held by the hold point).
      this.#target = "";
      this.#rawEnd = from;
      this.#lastHold = from;
    }
    // `text` from `off` holds both slices when the scan was windowed (`#window` checked that `#lastHold` and `#rawEnd` are in it).
    const region = this.#lastHold >= from && hold > this.#lastHold ? text.slice(this.#lastHold - off, hold - off) : undefined;
    const decidedBefore = Math.max(from, this.#lastHold);
    this.#lastHold = hold;
    if (region !== undefined && this.#target !== undefined && !this.#gluedToRecovered(text, off) && (isPlain(region) || this.#plainInParagraph(text, off, hold))) {
      // Plain prose after decided text extends the visible text as it is (no full recovery).
      const piece = text.slice(this.#rawEnd - off, hold - off).trimEnd();
      const added = detached(this.#target === "" ? piece.trimStart() : piece);
      this.#target += added;
      this.#rawEnd += piece.length;
      if (this.#inSync) {
        // What was shown equals the previous target, so what the target adds is what is new:
        // no comparison of the whole shown text per delta (that would be quadratic in the message).
        this.#emitted += added;
        this.#recoveredEnd = false;
        return added;
      }
      this.#recoveredEnd = false;
    } else {
      const r = recoverDeterministic({ content: this.#buffer.slice(0, hold) }, this.#tools);
      if (r.tool_calls.length > 0 || r.rejected.length > 0) {
        // The decided text holds a call: what was shown stays, the rest waits for the end.
        this.#callFound = true;
        return this.#beforeCall(decidedBefore, hold);
      }
      this.#target = r.content;
      this.#rawEnd = this.#buffer.slice(0, hold).trimEnd().length;
      this.#recoveredEnd = true;
    }
    return this.#advance(this.#target);
  }

  /**
   * `at` (a hold point moved back to a fence's opener) moved back over the whole markers right
   * before it ({@link cutPartialMarker}): read in the scanned text `text` (starting at `off`) when
   * the read stays in it, else in the whole message.
   */
  #cutMarkersBefore(text: string, off: number, from: number, at: number): number {
    // The same opener on every push while the hold stays in its fence: read once.
    if (this.#openerCut?.at === at && this.#openerCut.from === from) return this.#openerCut.cut;
    const cut = this.#cutMarkersAt(text, off, from, at);
    this.#openerCut = { at, from, cut };
    return cut;
  }

  #cutMarkersAt(text: string, off: number, from: number, at: number): number {
    const facts = this.#facts;
    if (off > 0 && at - off >= SCAN_REACH) {
      const cut = cutPartialMarker(text, from - off, { hold: at - off, resume: at - off }, { ...facts, lastMarkup: facts.lastMarkup - off, lastCloseValue: facts.lastCloseValue - off });
      if (cut !== undefined) return cut.hold + off;
    }
    return cutPartialMarker(this.#buffer, from, { hold: at, resume: at }, facts)!.hold;
  }

  /**
   * The text decided in this push (`buffer[start, hold)`) holds a call: what it adds before its
   * first construct (a call starts at one, or at the word before it: `name(`, `name{`) is shown,
   * when the recovery of the text up to there finds no call.
   */
  #beforeCall(start: number, hold: number): string {
    SIGNIFICANT.lastIndex = start;
    const first = SIGNIFICANT.exec(this.#buffer)?.index ?? hold;
    let at = Math.min(first, hold);
    while (at > start && !WS.test(this.#buffer[at - 1]!)) at--;
    if (at <= start || this.#target === undefined) return "";
    const r = recoverDeterministic({ content: this.#buffer.slice(0, at) }, this.#tools);
    if (r.tool_calls.length > 0 || r.rejected.length > 0) return "";
    this.#target = r.content;
    return this.#advance(r.content);
  }

  /**
   * Whether the new text starts right at the end of a recovered target without whitespace
   * between, and the recovery may have removed markup that ends there (`done.<think>…</think>Next`,
   * `m{"name": …}S`): text glued to a removed span gets a space in its place (`residue.ts`
   * `removeSpans`), which the recovery of the text up to the span's end cannot show (the span
   * ended the text). Such text is recovered with what comes before it. The recovery removed
   * nothing at the end when the target ends with the text's last {@link GLUE_TAIL} characters
   * (whitespace runs compared as equal): the removed span's text would have to repeat right
   * before it for that to hold too.
   */
  #gluedToRecovered(text: string, off: number): boolean {
    if (!this.#recoveredEnd || this.#target === undefined || this.#target === "" || WS.test(text[this.#rawEnd - off] ?? " ")) return false;
    const start = this.#rawEnd - GLUE_TAIL;
    const tail = start >= off ? text.slice(start - off, this.#rawEnd - off) : this.#buffer.slice(Math.max(0, start), this.#rawEnd);
    return !squeezeWs(this.#target.slice(-2 * GLUE_TAIL)).endsWith(squeezeWs(tail).trimStart());
  }

  /**
   * Whether the recovery leaves the text from the last paragraph start to `hold` as it is, judged
   * on that stretch alone: then the text added since `#rawEnd` extends the visible text as plain
   * prose does, without a recovery of the whole message (which made every markdown link, `a[i]`
   * or JSON snippet in prose cost time that grew with the answer). The stretch starts at a
   * {@link ParagraphMarks} point at or before `#rawEnd` (so it holds all the new text), at most
   * {@link PARAGRAPH_REACH} characters back. Why the stretch alone decides: it starts at a line
   * start outside every code region, and it holds every construct still undecided (they start at
   * or after the hold point before this push); what the text before it can add is context that
   * makes the recovery read less (an example introduced, a call found before, which turns the
   * inline-JSON and structural stages off), except call markers, which the scan holds to the end
   * of the message but may have stepped over inside a construct it decided (a call fence holding
   * `<tool_call>`, from which a dialect reads on past the fence), and reasoning blocks, which move
   * the code regions (they are not part of the answer): after a call marker or a reasoning tag,
   * and with prefilled reasoning, this is never used. The stretch read from its start may look like a message's start (a header
   * line, a Harmony lead): that makes the recovery read more, and the whole recovery runs.
   */
  #plainInParagraph(text: string, off: number, hold: number): boolean {
    if (this.#prefilled || this.#markupSeen) return false;
    const at = this.#paragraphs.latest(this.#rawEnd);
    if (at <= 0 || hold - at > PARAGRAPH_REACH) return false;
    const stretch = at >= off ? text.slice(at - off, hold - off) : this.#buffer.slice(at, hold);
    const r = recoverDeterministic({ content: stretch }, this.#tools);
    return r.tool_calls.length === 0 && r.rejected.length === 0 && r.thinking === undefined && r.content === tidy(stretch);
  }

  /**
   * Where `#recent` starts in the buffer when this push's scan may read it instead of the whole
   * buffer; 0 when it may not (or it is the whole buffer). The scan starts at `#resume` and reads
   * at most SCAN_REACH characters before it (a header token or a call name before a construct:
   * 200; the hold point is then at most 200 before it); the lead is decided; no prefilled
   * reasoning (the closer is looked for in the whole buffer); and the slices of `push` (from
   * `#lastHold` and `#rawEnd`) are in it. The reads that may reach further back (the end-anchored
   * marker and separator patterns, 200 before the hold point and more over consecutive markers;
   * the structural pattern's restart, the line of its last check) are checked against the
   * window's start by `holdPoint`, which gives up when one falls before it and may matter: the
   * push is then scanned over the whole buffer. The hold point is the same as over the whole
   * buffer. (Before, a `[`, `<`, `>`, `}` or `]` in the window or any offered tool turned the
   * window off: a markdown link every few words, or an agent's tools, made every push copy the
   * whole message.)
   */
  #window(): number {
    const off = this.#buffer.length - this.#recent.length;
    if (off === 0 || this.#prefilled || !this.#facts.leadDecided) return 0;
    return this.#resume < off + SCAN_REACH || this.#lastHold < off || this.#rawEnd < off ? 0 : off;
  }

  /**
   * End of the message: returns the rest of the visible text. A message of plain prose
   * ({@link plainMessage}) skips the full recovery (its result is known: {@link plainResult});
   * under `codecite serve` that recovery ran for every streamed answer at its end.
   *
   * @param finishReason why the upstream stopped, when it said (`AssistantTurn.finish_reason`):
   *   `length` makes a call left open at the end of the text a cut one (not run).
   */
  end(finishReason?: "stop" | "length"): string {
    const text = this.#buffer;
    const turn = finishReason === undefined ? { content: text } : { content: text, finish_reason: finishReason };
    this.#result ??=
      !this.#prefilled && plainMessage(text, this.#structural)
        ? plainResult(text)
        : recoverDeterministic(turn, this.#tools, { validate: this.#validate });
    return this.#release(this.#advance(this.#result.content), true);
  }

  /** The deterministic recovery of the whole message without native calls (available after {@link end}). */
  get result(): RecoverResult | undefined {
    return this.#result;
  }

  /**
   * Show what `target` adds to what was shown. Whitespace runs count as equal (the pipeline
   * tidies whitespace at span junctions and at the end); anything else must continue what was
   * shown.
   */
  #advance(target: string): string {
    const covered = coveredPrefix(this.#emitted, target);
    if (covered !== undefined) {
      const delta = target.slice(covered.at);
      this.#emitted += delta;
      // Shown text longer than the target (the hold point moved back) is not in sync.
      this.#inSync = covered.whole;
      return delta;
    }
    // What was shown turned out to be reasoning (a prefilled opener): show the content anew.
    if (target.trim() === "") {
      this.#inSync = false;
      return "";
    }
    this.#emitted = target;
    this.#inSync = true;
    // A half held back from the text shown before belongs to that text, not to this one.
    this.#heldHalf = "";
    return `\n\n${target}`;
  }
}

const WS = /\s/;

/**
 * `hold`, or the start of the run of backticks that ends there when the run may still grow (the
 * text ends there, or the run goes on past it): an inline code span closes at the next run of
 * exactly as many backticks as opened it (CommonMark, https://spec.commonmark.org/0.31.2/#code-spans),
 * so `` `{"name": …}` `` shown as a code span is a call once a next piece makes the last run two
 * backticks long. A run the hold point cuts is read whole once what follows it has come.
 */
function backtickRunStart(text: string, hold: number): number {
  if (hold === 0 || text.charCodeAt(hold - 1) !== 0x60 || (hold < text.length && text.charCodeAt(hold) !== 0x60)) return hold;
  let at = hold - 1;
  while (at > 0 && text.charCodeAt(at - 1) === 0x60) at--;
  return at;
}

/** How much of the text's end {@link StreamFilter#gluedToRecovered} compares with the target's end. */
const GLUE_TAIL = 256;

/** `s` with each whitespace run as one space. */
function squeezeWs(s: string): string {
  return s.replace(/\s+/g, " ");
}

/** The first half of a UTF-16 surrogate pair. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * How much of `target` the already shown text covers (`at`), comparing whitespace runs as
 * equal, and whether all of `shown` was matched (`whole`; false when `target` ends first);
 * `undefined` when `shown` is not a prefix of `target` in that sense.
 */
function coveredPrefix(shown: string, target: string): { at: number; whole: boolean } | undefined {
  if (target.startsWith(shown)) {
    // The usual case, without a walk over every character: the walk below would match every
    // character and stop before the shown text's trailing whitespace.
    let at = shown.length;
    while (at > 0 && WS.test(shown[at - 1]!)) at--;
    return { at, whole: true };
  }
  let i = 0;
  let j = 0;
  while (j < shown.length) {
    if (WS.test(shown[j]!)) {
      while (j < shown.length && WS.test(shown[j]!)) j++;
      if (j === shown.length) break;
      if (i < target.length && WS.test(target[i]!)) while (i < target.length && WS.test(target[i]!)) i++;
      else if (i < target.length) return undefined;
      continue;
    }
    if (i >= target.length) return { at: i, whole: false };
    if (WS.test(target[i]!)) return undefined;
    if (target[i] !== shown[j]) return undefined;
    i++;
    j++;
  }
  return { at: i, whole: true };
}
