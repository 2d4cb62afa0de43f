/**
 * Shim `on` mode rendering (ARCHITECTURE.md "Tool-shim modes"): no `tools` are sent;
 * the catalogue goes into the system prompt as text, and earlier calls and results go into the
 * history as text, in the same JSON shape the instruction asks for and stage 2 parses.
 *
 * Inspired by goose's shim prompt and history conversion (aaif-goose/goose `crates/goose/src/providers/toolshim.rs`
 * `modify_system_prompt_for_tool_json`, `convert_tool_messages_to_text`), without its weaknesses: descriptions are plain text (no debug syntax), the
 * schema is compact one-line JSON, calls are valid one-line JSON with no `Using tool:` prefix,
 * results are labelled with the tool name, consecutive results are merged into one message, and
 * nothing of a result is dropped.
 */
import type { JsonSchema, Message, ToolCall } from "../llm/types.js";
import type { OfferedTool } from "./types.js";

/** The one JSON line that stands for a call, in prompts and in history: `{"name":…,"arguments":{…}}`. */
function formatCallJson(call: { name: string; arguments: unknown }): string {
  return JSON.stringify({ name: call.name, arguments: call.arguments ?? {} });
}

/** First sentence or line of a description, at most 200 characters. */
export function oneLine(description: string | undefined): string {
  const first = (description ?? "").trim().split(/\n/)[0]!.trim();
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(first)?.[1] ?? first;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}

function compactSchema(schema: JsonSchema | undefined): string {
  if (!schema) return '{"type":"object"}';
  const { $schema: _drop, ...rest } = schema;
  return JSON.stringify(rest);
}

function sampleValue(schema: unknown): unknown {
  const s = (typeof schema === "object" && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (t) {
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "text";
  }
}

function exampleCall(tool: OfferedTool): string {
  const props = (tool.parameters?.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(tool.parameters?.required) ? (tool.parameters.required as string[]) : [];
  const keys = required.length > 0 ? required : Object.keys(props).slice(0, 1);
  const args: Record<string, unknown> = {};
  for (const k of keys) args[k] = sampleValue(props[k]);
  return formatCallJson({ name: tool.name, arguments: args });
}

/** Label of a tool result in shim history: `Tool result (search_code):`. */
function toolResultLabel(toolName: string): string {
  return `Tool result (${toolName}):`;
}

/**
 * The system-prompt section that replaces native tools in shim `on` mode: each tool's name,
 * one-line description and compact JSON Schema, then the instruction to answer with one JSON
 * object `{"name": …, "arguments": {…}}` per call (one per line, nothing else), or with plain
 * text for the final answer. It says nothing of what the tools do: the gateway renders a client's
 * own tools with it (`src/serve/shim-turn.ts`), which may write files; codecite's agent says its
 * tools are read-only in its own system prompt (`src/agent/prompt.ts`).
 *
 * @returns text to append to the system prompt (no leading or trailing blank line); `""` when
 *   no tool is offered.
 */
export function renderCatalogPrompt(tools: readonly OfferedTool[]): string {
  if (tools.length === 0) return "";
  const lines = ["# Tools", "", "You can call these tools.", ""];
  for (const t of tools) {
    const d = oneLine(t.description);
    lines.push(`${t.name}${d ? ` - ${d}` : ""}`, `  parameters: ${compactSchema(t.parameters)}`);
  }
  lines.push(
    "",
    "To call a tool, reply with one JSON object per call, each on its own line, and nothing else, like this:",
    exampleCall(tools[0]!),
    "Use exactly the tool names and parameter names above. The results come back in a message that starts with",
    `"${toolResultLabel("<tool name>")}". When you have what you need, reply with the final answer in plain text, without JSON.`,
  );
  return lines.join("\n");
}

/**
 * Render a conversation for a model that gets no native tools: assistant tool calls become
 * JSON lines (the {@link formatCallJson} shape) after the assistant's text, and tool results
 * become user messages labelled with the tool name ({@link toolResultLabel}), with the results'
 * images; consecutive results share one message. The tool name of a result comes from `tool_name`, else from the call with
 * the same `tool_call_id`. Other messages are copied unchanged.
 *
 * @returns new messages without `tool_calls`, `tool_name` or `tool_call_id`; the input is not mutated.
 */
export function renderHistoryForShim(messages: Message[]): Message[] {
  const out: Message[] = [];
  const nameById = new Map<string, string>();
  let lastWasResult = false;
  for (const m of messages) {
    if (m.role === "assistant" && m.tool_calls !== undefined && m.tool_calls.length > 0) {
      const { tool_calls: calls, ...rest } = m;
      for (const c of calls as ToolCall[]) if (c.id !== undefined) nameById.set(c.id, c.name);
      const text = [m.content.trim(), ...calls.map((c) => formatCallJson(c))].filter((s) => s !== "").join("\n");
      out.push({ ...rest, content: text });
      lastWasResult = false;
      continue;
    }
    if (m.role === "tool") {
      const name = m.tool_name ?? (m.tool_call_id !== undefined ? nameById.get(m.tool_call_id) : undefined) ?? "tool";
      const block = `${toolResultLabel(name)}\n${m.content}`;
      const prev = out[out.length - 1];
      // A result's images (a screenshot tool's) go with the user message that holds the result.
      const images = m.images ?? [];
      if (lastWasResult && prev) {
        prev.content += `\n\n${block}`;
        if (images.length > 0) prev.images = [...(prev.images ?? []), ...images];
      } else out.push({ role: "user", content: block, ...(images.length > 0 ? { images: [...images] } : {}) });
      lastWasResult = true;
      continue;
    }
    out.push({ ...m });
    lastWasResult = false;
  }
  return out;
}
