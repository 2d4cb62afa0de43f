/**
 * The virtual model `codecite` (and `codecite/<model>`): a client that chats with it gets
 * codecite's grounded answer about the repository — the agent loop (`agent/run-agent.ts`) with
 * the read-only code tools over the gateway's root, streamed, with the evidence records and the
 * citation statuses appended in Markdown. `codecite` answers with the model `ask` would use;
 * `codecite/<model>` with that upstream model.
 *
 * The question is the conversation's last user message; earlier user and assistant messages
 * (text only, the newest {@link HISTORY_CHARS} characters) go before it as context. Client tools
 * are ignored: this model calls only codecite's own tools, and only inside the gateway. The
 * client's temperature, sampling settings and Ollama `keep_alive` apply to every model call the
 * agent makes.
 */
import { REASK_SEPARATOR, runAgent, type AgentResult, type AgentToolshimMode } from "../agent/index.js";
import { CONCERN_WORDS } from "../agent/claim-concern.js";
import type { Provider } from "../llm/types.js";
import type { Interpreter } from "../toolshim/index.js";
import type { ToolRegistry, Workspace } from "../tools/index.js";
import { failTurn } from "./shim-turn.js";
import type { GatewayStats } from "./stats.js";
import { GatewayError, type ChatWriter, type GatewayChat } from "./types.js";

/** The virtual model's name. */
export const VIRTUAL_MODEL = "codecite";

/** Longest earlier conversation passed with the question, in characters. */
const HISTORY_CHARS = 4000;

/** Whether `model` is the virtual model; for `codecite/<name>`, the upstream model it names. */
export function virtualTarget(model: string): { upstream?: string } | undefined {
  if (model === VIRTUAL_MODEL || model === `${VIRTUAL_MODEL}:latest`) return {};
  if (model.startsWith(`${VIRTUAL_MODEL}/`) && model.length > VIRTUAL_MODEL.length + 1) return { upstream: model.slice(VIRTUAL_MODEL.length + 1) };
  return undefined;
}

/** What the virtual model needs: the agent's inputs. */
export interface VirtualModelContext {
  provider: Provider;
  registry: ToolRegistry;
  workspace: Workspace;
  /** The model `codecite` (without `/<model>`) answers with. */
  defaultModel(): Promise<string>;
  toolshim?: AgentToolshimMode;
  maxSteps?: number;
  contextTokens?: number;
  interpreter?: Interpreter;
  stats: GatewayStats;
}

/** The question with the earlier conversation before it. */
function questionOf(chat: GatewayChat): string {
  const lastUser = chat.messages.map((m) => m.role).lastIndexOf("user");
  if (lastUser < 0 || chat.messages[lastUser]!.content.trim() === "") throw new GatewayError(400, "the conversation has no user message to answer");
  const question = chat.messages[lastUser]!.content.trim();
  const earlier = chat.messages
    .slice(0, lastUser)
    .filter((m) => (m.role === "user" || m.role === "assistant") && m.content.trim() !== "")
    .map((m) => `${m.role}: ${m.content.trim()}`)
    .join("\n\n");
  if (earlier === "") return question;
  return `Earlier in this conversation:\n${earlier.slice(-HISTORY_CHARS)}\n\nQuestion: ${question}`;
}

/** The Markdown appended to the answer: evidence records, then citations with their status. */
function evidenceMarkdown(result: AgentResult): string {
  const lines = ["", "", "---", `**Evidence** (${result.evidence.length})`];
  for (const e of result.evidence) {
    const range = e.start_line === e.end_line ? `${e.start_line}` : `${e.start_line}-${e.end_line}`;
    lines.push(`- \`${e.path}:${range}\` ${e.kind} \`${e.name}\``);
  }
  if (result.evidence.length === 0) lines.push("- none");
  lines.push("", `**Citations** (${result.citations.length})`);
  for (const c of result.citations) {
    const check = c.concern !== undefined ? ` (check: ${CONCERN_WORDS[c.concern]})` : "";
    lines.push(`- \`${c.path}:${c.line}\` ${c.status}${check}`);
  }
  if (result.citations.length === 0) lines.push("- none");
  return `${lines.join("\n")}\n`;
}

/**
 * Answers `chat` with the agent loop and writes the reply with `out`.
 * Never throws: failures end the reply with `out.fail`.
 */
export async function agentTurn(ctx: VirtualModelContext, chat: GatewayChat, target: { upstream?: string }, out: ChatWriter, signal: AbortSignal): Promise<void> {
  const stats = ctx.stats.model(chat.model);
  stats.turns++;
  try {
    const question = questionOf(chat);
    const model = target.upstream ?? (await ctx.defaultModel());
    /** Text went out since the last turn that made calls (a blank line then separates the next turn's text). */
    let wrote = false;
    let wroteAny = false;
    const result = await runAgent({
      provider: ctx.provider,
      model,
      registry: ctx.registry,
      workspace: ctx.workspace,
      question,
      stream: true,
      signal,
      ...(ctx.toolshim !== undefined ? { toolshim: ctx.toolshim } : {}),
      ...(ctx.maxSteps !== undefined ? { maxSteps: ctx.maxSteps } : {}),
      ...(ctx.contextTokens !== undefined ? { contextTokens: ctx.contextTokens } : {}),
      ...(ctx.interpreter !== undefined ? { interpreter: ctx.interpreter } : {}),
      // The client's sampling settings apply to every model call of the agent.
      ...(chat.temperature !== undefined ? { temperature: chat.temperature } : {}),
      ...(chat.sampling !== undefined ? { sampling: chat.sampling } : {}),
      ...(chat.keepAlive !== undefined ? { keepAlive: chat.keepAlive } : {}),
      onEvent: (e) => {
        if (e.type === "content" && e.delta !== "") {
          out.content(e.delta);
          wrote = wroteAny = true;
        } else if (e.type === "thinking") out.thinking(e.delta);
        else if (e.type === "turn_end" && e.tool_calls > 0 && wrote) {
          out.content("\n\n");
          wrote = false;
        } else if (e.type === "notice" && e.reason === "reask" && wroteAny) {
          // The model answers again after a failed citation check: say which answer is which, as `ask` does.
          out.content(`${wrote ? "\n\n" : ""}${REASK_SEPARATOR}\n\n`);
          wrote = false;
        }
      },
    });
    // A non-streamed ending (the step-limit note) is in the answer only.
    if (!wroteAny) out.content(result.answer);
    out.content(evidenceMarkdown(result));
    out.finish("stop");
  } catch (err) {
    failTurn(err, signal, stats, out, ctx.provider);
  }
}
