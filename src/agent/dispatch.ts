/**
 * Step "dispatch" of `runAgent`: the assistant turn goes into the history, then every call of
 * the turn runs in order through the registry (an identical earlier call is answered from the
 * evidence log with a hint instead of running again), and a rejected call gets a tool error
 * with a hint. Each call adds one step and one `tool` message (the result envelope as JSON,
 * with `tool_name`, and `tool_call_id` when the provider gave an id).
 */
import type { Message } from "../llm/types.js";
import { expectedParametersHint, type DispatchResult, type ToolRegistry } from "../tools/index.js";
import type { RecoveredBy, RejectedCall } from "../toolshim/types.js";
import { callsCutNote, readOnlyHint, repeatedCallHint } from "./prompt.js";
import type { TurnCalls } from "./recover-turn.js";
import type { AgentStep, Session } from "./session.js";

function asArgs(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function withRepeatHint(result: DispatchResult, tool: string): DispatchResult {
  const hint = repeatedCallHint(tool);
  if (!result.ok) return { ...result, error: { ...result.error, hint } };
  const note = "note" in result && typeof result.note === "string" ? `${result.note} ${hint}` : hint;
  return { ...result, note } as DispatchResult;
}

function stepTotal(result: DispatchResult): number {
  if (!result.ok) return 0;
  return "total" in result ? result.total : 1;
}

/** Records a step and its `tool` message in the session. */
function addToolResult(s: Session, step: AgentStep, result: DispatchResult, callId?: string): void {
  s.steps.push(step);
  s.emit({ type: "tool_result", step, result });
  const message: Message = { role: "tool", content: JSON.stringify(result), tool_name: step.tool };
  if (callId !== undefined) message.tool_call_id = callId;
  s.history.push(message);
}

/** Runs one call (or answers it from an identical earlier one) and records it. */
async function runCall(s: Session, call: { name: string; arguments: unknown; id?: string }, recoveredBy: AgentStep["recovered_by"]): Promise<DispatchResult> {
  const args = call.arguments;
  const previous = s.log.previous(call.name, args);
  let result: DispatchResult;
  let ms = 0;
  if (previous) {
    result = withRepeatHint(previous, call.name);
  } else {
    const started = performance.now();
    const ctx: Parameters<ToolRegistry["dispatch"]>[1] = {};
    if (s.opts.workspace) ctx.workspace = s.opts.workspace;
    ctx.signal = s.signal;
    result = await s.opts.registry.dispatch({ name: call.name, arguments: args }, ctx);
    ms = Math.round(performance.now() - started);
    s.log.record(call.name, args, result);
  }
  addToolResult(s, { tool: call.name, arguments: args, ok: result.ok, total: stepTotal(result), ms, recovered_by: recoveredBy }, result, call.id);
  return result;
}

function rejectCall(s: Session, r: RejectedCall, recoveredBy: RecoveredBy): void {
  const schema = s.offered.find((t) => t.name === r.name)?.parameters;
  const hint = r.hint ?? (r.code === "INVALID_ARGUMENT" && schema ? expectedParametersHint(schema) : readOnlyHint(s.toolNames));
  const result: DispatchResult = { ok: false, error: { code: r.code, message: r.message, hint } };
  addToolResult(s, { tool: r.name, arguments: r.arguments, ok: false, total: 0, ms: 0, recovered_by: recoveredBy }, result);
}

/**
 * Step 4 — dispatch: the assistant turn, then each call's result (see the module comment).
 * At most `maxCallsPerTurn` calls of a turn run; the others are left out of the assistant turn
 * (so no result is owed for them), said with a `calls_cut` notice, and named in the answer.
 */
export async function dispatchCalls(s: Session, t: TurnCalls): Promise<void> {
  const cap = s.maxCallsPerTurn;
  const calls = t.calls.slice(0, cap);
  const rejected = t.rejected.slice(0, Math.max(0, cap - calls.length));
  const cut = [...t.calls.slice(calls.length).map((c) => ({ name: c.name, arguments: c.arguments as unknown })), ...t.rejected.slice(rejected.length)];
  if (cut.length > 0) {
    const note = callsCutNote(cap, cut.map((c) => `${c.name}(${JSON.stringify(c.arguments ?? {})})`));
    s.cutNotes.push(note);
    s.emit({ type: "notice", reason: "calls_cut", message: note });
  }
  const assistant: Message = {
    role: "assistant",
    content: t.content,
    tool_calls: [...calls, ...rejected.map((r) => ({ name: r.name, arguments: asArgs(r.arguments) }))],
  };
  if (t.thinking) assistant.thinking = t.thinking;
  s.history.push(assistant);
  for (const call of calls) {
    s.emit({ type: "tool_call", call, recovered_by: t.recoveredBy });
    await runCall(s, call, t.recoveredBy);
  }
  for (const r of rejected) rejectCall(s, r, t.rejectedBy);
}
