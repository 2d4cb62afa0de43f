/**
 * The shared body of the evidence commands (`search`, `symbol`, `importers`, `read`, `diff`):
 * open the workspace, run one code tool through the registry (the same validation and the same
 * function the model's calls go through), and print the tool result envelope (`--json`,
 * unchanged) or the human rendering: locations and suggested commands as seen from the current
 * directory (`root-view.ts`), notes and error texts rendered from their data in the CLI's words
 * (`advice.ts`). A tool
 * error exits 2. Heavy modules are imported here, lazily.
 */
import { EVIDENCE_COMMANDS, adviceForCommand, type EvidenceCommandName } from "./advice.js";
import type { Evidence, ToolError } from "../evidence/evidence.js";
import { colorsFor, exitWhenWritten, logLine, printJson } from "./output.js";
import { renderEvidenceList, renderSummary } from "./render.js";
import { SAME_DIR_VIEW, rootView, type RootView } from "./root-view.js";
import { defaultRoot, modulePathForRoot, pathOptionForRoot } from "./locations.js";
import type { OutputScope } from "../evidence/budget.js";
import type { DispatchOutcome } from "../tools/registry.js";
import { visibleText } from "../evidence/visible-text.js";
import { watchQuery, type QueryActivity } from "./query-activity.js";
import { resolveCacheDir } from "../fact-cache/cache-dir.js";

/** What `runEvidenceCommand` runs: the command's code tool with its arguments, over `root`. */
export interface EvidenceCommandInput {
  /** CLI command name, e.g. `importers`; its tool and options come from {@link EVIDENCE_COMMANDS}. */
  command: EvidenceCommandName;
  /** Tool arguments; `undefined` values are dropped (the schema's defaults apply). */
  args: Record<string, unknown>;
  /**
   * `--root` as given (absolute, or relative to the current directory); undefined: the enclosing
   * git work tree's top, else the current directory (`locations.ts` {@link defaultRoot}).
   */
  root: string | undefined;
  json: boolean;
  /** `--all` / `--max-lines` (`evidence-options.ts`); undefined: the model's budget. */
  output?: OutputScope;
  /** `diff --stat`: print the changed files with added/removed line counts instead of the hunks. */
  stat?: boolean;
  /**
   * `read file:N` / `read file:start-end`: the location as the user pasted it and the last line it
   * names. A line past the end of the file is then reported in those terms (`sessions.py:925: the
   * file has 920 lines`), not as the tool's `start_line` / `end_line` (human output only).
   */
  pasted?: { text: string; line: number; windowEnd: number };
}

/**
 * A tool error as a command-line user needs it, rendered from the error's data: validation
 * issues name the command's options (`invalid value: --max-results: Too small: …`, then a
 * pointer to `codecite <command> --help` instead of the model's JSON Schema hint); other errors
 * keep their code and word their message and hint for the command ({@link adviceForCommand}).
 * (`--json` prints the envelope unchanged on stdout, and this on stderr.)
 */
export function errorForCommandLine(error: ToolError, command: EvidenceCommandName, view: RootView = SAME_DIR_VIEW): { code: string; message: string; hint?: string } {
  if (error.issues === undefined) {
    const hint = error.hintText === undefined ? undefined : adviceForCommand(error.hintText, command, view);
    return { code: error.code, message: adviceForCommand(error.messageText, command, view), ...(hint ? { hint } : {}) };
  }
  const positional = EVIDENCE_COMMANDS[command].positional;
  const option = (param: string): string => (param === positional?.[0] ? positional[1] : `--${param.replace(/_/g, "-")}`);
  // A value outside a fixed set names the set in plain words (zod says `Invalid option: expected one of "function"|"class"|…`).
  const problem = (i: (typeof error.issues)[number]): string => {
    const choices = i.expected?.enum;
    return Array.isArray(choices) && choices.length > 0 ? `must be one of ${choices.map(String).join(", ")}` : i.problem;
  };
  const issues = error.issues.map((i) => (i.param === "" ? problem(i) : `${option(i.param)}: ${problem(i)}`));
  return { code: error.code, message: `invalid value: ${issues.join("; ")}`, hint: `See \`codecite ${command} --help\`.` };
}

/**
 * Runs one code tool and prints its result; sets `process.exitCode` to 2 on a tool error. Shows a
 * progress line while files are parsed, and the time line with `CODECITE_TIMING=1`
 * (`query-activity.ts`). Then ends the process once its output is written (`output.ts`
 * {@link exitWhenWritten}): a command is one query, nothing runs after it. A throw (reported by
 * `runAction`) ends the process the usual way.
 */
