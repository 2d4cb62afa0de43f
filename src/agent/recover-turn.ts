/**
 * Step "recover" of `runAgent`: the tool calls of a model turn. In `off` mode only native
 * calls count; otherwise the tool shim (`recover`) also reads calls written as text, rejects
 * forbidden ones, and separates reasoning from the answer. Emits the turn's reasoning (what the
 * stream did not pass on, when streamed), its content (when not streamed), shim diagnostics and
 * `turn_end`.
 */
import type { ToolCall } from "../llm/types.js";
import type { RecoveredBy, RejectedCall } from "../toolshim/types.js";
import { recover, type RecoverOptions } from "../toolshim/index.js";
import type { ModelTurn } from "./model-turn.js";
import type { Session } from "./session.js";

/** The calls and the visible text of one model turn. */
export interface TurnCalls {
  calls: ToolCall[];
  /** Calls the shim refused (forbidden tools, invalid arguments). */
  rejected: RejectedCall[];
  /** Visible answer text (call markup and reasoning taken out). */
  content: string;
  thinking?: string;
  recoveredBy: RecoveredBy;
  /** How the rejected calls came: natively when the model sent native calls and the shim found none. */
  rejectedBy: RecoveredBy;
  /** Calls plus rejected calls; 0 means the turn is an answer. */
  callCount: number;
}

/** Step 3 — recover: the turn's calls, native or written as text (see the module comment). */
export async function recoverTurn(s: Session, { turn, streamed, reasoning }: ModelTurn): Promise<TurnCalls> {
  let out: TurnCalls;
  if (s.mode === "off") {
    const recoveredBy: RecoveredBy = turn.tool_calls.length > 0 ? "native" : "none";
    out = { calls: turn.tool_calls, rejected: [], content: turn.content, recoveredBy, rejectedBy: recoveredBy, callCount: 0 };
    if (turn.thinking !== undefined) out.thinking = turn.thinking;
  } else {
    // The shim asks the registry's validator, so a bad call gets the text it gets in `off` mode.
    const registry = s.opts.registry;
    await registry.ready(); // schemas that load on demand, loaded before the synchronous validate port asks
    const shimOpts: RecoverOptions = { signal: s.signal, validate: (call) => registry.validate(call) };
    if (s.opts.interpreter) shimOpts.interpreter = s.opts.interpreter;
    const turnIn = { content: turn.content, tool_calls: turn.tool_calls, ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}) };
    const r = await recover(turnIn, s.offered, shimOpts);
    // A refused native call (an unknown tool name) came natively, whatever the shim recovered.
    const rejectedBy: RecoveredBy = r.recovered_by === "none" && turn.tool_calls.length > 0 ? "native" : r.recovered_by;
    out = { calls: r.tool_calls, rejected: r.rejected, content: r.content, recoveredBy: r.recovered_by, rejectedBy, callCount: 0 };
    const thinking = r.thinking ?? turn.thinking;
    if (thinking !== undefined) out.thinking = thinking;
    if (r.diagnostics.length > 0) s.emit({ type: "diagnostic", diagnostics: r.diagnostics });
    if (r.prefilledReasoning === true) s.prefilledReasoning = true;
    // Reasoning written in the content: what the stream has not passed on yet (`model-turn.ts`).
    if (streamed && !turn.thinking) {
      const rest = reasoning ? reasoning.end(r.thinking) : (r.thinking ?? "");
      if (rest.trim() !== "") s.emit({ type: "thinking", delta: rest });
    }
  }
  if (!streamed && out.thinking) s.emit({ type: "thinking", delta: out.thinking });
  if (!streamed && out.content.trim() !== "") s.emit({ type: "content", delta: out.content });
  out.callCount = out.calls.length + out.rejected.length;
  s.emit({ type: "turn_end", tool_calls: out.callCount });
  return out;
}
