/**
 * Fail-closed policy of the tool shim: codecite offers only reading tools, so
 * text that calls a shell, code runner, file writer or network tool is never turned into a call,
 * never mapped onto an offered tool by a loose name match, and never sent to the interpreter.
 * The model gets a tool error instead that says the tools are read-only and names them.
 *
 * Source of the rule: goose's fail-closed handling of `execute`/`execute_code` envelopes
 * (aaif-goose/goose `crates/goose/src/providers/toolshim.rs`, aaif-goose/goose pull #11492), extended from one alias family to every side-effect tool name that
 * local models are trained to call (agent frameworks' shell, editor, code and web tools).
 */
import type { OfferedTool, RejectedCall } from "./types.js";
import { editDistance } from "../evidence/close-names.js";

/**
 * Side-effect tool names (lower case, after {@link normalizeToolAlias}). A name in this set is
 * accepted only when a tool of exactly that name (ignoring case) is offered.
 */
const SIDE_EFFECT_TOOL_NAMES: ReadonlySet<string> = new Set([
  // shells and command runners
  "bash", "sh", "zsh", "shell", "powershell", "pwsh", "cmd", "terminal", "console",
  "exec", "execute", "execute_code", "execute_command", "execute_bash", "execute_shell",
  "run", "run_code", "run_command", "run_shell", "run_shell_command", "run_terminal_cmd",
  "run_terminal_command", "shell_command", "terminal_run", "command", "bash_tool", "shell_exec",
  // code interpreters
  "python", "python_repl", "python_interpreter", "ipython", "code_interpreter", "interpreter",
  "eval", "evaluate", "node", "javascript", "jupyter",
  // file writers and editors
  "write", "write_file", "write_to_file", "create_file", "save_file", "append_file", "edit",
  "edit_file", "multiedit", "multi_edit", "str_replace", "str_replace_editor",
  "str_replace_based_edit_tool", "text_editor", "apply_patch", "apply_diff", "patch",
  "replace_in_file", "insert", "delete", "delete_file", "remove_file", "rm", "mv", "move_file",
  "rename_file", "copy_file", "mkdir", "create_directory", "notebook_edit", "todowrite",
  // network
  "fetch", "web_fetch", "webfetch", "fetch_url", "http_request", "http", "curl", "wget",
  "browser", "browse", "open_url", "navigate", "web_search", "websearch", "search_web",
  "google_search", "brave_search", "computer",
]);

/**
 * The bare alias of a tool name as a model wrote it: trimmed, without a leading `functions.` /
 * `functions:` / `default_api.` prefix, a trailing `:N` index or `()`, reduced to its last
 * `.`- or `__`-separated segment, lower-cased, with characters other than `[a-z0-9_]` dropped.
 * Examples: `functions.execute():0` → `execute`, `developer__shell` → `shell`, `Bash` → `bash`.
 */
export function normalizeToolAlias(name: string): string {
  let n = name.trim().replace(/^["'`]+|["'`]+$/g, "");
  n = n.replace(/^(?:functions?|default_api)[.:]/i, "");
  n = n.replace(/(?:\(\))?(?::\d+)?$/, "").replace(/\(\)$/, "");
  const segments = n.split(/\.|__/);
  const last = segments[segments.length - 1] ?? "";
  return last.toLowerCase().replace(/[^a-z0-9_]/g, "");
}

/** Whether `name` (as a model wrote it) is a side-effect tool name ({@link SIDE_EFFECT_TOOL_NAMES}). */
export function isSideEffectToolName(name: string): boolean {
  return SIDE_EFFECT_TOOL_NAMES.has(normalizeToolAlias(name));
}

function toolList(tools: readonly OfferedTool[]): string {
  return tools.length === 0 ? "(none)" : tools.map((t) => t.name).join(", ");
}

/**
 * An offered tool the model probably meant, for the error message only (never used to map the
 * call): the single tool whose alias contains the written alias or is contained in it, or is
 * within two edits of it (aliases of four or more characters).
 */
function suggestTool(name: string, tools: readonly OfferedTool[]): string | undefined {
  const alias = normalizeToolAlias(name);
  if (alias.length < 3) return undefined;
  const near = tools.filter((t) => {
    const a = normalizeToolAlias(t.name);
    return a.includes(alias) || alias.includes(a) || (alias.length >= 4 && editDistance(a, alias, 2) <= 2);
  });
  return near.length === 1 ? near[0]!.name : undefined;
}

/**
 * The rejection for a call to a tool that is not offered. A side-effect name gets the read-only
 * wording; any other unknown name gets "no tool named …" and, when one offered tool is close,
 * "did you mean …?". Both name the available tools, so the model can correct itself
 * (feedback instead of goose's silent drops).
 */
export function rejectUnknownTool(name: string, args: unknown, tools: readonly OfferedTool[]): RejectedCall {
  const available = toolList(tools);
  if (isSideEffectToolName(name)) {
    const message =
      `${JSON.stringify(name)} is not available: the tools here are read-only (they search and read code; ` +
      `nothing runs commands, writes files or reaches the network). Available tools: ${available}.`;
    return { name, arguments: args, code: "UNKNOWN_TOOL", message };
  }
  const hint = suggestTool(name, tools);
  const message = `no tool named ${JSON.stringify(name)}.${hint ? ` Did you mean ${hint}?` : ""} The available tools are: ${available}.`;
  return { name, arguments: args, code: "UNKNOWN_TOOL", message };
}

/** Call-shaped uses of a name: JSON `"name": "x"`, tags, recipients, `x(`, `x{`, `x[ARGS]`. */
const CALL_SHAPES: readonly RegExp[] = [
  /"(?:name|tool_name|tool|function)"\s*:\s*"([^"\n]{1,80})"/g,
  /'(?:name|tool_name|tool|function)'\s*:\s*'([^'\n]{1,80})'/g,
  /<function=([^>\s]{1,80})>/g,
  /<(?:steptml:)?invoke\s+name="([^"]{1,80})"/g,
  /\bto=((?:functions\.)?[\w.-]{1,80})/g,
  /\bfunctions\.([\w.]{1,80})/g,
  /<tool_call>\s*([\w.-]{1,80})\s*\n/g,
  /\bcall:([\w.-]{1,80})\s*[{(]/g,
  /\[TOOL_CALLS\]\s*([\w.-]{1,80})/g,
  /(?:^|[\s[(,>])([A-Za-z_][\w.]{0,79})\s*\(\s*(?:\{|[A-Za-z_]\w*\s*=|["'])/gm,
  /(?:^|\n)\s*(?:TOOL_NAME|Using tool|Tool|Action)\s*:\s*([\w.-]{1,80})/gi,
];

/**
 * Whether `text` contains a call-shaped use of a side-effect tool name that is not offered
 * (for example `{"name": "bash", …}`, `<function=shell>`, `exec({…})`). Such text is never sent
 * to the interpreter: a second model could turn arbitrary code into a call of an offered tool
 * (aaif-goose/goose pull #11492 review).
 */
export function mentionsSideEffectCall(text: string, tools: readonly OfferedTool[]): boolean {
  const offered = new Set(tools.map((t) => t.name.toLowerCase()));
  for (const re of CALL_SHAPES) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const name = m[1] ?? "";
      if (isSideEffectToolName(name) && !offered.has(name.trim().toLowerCase())) return true;
    }
  }
  return false;
}