export async function runEvidenceCommand(input: EvidenceCommandInput): Promise<void> {
  const activity = watchQuery({ json: input.json });
  try {
    await runAndPrint(input, activity);
  } finally {
    activity.finish();
  }
  await exitWhenWritten();
}

async function runAndPrint(input: EvidenceCommandInput, activity: QueryActivity): Promise<void> {
  const [{ Workspace }, { createCodeToolRegistry }] = await Promise.all([
    import("../evidence/sandbox/workspace.js"),
    import("../tools/code-tools.js"),
  ]);
  activity.phaseDone("load");
  const root = defaultRoot(input.root, logLine);
  // The ignore-file scan keeps a snapshot in the cache folder: a fresh process checks folder stamps instead of reading the tree.
  const workspace = await Workspace.open(root, { scanCacheDir: resolveCacheDir() });
  activity.phaseDone("workspace");
  const args = Object.fromEntries(Object.entries(input.args).filter(([, v]) => v !== undefined));
  // A pasted location (current-directory-relative or absolute, `:line` dropped) as the tool's repository-relative path.
  if (typeof args.path === "string") args.path = pathOptionForRoot(args.path, root);
  // A module path typed relative to the current folder (`importers core/constants` in a subfolder).
  if (typeof args.module_name === "string") args.module_name = modulePathForRoot(args.module_name, root);
  const tool = EVIDENCE_COMMANDS[input.command].tool;
  const { result, note, error } = await createCodeToolRegistry().run(
    { name: tool, arguments: args },
    { workspace, ...(input.output ? { output: input.output } : {}) },
  );
  activity.phaseDone("query");
  try {
    print(input, root, result, note, error);
  } finally {
    activity.phaseDone("output");
  }
}

function print(
  input: EvidenceCommandInput,
  root: string,
  result: DispatchOutcome["result"],
  note: DispatchOutcome["note"],
  error: DispatchOutcome["error"],
): void {
  if (input.stat === true && result.ok && "evidence" in result) {
    const files = diffStat(result.evidence);
    if (input.json) printJson({ ok: true, files });
    else process.stdout.write(renderDiffStat(files, rootView(root)));
    // No changed file: the note says what was compared (and that untracked files are not shown).
    if (!input.json && files.length === 0 && note !== undefined) logLine(`${colorsFor(process.stderr).dim("note:")} ${visibleText(adviceForCommand(note, input.command))}`);
    return;
  }
  if (input.json) printJson(result);
  const err = colorsFor(process.stderr);
  if (!result.ok) {
    // With --json too (as every other command reports a failure): stdout carries the envelope, stderr is for people.
    const shown = error === undefined ? result.error : (pastedPastEnd(input, error) ?? errorForCommandLine(error, input.command, rootView(root)));
    // A regex error's message is the pattern as typed with carets under it, on lines of their own.
    const layout = error !== undefined && "pattern" in error && "carets" in error && "problem" in error ? regexLayout(error) : undefined;
    logLine(`${err.red("codecite: error:")} ${shown.code}: ${layout ?? visibleText(shown.message)}`);
    if (shown.hint) logLine(`${err.dim("hint:")} ${visibleText(shown.hint)}`);
    process.exitCode = 2;
    return;
  }
  if (input.json) return;
  if (!("evidence" in result)) {
    process.stdout.write(`${visibleText(JSON.stringify(result.result, null, 2), { multiline: true })}\n`);
    return;
  }
  const view = rootView(root);
  process.stdout.write(renderEvidenceList(result.evidence, colorsFor(process.stdout), view));
  logLine(err.dim(renderSummary(result.evidence.length, result.total)));
  const shownNote = pastedNote(input, result) ?? (note === undefined ? "" : adviceForCommand(note, input.command, view));
  if (shownNote) logLine(`${err.dim("note:")} ${visibleText(shownNote)}`);
  const cut = cutNote(result, input.output);
  if (cut) logLine(`${err.dim("note:")} ${cut}`);
}

/**
 * The one note on output cut for size, and how to see all of it; `undefined` when nothing was cut
 * that the tool's note (whose clauses about cuts the CLI leaves out, `advice.ts`) does not cover.
 * Without `--all`: the model's budget cut it, `--all` lifts it. With `--all --max-lines N`:
 * snippets of more than N lines, which leaving out `--max-lines` shows whole. Lines cut for
 * length (search keeps a window of a long line around its match even with `--all`): `read --all`.
 */
