/**
 * Step "finish" of `runAgent`: the answer's citations graded against the lines shown to the
 * model (`grounding.ts`), the re-ask when they fail (cite or abstain), and the session's result
 * with why it stopped.
 *
 * Re-ask rule: when the answer makes claims about the code and its grounding is `failed`, or
 * any citation is `unseen`/`invalid`, the model is asked once more with a user message
 * (`reaskMessage`: which citations failed and why, which lines it has seen, correct them or say
 * it does not know). The second answer is graded the same way and returned as it is.
 */
import { locateFile } from "../tools/index.js";
import { isAbstention } from "./citation-status.js";
import { gradeCitations, groundingOf, type Citation, type SeenLines } from "./grounding.js";
import { LENGTH_NOTE, maxStepsNote, reaskMessage, repeatStopNote, type FailedCitation } from "./prompt.js";
import type { AgentResult, Session, StopReason } from "./session.js";

/** Most seen-line ranges listed in a re-ask. */
const MAX_SEEN_LISTED = 30;

/** The answer when the step limit ended the loop: the turn's text, then the note (also as a `notice`). */
export function maxStepsAnswer(s: Session, content: string): string {
  return stopAnswer(s, content, maxStepsNote(s.maxSteps));
}

/**
 * The answer when the model sent only repeated calls after the repeat hint (stop reason
 * `max_steps`, ended early): the turn's text, then the note (also as a `notice`).
 */
export function repeatStopAnswer(s: Session, content: string, tool: string): string {
  return stopAnswer(s, content, repeatStopNote(s.steps.length, tool));
}

function stopAnswer(s: Session, content: string, note: string): string {
  s.stopNote = note;
  s.emit({ type: "notice", reason: "max_steps", message: note });
  return content.trim() === "" ? note : `${content.trim()}\n\n${note}`;
}

/** The answer cut by the output limit: its text, then the note (also as a `notice`). */
export function lengthAnswer(s: Session, content: string): string {
  s.emit({ type: "notice", reason: "length", message: LENGTH_NOTE });
  return content.trim() === "" ? LENGTH_NOTE : `${content.trim()}\n\n${LENGTH_NOTE}`;
}

/** The answer's citations, graded against the lines shown and the repository. */
export function gradeAnswer(s: Session, answer: string): Promise<Citation[]> {
  const ws = s.opts.workspace;
  const locate = ws ? (p: string) => locateFile(ws, p, s.signal) : undefined;
  return gradeCitations(answer, s.log.shown(), locate);
}

/** `path: 1-12, 40-52` per file shown, at most {@link MAX_SEEN_LISTED} ranges. */
function seenRanges(seen: SeenLines): string[] {
  const out: string[] = [];
  for (const [path, lines] of seen) {
    const nums = [...lines.keys()].sort((a, b) => a - b);
    const ranges: string[] = [];
    for (let i = 0; i < nums.length; ) {
      let j = i;
      while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
      ranges.push(i === j ? `${nums[i]}` : `${nums[i]}-${nums[j]}`);
      i = j + 1;
    }
    out.push(`${path}: ${ranges.join(", ")}`);
    if (out.length >= MAX_SEEN_LISTED) break;
  }
  return out;
}

/**
 * The line shown between an answer whose citations failed the check and the model's second answer
 * (`reaskFor`), wherever the first answer was already streamed to a reader: `ask`'s stdout and the
 * gateway's virtual model (`serve/virtual-model.ts`). Without it the two answers read as one.
 */
export const REASK_SEPARATOR = "[codecite] some citations above failed the check; the model's corrected answer follows:";

/** The re-ask message for an answer, or `undefined` when its citations pass (see the module comment). */
export function reaskFor(s: Session, answer: string, citations: readonly Citation[]): string | undefined {
  const failed: FailedCitation[] = citations.flatMap((c) =>
    c.status === "unseen" || c.status === "invalid"
      ? [{ location: c.line === c.end_line ? `${c.resolved_from ?? c.path}:${c.line}` : `${c.resolved_from ?? c.path}:${c.line}-${c.end_line}`, status: c.status, reason: c.reason ?? c.status }]
      : [],
  );
  const grounding = groundingOf(answer, citations);
  if (failed.length === 0 && grounding !== "failed") return undefined;
  return reaskMessage(failed, seenRanges(s.log.shown()), citations.length === 0);
}

/**
 * The answer without the notes codecite wrote itself (a stop at the step limit, the deadline or
 * the context size, an answer cut by the output limit): those are not claims about the code, so
 * an answer that is only such a note has grounding `none`, not `failed` (no warning that it
 * "cites no location", no `--strict` exit 3). Only the exact notes of this session are removed.
 */
function modelText(s: Session, answer: string, stop: StopReason): string {
  // A timeout's or a context stop's answer is the note alone (run-agent.ts).
  if (stop === "timeout" || stop === "context") return "";
  const note = stop === "max_steps" ? s.stopNote : stop === "length" ? LENGTH_NOTE : undefined;
  return note !== undefined && answer.endsWith(note) ? answer.slice(0, -note.length) : answer;
}

/** Step 5 — finish: the session's result. */
export async function finish(s: Session, answer: string, stopReason: StopReason, reasks: number): Promise<AgentResult> {
  const full = s.cutNotes.length > 0 ? `${answer}\n\n${s.cutNotes.join("\n")}` : answer;
  const citations = await gradeAnswer(s, full);
  let stop = stopReason;
  if (stop === "answer" && citations.length === 0 && isAbstention(full)) stop = "abstained";
  return {
    answer: full,
    evidence: s.log.evidence(),
    citations,
    grounding: groundingOf(modelText(s, answer, stopReason), citations),
    steps: s.steps,
    model: s.opts.model,
    provider: s.opts.provider.id,
    stop_reason: stop,
    reasks,
    toolshim: s.mode,
    context_tokens: s.contextTokens,
  };
}
