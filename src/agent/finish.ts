/**
 * Step "finish" of `runAgent`: the answer, the evidence gathered, the answer's citations
 * checked against it, and why the session stopped.
 */
import { checkCitations } from "./grounding.js";
import { maxStepsNote } from "./prompt.js";
import type { AgentResult, Session } from "./session.js";

/** The answer when the step limit ended the loop: the turn's text, then the note (also as a `notice`). */
export function maxStepsAnswer(s: Session, content: string): string {
  const note = maxStepsNote(s.maxSteps);
  s.emit({ type: "notice", reason: "max_steps", message: note });
  return content.trim() === "" ? note : `${content.trim()}\n\n${note}`;
}

/** Step 5 — finish: the session's result. */
export function finish(s: Session, answer: string, stopReason: AgentResult["stop_reason"]): AgentResult {
  const evidence = s.log.evidence();
  return {
    answer,
    evidence,
    citations: checkCitations(answer, evidence),
    steps: s.steps,
    model: s.opts.model,
    provider: s.opts.provider.id,
    stop_reason: stopReason,
    toolshim: s.mode,
    context_tokens: s.contextTokens,
  };
}