function cutNote(result: { truncated: boolean; evidence: readonly Evidence[] }, output: OutputScope | undefined): string | undefined {
  if (output?.all !== true) {
    return result.truncated ? "output is cut to fit a model's budget; add --all to see every record with whole snippets, or --all --max-lines N for N lines of each." : undefined;
  }
  const cut = result.evidence.filter((e) => e.flags?.includes("truncated") === true);
  const max = output.maxSnippetLines;
  // A record cut by lines holds fewer lines than its range (a diff hunk's lines are not its range: any cut one under --max-lines).
  const byLines = max !== undefined && cut.some((e) => e.kind === "diff" || e.snippet.split("\n").length < e.end_line - e.start_line + 1);
  const clauses = [
    ...(byLines ? [`snippets are cut to ${max} lines (--max-lines ${max}); leave out --max-lines to see them whole`] : []),
    ...(cut.some((e) => e.kind !== "diff" && e.snippet.split("\n").length >= e.end_line - e.start_line + 1) ? ["long lines are cut (ending in …); codecite read --all shows whole lines"] : []),
  ];
  return clauses.length === 0 ? undefined : `${clauses.join("; ")}.`;
}

/** `regex parse error: <problem>`, then the pattern and its caret line, indented (each line shown visibly). */
function regexLayout(error: { pattern: unknown; carets: unknown; problem: unknown }): string | undefined {
  const { pattern, carets, problem } = error;
  if (typeof pattern !== "string" || typeof carets !== "string" || typeof problem !== "string") return undefined;
  return [`regex parse error: ${visibleText(problem)}`, `    ${visibleText(pattern)}`, ...(carets === "" ? [] : [`    ${carets}`])].join("\n");
}

/** The error of a pasted location whose window starts past the end of the file (`read file:N`), else `undefined`. */
function pastedPastEnd(input: EvidenceCommandInput, error: ToolError): { code: string; message: string; hint: string } | undefined {
  if (input.pasted === undefined || !("lines" in error) || typeof error.lines !== "number") return undefined;
  return {
    code: error.code,
    message: `${input.pasted.text}: the file has ${error.lines} lines`,
    hint: `Give a line from 1 to ${error.lines}.`,
  };
}

/**
 * The note of a pasted location whose window runs past the end of the file, else `undefined`:
 * the tool reports that as a clamped `end_line`, which the user never typed. An uncut result that
 * ends before the window's end ends at the file's last line; when that is before the line pasted,
 * the note says that line does not exist.
 */
function pastedNote(input: EvidenceCommandInput, result: { ok: true; evidence?: readonly { start_line: number; end_line: number }[]; truncated?: boolean }): string | undefined {
  const rec = result.evidence?.[0];
  const pasted = input.pasted;
  if (pasted === undefined || rec === undefined || result.truncated !== false || rec.end_line >= pasted.windowEnd) return undefined;
  const shown = `showing lines ${rec.start_line}-${rec.end_line}`;
  return rec.end_line < pasted.line
    ? `${pasted.text}: line ${pasted.line} does not exist, the file has ${rec.end_line} lines; ${shown}.`
    : `${pasted.text}: ${shown}, the end of the file.`;
}

/** One changed file of `diff --stat`: lines added and removed, from its hunks. */
export interface DiffStatFile {
  path: string;
  added: number;
  removed: number;
}

/**
 * Per-file added/removed counts from `diff` records (unified-diff hunks: lines starting with
 * `+` are added, `-` removed; the `@@` header and context lines count for neither), in path order.
 */
function diffStat(evidence: readonly { path: string; snippet: string }[]): DiffStatFile[] {
  const byPath = new Map<string, DiffStatFile>();
  for (const e of evidence) {
    const f = byPath.get(e.path) ?? { path: e.path, added: 0, removed: 0 };
    for (const line of e.snippet.split("\n")) {
      if (line.startsWith("+")) f.added++;
      else if (line.startsWith("-")) f.removed++;
    }
    byPath.set(e.path, f);
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `path | +A -R` lines and a total line, like `git diff --stat` without the bars. */
function renderDiffStat(files: readonly DiffStatFile[], view: { show(rel: string): string }): string {
  if (files.length === 0) return "";
  const shown = files.map((f) => visibleText(view.show(f.path)));
  const width = Math.max(...shown.map((s) => s.length));
  const lines = files.map((f, i) => `${(shown[i] as string).padEnd(width)} | +${f.added} -${f.removed}`);
  const added = files.reduce((s, f) => s + f.added, 0);
  const removed = files.reduce((s, f) => s + f.removed, 0);
  lines.push(`${files.length} file${files.length === 1 ? "" : "s"} changed, ${added} insertion${added === 1 ? "" : "s"}(+), ${removed} deletion${removed === 1 ? "" : "s"}(-)`);
  return `${lines.join("\n")}\n`;
}
