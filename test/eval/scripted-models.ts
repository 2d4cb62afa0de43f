/**
 * Rule-following fake models for `codecite eval` tests, served by the fake Ollama (real HTTP):
 * each looks up the question it is asked in the exam and behaves as its script says.
 *
 * - `ace`: calls the key's tool natively on its first turn, then cites every record it was shown.
 * - `texter`: has no `tools` capability and writes its call as a Hermes `<tool_call>` block;
 *   answers like `ace`, except that for a name the repository lacks it invents a location.
 * - `liar`: calls the tool natively, then cites a line it was never shown (past the file's end).
 * - `slow`: `ace` with a delay before every reply.
 * - `flaky`: `ace` for its first `okTurns` replies, then HTTP 500 for every request.
 */
import type { EvalQuestion } from "../../src/eval/index.js";
import type { ChatRequestBody, FakeOllamaModel, FakeOllamaTurn } from "../helpers/fake-ollama.js";

export const SCRIPTED_MODELS: FakeOllamaModel[] = [
  { name: "ace:7b", capabilities: ["completion", "tools"] },
  { name: "texter:7b", capabilities: ["completion"] },
  { name: "liar:7b", capabilities: ["completion", "tools"] },
  { name: "slow:7b", capabilities: ["completion", "tools"] },
  { name: "flaky:7b", capabilities: ["completion", "tools"] },
];

/** Records shown to the model so far: `"path":"…","start_line":N,"end_line":M` in any message after the question. */
function shownRecords(req: ChatRequestBody): Array<{ path: string; start: number; end: number }> {
  const out: Array<{ path: string; start: number; end: number }> = [];
  const firstUser = req.messages.findIndex((m) => m.role === "user");
  for (const m of req.messages.slice(firstUser + 1)) {
    for (const x of m.content.matchAll(/"path":"([^"]+)","start_line":(\d+),"end_line":(\d+)/g)) {
      out.push({ path: x[1]!, start: Number(x[2]), end: Number(x[3]) });
    }
  }
  return out;
}

function questionOf(req: ChatRequestBody, exam: readonly EvalQuestion[]): EvalQuestion | undefined {
  const user = req.messages.find((m) => m.role === "user")?.content ?? "";
  return exam.find((q) => user.includes(q.question));
}

/** Whether the model has already made a call in this session (an assistant turn exists). */
function hasCalled(req: ChatRequestBody): boolean {
  return req.messages.some((m) => m.role === "assistant");
}

function subjectOf(q: EvalQuestion): string {
  return /`([^`]+)`/.exec(q.question)?.[1] ?? "it";
}

function honestAnswer(req: ChatRequestBody, q: EvalQuestion): string {
  const seen = shownRecords(req);
  if (seen.length === 0) return `I could not find \`${subjectOf(q)}\` in this repository; it is not defined here.`;
  const uniq = [...new Map(seen.map((r) => [`${r.path}:${r.start}`, r])).values()];
  return `\`${subjectOf(q)}\`:\n${uniq.map((r) => `- ${r.path}:${r.start}`).join("\n")}`;
}

/** The `respond` rule of the fake Ollama for the scripted models over `exam`. */
export function scriptedModels(exam: readonly EvalQuestion[], opts: { slowMs?: number; okTurns?: number } = {}): (req: ChatRequestBody) => FakeOllamaTurn | undefined {
  let flakyTurns = 0;
  return (req) => {
    const q = questionOf(req, exam);
    if (q === undefined) return { content: "I do not know this question." };
    const call = q.key_call ?? { name: "find_symbol", arguments: { name: subjectOf(q) } };
    const model = req.model.replace(/:latest$/, "");
    if (model === "flaky:7b" && ++flakyTurns > (opts.okTurns ?? 4)) return { error: { status: 500, message: "llama runner process has terminated" } };
    if (!hasCalled(req)) {
      if (model === "texter:7b") {
        return { content: `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>` };
      }
      return { tool_calls: [{ name: call.name, arguments: call.arguments }], ...(model === "slow:7b" ? { delayMs: opts.slowMs ?? 250 } : {}) };
    }
    if (model === "liar:7b") {
      const seen = shownRecords(req);
      const p = seen[0]?.path ?? "src/rag_common.py";
      return { content: `It is at ${p}:99999, as the code there shows.` };
    }
    if (model === "texter:7b" && !q.answerable) {
      return { content: `\`${subjectOf(q)}\` is defined in src/serve.py:1.` };
    }
    return { content: honestAnswer(req, q), ...(model === "slow:7b" ? { delayMs: opts.slowMs ?? 250 } : {}) };
  };
}
