/**
 * The agent's view of the tool shim (`src/toolshim/index.ts`). TEMPORARY native-only stand-in
 * until the shim pipeline lands: `recover` passes native calls through and recovers nothing.
 */
import type { Message } from "../llm/types.js";
import type { AssistantTurn, OfferedTool, RecoverResult } from "../toolshim/types.js";

export interface Interpreter {
  interpret(text: string, tools: readonly OfferedTool[], signal?: AbortSignal): Promise<unknown[]>;
}

export async function recover(
  turn: AssistantTurn,
  _tools: readonly OfferedTool[],
  _opts: { interpreter?: Interpreter; signal?: AbortSignal } = {},
): Promise<RecoverResult> {
  const calls = turn.tool_calls ?? [];
  const out: RecoverResult = {
    tool_calls: calls,
    content: turn.content,
    recovered_by: calls.length > 0 ? "native" : "none",
    rejected: [],
    diagnostics: [],
  };
  if (turn.thinking !== undefined) out.thinking = turn.thinking;
  return out;
}

export function renderCatalogPrompt(tools: readonly OfferedTool[]): string {
  return tools.map((t) => `Tool: ${t.name}\nSchema: ${JSON.stringify(t.parameters ?? {})}`).join("\n\n");
}

export function renderHistoryForShim(messages: Message[]): Message[] {
  return messages;
}

export class StreamFilter {
  push(delta: string): string {
    return delta;
  }
  end(): string {
    return "";
  }
}
