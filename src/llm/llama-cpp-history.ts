/**
 * Our chat messages as node-llama-cpp chat history (`ChatHistoryItem[]`).
 */
import type { ChatHistoryItem, ChatModelFunctionCall } from "./node-llama-cpp.js";
import type { Message } from "./types.js";

function parseResult(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

/**
 * Converts our messages to node-llama-cpp chat history. An assistant turn becomes a model
 * response holding its text and its function calls; the tool messages that follow fill in
 * those calls' results (by `tool_call_id`, then by `tool_name`, then in order). A tool
 * message that answers no call becomes a user message. The history always ends with a model
 * response, which generation continues.
 */
export function toChatHistory(messages: readonly Message[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  let pending: { id?: string; call: ChatModelFunctionCall; answered: boolean }[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "system":
        items.push({ type: "system", text: m.content });
        break;
      case "user":
        items.push({ type: "user", text: m.content });
        break;
      case "assistant": {
        const response: (string | ChatModelFunctionCall)[] = [];
        if (m.content !== "") response.push(m.content);
        pending = (m.tool_calls ?? []).map((c) => {
          const call: ChatModelFunctionCall = { type: "functionCall", name: c.name, params: c.arguments, result: "(no result)" };
          response.push(call);
          return { id: c.id, call, answered: false };
        });
        items.push({ type: "model", response });
        break;
      }
      case "tool": {
        const open = pending.filter((p) => !p.answered);
        const target =
          open.find((p) => m.tool_call_id !== undefined && p.id === m.tool_call_id) ??
          open.find((p) => m.tool_name !== undefined && p.call.name === m.tool_name) ??
          open[0];
        if (target) {
          target.call.result = parseResult(m.content);
          target.answered = true;
        } else {
          items.push({ type: "user", text: `Tool result${m.tool_name ? ` of ${m.tool_name}` : ""}:\n${m.content}` });
        }
        break;
      }
    }
  }
  if (items.at(-1)?.type !== "model") items.push({ type: "model", response: [] });
  return items;
}

