/**
 * The tool-shim pipeline: turn an assistant turn whose tool calls were written
 * as text into structured calls, plus the text the user should see.
 *
 * Order:
 * 0. Reasoning split (`reasoning.ts`). Calls inside closed reasoning are rehearsals and are not
 *    dispatched, except for dialects with `callsInReasoning` (Kimi-K2-Thinking); the turn's own
 *    `thinking` is treated the same way (Kimi on Bedrock streams its calls as reasoning). A call
 *    written after an opener that never closes ends the reasoning (ollama's qwen3 rule);
 *    otherwise the unclosed tail stays reasoning (llama.cpp's rule).
 * 1. Native `tool_calls` win when present (`recovered_by: "native"`); text markup is still removed.
 * 2. Stage 1, dialect parsers (`dialects/`): every dialect whose `detect` fires parses the text;
 *    dialects that found calls are taken in registry order (most specific markers first), each
 *    only when its markup does not overlap markup already taken; spans of dialects that found
 *    markup without a valid call are removed too when they do not overlap taken markup.
 * 3. Stage 2, inline JSON (`inline-json.ts`), only when stage 1 found no call.
 * 4. The structural stage (`structural.ts`), only when stages 1–2 read nothing: markup named after
 *    an offered tool whose arguments fit its schema (`recovered_by: "structural"`).
 * 5. Stage 3, the interpreter (`recover` only, not `recoverDeterministic`): only when stages 1–2
 *    found and decided nothing, the text shows tool intent, and it does not call a side-effect
 *    tool (`policy.ts`). Its failures become diagnostics; stages 1–2 always run.
 *
 * Every call then goes through `resolveToolName` and `prepareArguments` (typing by the schema,
 * then the one argument validator through the `validate` port); unknown names and invalid
 * arguments become `rejected` entries (tool errors the agent sends back to the model).
 */
import type { ToolCall } from "../llm/types.js";
import { prepareArguments } from "./arguments.js";
import { DIALECTS } from "./dialects/index.js";
import { blankSpans, mergeRanges, SpanSet } from "./dialects/text-scan.js";
import { type InlineGroup, introducedAsExample, isToolDefinitionEcho, scanInlineCalls } from "./inline-json.js";
import { resolveToolName } from "./names.js";
import { isSideEffectToolName, mentionsSideEffectCall, rejectUnknownTool } from "./policy.js";
import { splitReasoning, unwrapAnswer } from "./reasoning.js";
import { frameSpans } from "./markers.js";
import { scanStructural, type StructuralCall } from "./structural.js";
import { cleanContent, cutImitatedResult, findCodeRegions, mergeSpans, removeSpans, tidy } from "./residue.js";
import { decodeWordMarkers } from "./word-markers.js";
import type {
  ArgumentValidator,
  AssistantTurn,
  BrokenBlock,
  Dialect,
  DialectMatch,
  OfferedTool,
  ParseContext,
  RawCall,
  RecoverResult,
  RecoveredBy,
  RejectedCall,
  ShimDiagnostic,
  Span,
} from "./types.js";

/**
 * Stage 3: a second model that rewrites text into calls (`interpreter.ts`).
 * `interpret` may throw (timeout, unreachable server, invalid output); `recover` reports it.
 */
export interface Interpreter {
  interpret(text: string, tools: readonly OfferedTool[], signal?: AbortSignal): Promise<RawCall[]>;
}

/** Options of {@link recover}. */
export interface RecoverOptions {
  /** Stage 3; without it only the deterministic stages run. */
  interpreter?: Interpreter;
  signal?: AbortSignal;
  /** The one argument validator (`ArgumentValidator`); without it calls are typed but not judged. */
  validate?: ArgumentValidator | undefined;
}

interface DialectHit {
  dialect: Dialect;
  match: DialectMatch;
  order: number;
}

interface StageOne {
  chosen: DialectHit[];
  /** Spans to remove: markup of the chosen dialects and of dialects without calls. */
  spans: Span[];
  /** Unreadable call blocks inside `spans` (the broken-block rule decides which stay removed). */
  broken: BrokenBlock[];
  reasoning: string[];
  notes: string[];
}

function firstStart(spans: readonly Span[]): number {
  return spans.reduce((m, s) => Math.min(m, s.start), Number.POSITIVE_INFINITY);
}

/**
 * A dialect hit the text introduces as an example is a decoy (continuedev/continue issue #11070, aaif-goose/goose issue #1857,
 * goose#1857): markup that starts with a weak marker (a fence or a bare bracket), or any markup
 * inside a code fence, right after "for example", "looks like" … Strong markers in running text
 * stay calls (a model announcing its call is not writing an example).
 */
function introducedAsExampleMarkup(text: string, spans: readonly Span[]): boolean {
  const fences = findCodeRegions(text).filter((r) => r.fenced);
  return spans.some((s) => {
    if (/^(?:`{3}|~{3}|[{[])/.test(text.slice(s.start, s.start + 3)) && introducedAsExample(text, s.start)) return true;
    const fence = fences.find((f) => f.bodyStart <= s.start && s.end <= f.end);
    return fence !== undefined && introducedAsExample(text, fence.start);
  });
}

function runDialects(
  text: string,
  tools: readonly OfferedTool[],
  only?: (d: Dialect) => boolean,
  dialects: readonly Dialect[] = DIALECTS,
  context?: ParseContext,
): StageOne {
  const hits: DialectHit[] = [];
  const notes: string[] = [];
  dialects.forEach((dialect, order) => {
    if (only && !only(dialect)) return;
    let match: DialectMatch | null = null;
    try {
      match = dialect.detect(text) ? dialect.parse(text, tools, context) : null;
    } catch (err) {
      notes.push(`dialect ${dialect.family} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (match && (match.calls.length > 0 || match.spans.length > 0 || match.reasoning)) hits.push({ dialect, match, order });
  });
  const withCalls = hits
    .filter((h) => h.match.calls.length > 0)
    .filter((h) => {
      if (h.match.calls.every((c) => isToolDefinitionEcho(c))) {
        notes.push(`${h.dialect.family} markup holds a tool definition, not a call`);
        return false;
      }
      if (!introducedAsExampleMarkup(text, h.match.spans)) return true;
      notes.push(`${h.dialect.family} markup is introduced as an example; not a call`);
      return false;
    })
    .sort((a, b) => a.order - b.order);
  // Each chosen dialect's markup as a set of positions: many spans are checked against many
  // without comparing every pair (many markers of two dialects used to cost their product).
  const chosen: DialectHit[] = [];
  const chosenSets: SpanSet[] = [];
  for (const h of withCalls) {
    const k = chosenSets.findIndex((set) => h.match.spans.some((t) => set.overlaps(t)));
    if (k >= 0) notes.push(`${h.dialect.family} also matched the same markup; ${chosen[k]!.dialect.family} was used`);
    else {
      chosen.push(h);
      chosenSets.push(new SpanSet(h.match.spans));
    }
  }
  chosen.sort((a, b) => firstStart(a.match.spans) - firstStart(b.match.spans) || a.order - b.order);
  const chosenSpans = chosen.flatMap((c) => c.match.spans);
  const taken = new SpanSet(chosenSpans);
  const spans = [...chosenSpans];
  const reasoning: string[] = [];
  const broken: BrokenBlock[] = chosen.flatMap((c) => c.match.broken ?? []);
  const brokenSet = new SpanSet(broken.map((b) => b.span));
  for (const h of hits) {
    if (h.match.reasoning) reasoning.push(h.match.reasoning);
    if (h.match.calls.length > 0) continue;
    for (const b of h.match.broken ?? []) {
      if (taken.overlaps(b.span) || brokenSet.overlaps(b.span)) continue;
      broken.push(b);
      brokenSet.add(b.span);
    }
    for (const s of h.match.spans) if (!taken.overlaps(s)) spans.push(s);
  }
  broken.sort((a, b) => a.span.start - b.span.start);
  return { chosen, spans: mergeSpans(spans, text.length), broken, reasoning, notes };
}

/**
 * `spans` without the parts covered by `keep` (text that stays visible). `spans` are sorted and
 * disjoint (`mergeSpans`); one walk over both lists in text order.
 */
function subtractSpans(spans: readonly Span[], keep: readonly Span[]): Span[] {
  const holes = mergeRanges(keep);
  const out: Span[] = [];
  let h = 0;
  for (const s of spans) {
    while (h < holes.length && holes[h]!.end <= s.start) h++;
    let start = s.start;
    for (let k = h; k < holes.length && holes[k]!.start < s.end; k++) {
      if (start < holes[k]!.start) out.push({ start, end: holes[k]!.start });
      start = Math.max(start, holes[k]!.end);
    }
    if (start < s.end) out.push({ start, end: s.end });
  }
  return out;
}

/** Collects accepted and rejected calls with diagnostics. */
class Outcome {
  readonly calls: ToolCall[] = [];
  readonly rejected: RejectedCall[] = [];
  readonly diagnostics: ShimDiagnostic[] = [];
  /** Set when the turn's reasoning came with a prefilled opener (see `RecoverResult`). */
  prefilledReasoning = false;

  constructor(
    private readonly tools: readonly OfferedTool[],
    private readonly validate: ArgumentValidator | undefined,
  ) {}

  note(stage: ShimDiagnostic["stage"], message: string): void {
    this.diagnostics.push({ stage, message });
  }

  /**
   * Resolve and validate one raw call.
   * @param tried the model clearly meant a call: an unknown name is rejected with a tool error
   *   (otherwise it is only noted). Side-effect names are always rejected.
   * @returns whether the name resolved to an offered tool.
   */
  settle(raw: RawCall, tried: boolean): boolean {
    const name = resolveToolName(raw.name, this.tools);
    if (name === undefined) {
      if (tried || isSideEffectToolName(raw.name)) {
        this.rejected.push(rejectUnknownTool(raw.name, raw.arguments, this.tools));
        this.note(isSideEffectToolName(raw.name) ? "policy" : "names", `${JSON.stringify(raw.name)} is not an offered tool; rejected`);
      } else {
        this.note("names", `${JSON.stringify(raw.name)} is not an offered tool; left as text`);
      }
      return false;
    }
    if (name !== raw.name) this.note("names", `${JSON.stringify(raw.name)} resolved to ${name}`);
    const tool = this.tools.find((t) => t.name === name)!;
    const prepared = prepareArguments(raw.arguments, tool, { untyped: raw.untyped === true, validate: this.validate });
    if (!prepared.ok) {
      const refused: RejectedCall = { name, arguments: prepared.arguments, code: "INVALID_ARGUMENT", message: prepared.message };
      if (prepared.hint !== undefined) refused.hint = prepared.hint;
      this.rejected.push(refused);
      this.note("arguments", prepared.message);
      return true;
    }
    const call: ToolCall = { name, arguments: prepared.arguments };
    if (raw.id !== undefined) call.id = raw.id;
    this.calls.push(call);
    return true;
  }

  /**
   * The broken-block rule, one rule for every dialect: call markup that cannot be read is removed
   * and refused with a tool error when it names an offered tool (the model is told to write the
   * call again; a side-effect name gets the read-only refusal), removed silently when it is a
   * garbled copy of a call already read in the same turn or shows no name at all (a marker cut
   * before the name), and left visible when it names a tool that is not offered.
   * @returns whether the block's span is removed.
   */
  settleBroken(block: BrokenBlock): boolean {
    const name = block.name;
    if (name === undefined) {
      this.note("dialect", `unreadable call markup removed (${block.reason})`);
      return true;
    }
    const resolved = resolveToolName(name, this.tools);
    if (resolved !== undefined) {
      if (this.calls.some((c) => c.name === resolved)) {
        this.note("dialect", `a garbled copy of the ${resolved} call was removed (${block.reason})`);
        return true;
      }
      this.rejected.push({
        name: resolved,
        arguments: {},
        code: "INVALID_ARGUMENT",
        message: `the call to ${resolved} could not be read (${block.reason}); nothing was run. Write the call again in valid form.`,
      });
      this.note("dialect", `unreadable ${resolved} call removed and refused (${block.reason})`);
      return true;
    }
    if (isSideEffectToolName(name)) {
      this.rejected.push(rejectUnknownTool(name, {}, this.tools));
      this.note("policy", `unreadable call markup names ${JSON.stringify(name)}, which is not offered; removed and refused`);
      return true;
    }
    this.note("dialect", `unreadable call markup names ${JSON.stringify(name)}, which is not an offered tool; left as text`);
    return false;
  }

  /** Apply {@link settleBroken} to a stage-one result: the spans to remove. */
  settleAllBroken(st: StageOne): Span[] {
    const keep = st.broken.filter((b) => !this.settleBroken(b)).map((b) => b.span);
    return keep.length === 0 ? st.spans : subtractSpans(st.spans, keep);
  }
}

/**
 * DeepSeek call tokens with full-width or ASCII bars; the `▁` (U+2581) tells them from Kimi's and
 * Step3's underscore tokens (vLLM `step3` tool parser). A call block always
 * holds the `tool▁sep` token; begin tokens without it are mentions, not markup.
 */
const DEEPSEEK_TOKEN = /<[|｜]tool▁calls?(?:▁begin)?[|｜]>|<[|｜]tool▁call▁begin[|｜]>/;
const DEEPSEEK_SEP = /<[|｜]tool▁sep[|｜]>/;

/** Internal result: the public result plus what stage 3 needs to know. */
interface Deterministic {
  result: RecoverResult;
  /** Text after the reasoning split, before residue cleanup (what the interpreter reads). */
  text: string;
  /** Stages 0–2 recognised markup or JSON and decided about it (then stage 3 stays out). */
  decided: boolean;
}

function joinThinking(parts: readonly (string | undefined)[]): string | undefined {
  const kept = parts.map((p) => (p === undefined ? "" : tidy(p))).filter((p) => p !== "");
  return kept.length > 0 ? kept.join("\n\n") : undefined;
}

/**
 * A call that ends the last closed reasoning block, with nothing but whitespace after it and
 * nothing after the closer but an announcement of the call (`announcesCall`): the model wrote its
 * call and closed the reasoning. It is run unless the reasoning introduces it as an example (the
 * rule is documented in `docs/dialects.md`, "Calls just before the reasoning closer").
 * @returns the block without the call markup and the calls, or `undefined` when the block does not
 *   end with readable call markup.
 */
function trailingReasoningCall(
  block: string,
  tools: readonly OfferedTool[],
  dialects: readonly Dialect[],
): { rest: string; hits: DialectHit[] } | undefined {
  const st = runDialects(block, tools, undefined, dialects);
  if (st.chosen.length === 0) return undefined;
  const spans = mergeSpans(st.chosen.flatMap((c) => c.match.spans), block.length);
  const last = spans[spans.length - 1];
  // Calls read without a span of their own (nothing to cut off the block's end).
  if (last === undefined || block.slice(last.end).trim() !== "") return undefined;
  // The markup run at the end: spans separated by whitespace only.
  let start = last.start;
  for (let i = spans.length - 2; i >= 0 && block.slice(spans[i]!.end, start).trim() === ""; i--) start = spans[i]!.start;
  const tail = runDialects(block.slice(start), tools, undefined, dialects);
  if (tail.chosen.length === 0) return undefined;
  return { rest: block.slice(0, start), hits: tail.chosen };
}

/**
 * Whether the visible text after the reasoning only announces a call: one short paragraph that
 * ends with a colon ("Let me create the file:") and holds no call markup of its own.
 */
function announcesCall(after: string, tools: readonly OfferedTool[], dialects: readonly Dialect[]): boolean {
  const t = after.trim();
  if (t.length > 200 || /\n\s*\n/.test(t) || !t.endsWith(":")) return false;
  return runDialects(t, tools, undefined, dialects).chosen.length === 0 && scanInlineCalls(t, tools).groups.length === 0;
}

/**
 * A reasoning block's text without the markup of the families whose calls written in reasoning
 * are real (`Dialect.callsInReasoning`), and those families' matches (their calls).
 */
function readReasoning(block: string, tools: readonly OfferedTool[], dialects: readonly Dialect[]): { text: string; chosen: DialectHit[] } {
  const st = runDialects(block, tools, (d) => d.callsInReasoning === true, dialects);
  return { text: st.chosen.length > 0 ? removeSpans(block, st.chosen.flatMap((c) => c.match.spans)) : block, chosen: st.chosen };
}

/**
 * What a closed reasoning block (the text between an opener and its closer, or before a closer
 * that no opener precedes) gives the turn's `thinking`, when no later text can change it: the
 * block without the markup of `callsInReasoning` families, untidied. `undefined` when the block
 * ends with call markup a dialect reads: whether that call runs (and leaves the block) depends on
 * what follows the closer ("Calls just before the reasoning closer", `docs/dialects.md`).
 * @param tools the offered tools (the dialects read calls with them).
 */
export function settledReasoning(block: string, tools: readonly OfferedTool[]): string | undefined {
  if (trailingReasoningCall(block, tools, DIALECTS) !== undefined) return undefined;
  return readReasoning(block, tools, DIALECTS).text;
}

function deterministic(
  turn: AssistantTurn,
  tools: readonly OfferedTool[],
  dialects: readonly Dialect[] = DIALECTS,
  validate?: ArgumentValidator,
): Deterministic {
  const out = new Outcome(tools, validate);
  const thinking: (string | undefined)[] = [];
  const reasoningCalls: { raw: RawCall; family: string }[] = [];

  // 0. Reasoning: the turn's own thinking, then reasoning blocks in the content.
  const inReasoning = (block: string): string => {
    const r = readReasoning(block, tools, dialects);
    for (const hit of r.chosen) for (const raw of hit.match.calls) reasoningCalls.push({ raw, family: hit.dialect.family });
    return r.text;
  };
  if (turn.thinking !== undefined && turn.thinking.trim() !== "") thinking.push(inReasoning(turn.thinking));
  const split = splitReasoning(turn.content ?? "");
  const closed = [...split.closed];
  if (
    closed.length > 0 &&
    split.unclosed === undefined &&
    (split.content.trim() === "" || announcesCall(split.content, tools, dialects)) &&
    !(turn.tool_calls && turn.tool_calls.length > 0)
  ) {
    const tail = trailingReasoningCall(closed[closed.length - 1]!, tools, dialects);
    if (tail && !introducedAsExample(closed[closed.length - 1]!, tail.rest.length) && !tail.hits.every((h) => h.dialect.callsInReasoning === true)) {
      closed[closed.length - 1] = tail.rest;
      for (const hit of tail.hits) for (const raw of hit.match.calls) reasoningCalls.push({ raw, family: hit.dialect.family });
      out.note("reasoning", split.content.trim() === "" ? "a call written at the end of the reasoning, with nothing after the closer, was run" : "a call written at the end of the reasoning, followed only by text announcing it, was run");
    }
  }
  for (const block of closed) thinking.push(inReasoning(block));
  if (split.prefilled) {
    out.prefilledReasoning = true;
    out.note("reasoning", "prefilled: text before a reasoning closer without an opener is reasoning");
  }
  if (closed.some((b) => runDialects(b, tools, (d) => d.callsInReasoning !== true, dialects).chosen.length > 0)) {
    out.note("reasoning", "call markup inside closed reasoning was not run (a rehearsal: reasoning or an answer follows it)");
  }
  // The main content and an unclosed reasoning block run to the end of the turn: a length stop cut them.
  const atEnd: ParseContext | undefined = turn.finish_reason === "length" ? { endIsCut: true } : undefined;
  let text = split.content;
  if (split.unclosed !== undefined) {
    // Reasoning that the token limit stopped was still under way: a call in it is a rehearsal as
    // much as a call, and is not run.
    const st = atEnd === undefined ? runDialects(split.unclosed, tools, undefined, dialects) : undefined;
    if (st === undefined) {
      thinking.push(split.unclosed);
      out.note("reasoning", "unclosed reasoning cut by the token limit: the rest of the text is reasoning, and no call in it was run");
    } else if (st.chosen.length > 0) {
      const cut = firstStart(st.chosen.flatMap((c) => c.match.spans));
      thinking.push(split.unclosed.slice(0, cut));
      text += split.unclosed.slice(cut);
      out.note("reasoning", "a call after an unclosed reasoning opener ends the reasoning");
    } else {
      thinking.push(split.unclosed);
      out.note("reasoning", "unclosed reasoning: the rest of the text is reasoning");
    }
  }
  // The parsers read SentencePiece word markers (`▁`) between tokens as spaces (`word-markers.ts`);
  // the same length, so their spans cut the text as written, whose prose keeps its markers.
  const parsed = decodeWordMarkers(text) ?? text;
  const finish = (by: RecoveredBy, spans: readonly Span[], decided: boolean, extraThinking: string[] = []): Deterministic => {
    let content = cleanContent(text, spans);
    const unwrapped = unwrapAnswer(content);
    if (unwrapped !== content) {
      content = tidy(unwrapped);
      out.note("reasoning", "the answer wrapper (<answer>, <response>) around the visible text was removed");
    }
    const thoughts = [...thinking, ...extraThinking];
    if (out.calls.length > 0 || out.rejected.length > 0) {
      const cut = cutImitatedResult(content);
      if (cut !== undefined) {
        content = tidy(cut);
        out.note("inline_json", "text after the call imitates a tool result; it was dropped (the real result comes next)");
      }
    }
    if (
      !split.tagged &&
      out.calls.length === 0 &&
      out.rejected.length === 0 &&
      !(turn.tool_calls !== undefined && turn.tool_calls.length > 0) &&
      DEEPSEEK_TOKEN.test(text) &&
      !DEEPSEEK_SEP.test(text)
    ) {
      // DeepSeek-R1/V3.1 templates force reasoning open; call tokens that only are mentioned (no
      // call block) with no closer mean the whole text is reasoning (llama.cpp DEEPSEEK_R1).
      thoughts.push(text);
      content = "";
      out.prefilledReasoning = true;
      out.note("reasoning", "prefilled: DeepSeek call tokens mentioned in forced-open reasoning (no call block)");
    }
    const result: RecoverResult = {
      tool_calls: out.calls,
      content,
      recovered_by: out.calls.length > 0 ? by : "none",
      rejected: out.rejected,
      diagnostics: out.diagnostics,
    };
    if (out.prefilledReasoning) result.prefilledReasoning = true;
    const joined = joinThinking(thoughts);
    if (joined !== undefined) result.thinking = joined;
    return { result, text, decided };
  };

  // 1. Native calls win; text markup is still removed from the content.
  if (turn.tool_calls !== undefined && turn.tool_calls.length > 0) {
    for (const call of turn.tool_calls) {
      const raw: RawCall = { name: call.name, arguments: call.arguments };
      if (call.id !== undefined) raw.id = call.id;
      out.settle(raw, true);
    }
    const st = runDialects(parsed, tools, undefined, dialects, atEnd);
    if (st.chosen.length > 0) out.note("native", "native tool calls present; calls written as text were not dispatched");
    return finish("native", out.settleAllBroken(st), true, st.reasoning);
  }
  let reasoningBy: RecoveredBy | undefined;
  for (const { raw, family } of reasoningCalls) {
    const before = out.calls.length;
    out.settle(raw, true);
    if (reasoningBy === undefined && out.calls.length > before) reasoningBy = `dialect:${family}`;
  }

  // 2. Stage 1: dialects.
  const st1 = runDialects(parsed, tools, undefined, dialects, atEnd);
  for (const n of st1.notes) out.note("dialect", n);
  if (st1.chosen.length > 0) {
    let by: RecoveredBy | undefined = reasoningBy;
    for (const hit of st1.chosen) {
      for (const raw of hit.match.calls) {
        const before = out.calls.length;
        out.settle(raw, true);
        if (by === undefined && out.calls.length > before) by = `dialect:${hit.dialect.family}`;
      }
    }
    return finish(by ?? "none", out.settleAllBroken(st1), true, st1.reasoning);
  }
  const st1Spans = out.settleAllBroken(st1);

  // 3. Stage 2: inline JSON, over the text with stage-1 markup blanked out.
  const masked = blankSpans(parsed, st1Spans);
  const st2 = scanInlineCalls(masked, tools);
  for (const n of st2.notes) out.note("inline_json", n);
  const spans = [...st1Spans];
  let by: RecoveredBy | undefined = reasoningBy;
  const isTool = (name: string) => resolveToolName(name, tools) !== undefined;
  const offeredGroups = st2.groups.filter((g) => g.calls.some((c) => isTool(c.name)));
  // Markers that frame an inline call (`[TOOL_REQUEST]{…}[END_TOOL_REQUEST]`) go with it.
  const frames = frameSpans(masked, offeredGroups.map((g) => g.span), isTool);
  spans.push(...frames);

  // 4. Stage 3, structural: markup named after an offered tool, when nothing else was read, or
  // beside inline calls that all name offered tools (one reply may write a call as JSON in a
  // wrapper and the next as elements: vLLM `dots` parser test, both in `<dots_function_call>`),
  // over the text with the inline calls blanked out (not their frames: growing back over markers,
  // a frame may take the closers of the element call before it). Calls are settled in text order.
  const alone = st2.groups.length === 0 && out.calls.length === 0 && out.rejected.length === 0;
  const beside = st2.groups.length > 0 && offeredGroups.length === st2.groups.length;
  const st3 = alone || beside ? scanStructural(beside ? blankSpans(masked, st2.groups.map((g) => g.span)) : masked, tools, atEnd) : undefined;
  let structural = false;
  if (st3 && alone) {
    for (const n of st3.notes) out.note("structural", n);
    for (const b of st3.broken) {
      if (!out.settleBroken(b)) continue;
      spans.push(b.span);
      structural = true;
    }
  }
  const steps: ({ at: number; group: InlineGroup } | { at: number; found: StructuralCall })[] = [
    ...st2.groups.map((group) => ({ at: group.span.start, group })),
    ...(st3?.found ?? []).map((found) => ({ at: found.span.start, found })),
  ].sort((x, y) => x.at - y.at);
  for (const step of steps) {
    if ("group" in step) {
      const offered = offeredGroups.includes(step.group);
      for (const raw of step.group.calls) {
        const before = out.calls.length;
        out.settle(raw, offered || step.group.clearlyTried);
        if (by === undefined && out.calls.length > before) by = "inline_json";
      }
      continue;
    }
    const f = step.found;
    const before = out.calls.length;
    out.settle(f.call, true);
    if (out.calls.length > before) {
      spans.push(f.span);
      structural = true;
      by ??= "structural";
      out.note("structural", `${f.call.name} read from ${f.shape} markup`);
    }
  }
  if (structural) by ??= "structural";
  const decided = st1.spans.length > 0 || st2.groups.length > 0 || st2.notes.length > 0 || reasoningCalls.length > 0 || structural;
  return finish(by ?? "none", spans, decided, st1.reasoning);
}

/**
 * Stages 0–2 only (reasoning split, native calls, dialects, inline JSON): synchronous and
 * deterministic.
 *
 * @param turn the assistant turn (`content` as the model wrote it, optional `thinking` and
 *   native `tool_calls`).
 * @param tools the offered whitelist; a call naming anything else is never returned as a call.
 * @returns calls in text order (reasoning-block calls of `callsInReasoning` families first),
 *   the visible content, reasoning as `thinking`, refused calls in `rejected` and diagnostics.
 */
export function recoverDeterministic(
  turn: AssistantTurn,
  tools: readonly OfferedTool[],
  opts: DeterministicOptions = {},
): RecoverResult {
  return deterministic(turn, tools, opts.dialects, opts.validate).result;
}

/** Options of {@link recoverDeterministic}. */
export interface DeterministicOptions {
  /**
   * The dialects to try, in order (default: the whole registry). The leave-one-dialect-out check
   * (`scripts/leave-one-out.ts`) passes the registry without one dialect.
   */
  dialects?: readonly Dialect[];
  /** The one argument validator (`ArgumentValidator`); without it calls are typed but not judged. */
  validate?: ArgumentValidator | undefined;
}

/** Markers that show tool intent for stage 3 (besides braces and offered tool names). */
const INTENT_MARKERS = /<\|[\w▁]+\|>|<｜|<tool_call|<function|\[TOOL_CALLS\]|<invoke|functools\[|"name"\s*:/;

/**
 * Whether `text` shows tool intent: it names an offered tool, holds braces, or holds call
 * markers (a dialect marker, a special token). The stage 3 gate.
 */
export function showsToolIntent(text: string, tools: readonly OfferedTool[]): boolean {
  if (/[{}]/.test(text) || INTENT_MARKERS.test(text)) return true;
  if (DIALECTS.some((d) => d.markers.some((m) => m.length >= 3 && text.includes(m)))) return true;
  const lower = text.toLowerCase();
  return tools.some((t) => {
    const i = lower.indexOf(t.name.toLowerCase());
    if (i < 0) return false;
    const before = lower[i - 1] ?? " ";
    const after = lower[i + t.name.length] ?? " ";
    return !/[\w]/.test(before) && !/[\w]/.test(after);
  });
}

/**
 * The full pipeline: {@link recoverDeterministic}, then the interpreter (stage 3) when
 * `opts.interpreter` is given, nothing was recognised deterministically, the text shows tool
 * intent ({@link showsToolIntent}) and it does not call a side-effect tool. Interpreter calls
 * named `noop` are dropped; the rest go through the same name resolution and validation.
 *
 * Never throws for interpreter failures (timeout, unreachable, invalid output): they are reported
 * in `diagnostics` (stage `interpreter`) and the deterministic result stands.
 */
export async function recover(
  turn: AssistantTurn,
  tools: readonly OfferedTool[],
  opts: RecoverOptions = {},
): Promise<RecoverResult> {
  const det = deterministic(turn, tools, DIALECTS, opts.validate);
  const result = det.result;
  const interpreter = opts.interpreter;
  if (!interpreter || det.decided || result.tool_calls.length > 0 || result.rejected.length > 0) return result;
  if (turn.tool_calls !== undefined && turn.tool_calls.length > 0) return result;
  if (tools.length === 0 || det.text.trim() === "") return result;
  const diagnostics = result.diagnostics;
  if (mentionsSideEffectCall(det.text, tools)) {
    diagnostics.push({
      stage: "policy",
      message: "the text calls a tool that is not offered (read-only toolset); interpreter not asked",
    });
    return result;
  }
  if (!showsToolIntent(det.text, tools)) {
    diagnostics.push({ stage: "interpreter", message: "no tool intent in the text; interpreter not asked" });
    return result;
  }
  let raws: RawCall[];
  try {
    raws = await interpreter.interpret(det.text, tools, opts.signal);
  } catch (err) {
    diagnostics.push({ stage: "interpreter", message: `interpreter failed: ${err instanceof Error ? err.message : String(err)}` });
    return result;
  }
  const out = new Outcome(tools, opts.validate);
  for (const raw of raws) {
    if (raw.name === "noop") continue;
    out.settle(raw, false);
  }
  diagnostics.push(...out.diagnostics);
  if (out.calls.length === 0) {
    diagnostics.push({ stage: "interpreter", message: "the interpreter found no call" });
    return { ...result, diagnostics, rejected: [...result.rejected, ...out.rejected] };
  }
  return {
    ...result,
    tool_calls: out.calls,
    recovered_by: "interpreter",
    rejected: [...result.rejected, ...out.rejected],
    diagnostics,
  };
}
