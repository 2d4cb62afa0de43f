/**
 * Advice in the CLI's words. The evidence layer keeps tools, parameters and advised actions in
 * its notes, hints and error messages as typed terms (`src/evidence/advice.ts`); the model sees
 * them as tool and parameter names, and the human output of the evidence commands renders them
 * here as commands and flags (README "CLI reference"):
 *
 * - a tool becomes its command: `read_evidence` → `codecite read`, `search_code` →
 *   `codecite search`, `find_symbol` → `codecite symbol`, `find_importers` →
 *   `codecite importers`, `find_references` → `codecite refs`, `read_git_diff` → `codecite diff`;
 * - a parameter becomes its flag (`max_results` → `--max-results`), or the usage label of the
 *   command's positional argument (`module_name` → `<module>` in `importers`); an assignment
 *   `start_line=201` becomes `--start-line 201`;
 * - `set regex to true` becomes `add --regex` (`false`: `drop --regex`);
 * - advice naming an option the command does not have is dropped: an option list keeps the
 *   options the command has (`(--path, --kind)` → `(--path)` for `search`, nothing for
 *   `importers`), and a clause advising any other missing option goes. A parameter after a
 *   tool in the same clause belongs to that tool's command;
 * - a location is shown as the records are (`RootView`): from the current folder when `--root` is another;
 * - a clause about output cut to a budget (`(flag truncated)` for the model) is dropped: the
 *   command prints one note of its own on what was cut and how to see it whole (`--all`, `--max-lines`).
 */
import { renderAdvice, type AdviceText, type Clause, type Term } from "../evidence/advice.js";
import { SAME_DIR_VIEW, type RootView } from "./root-view.js";

/** Command-line options of each evidence command, as registered in `commands/<name>.ts`. */
export const EVIDENCE_COMMANDS = {
  search: { tool: "search_code", positional: ["query", "<query>"], options: ["--all", "--max-lines", "--regex", "--path", "--glob", "--case-sensitive", "--max-results", "--root", "--json"] },
  symbol: { tool: "find_symbol", positional: ["name", "<name>"], options: ["--all", "--max-lines", "--kind", "--path", "--max-results", "--root", "--json"] },
  importers: { tool: "find_importers", positional: ["module_name", "<module>"], options: ["--all", "--include-submodules", "--max-lines", "--max-results", "--root", "--json"] },
  refs: { tool: "find_references", positional: ["name", "<name>"], options: ["--all", "--max-lines", "--path", "--kind", "--max-results", "--root", "--json"] },
  read: { tool: "read_evidence", positional: ["path", "<path>"], options: ["--all", "--max-lines", "--start-line", "--end-line", "--root", "--json"] },
  diff: { tool: "read_git_diff", positional: undefined, options: ["--all", "--max-lines", "--base", "--head", "--path", "--context-lines", "--stat", "--root", "--json"] },
} as const satisfies Record<string, { tool: string; positional: readonly [string, string] | undefined; options: readonly string[] }>;

/** An evidence command's name (`search`, `symbol`, `importers`, `read`, `diff`). */
export type EvidenceCommandName = keyof typeof EVIDENCE_COMMANDS;

const COMMAND_OF_TOOL: ReadonlyMap<string, EvidenceCommandName> = new Map(
  (Object.entries(EVIDENCE_COMMANDS) as [EvidenceCommandName, (typeof EVIDENCE_COMMANDS)[EvidenceCommandName]][]).map(([cmd, spec]) => [spec.tool, cmd]),
);

const flagOf = (param: string): string => `--${param.replace(/_/g, "-")}`;

const has = (cmd: EvidenceCommandName, flag: string): boolean => (EVIDENCE_COMMANDS[cmd].options as readonly string[]).includes(flag);

/** The command a term belongs to: the last tool named before it in its clause, else `command`. */
function ownerOf(term: Term, clause: Clause, command: EvidenceCommandName): EvidenceCommandName {
  let owner = command;
  for (const part of clause) {
    if (part === term) break;
    if (typeof part !== "string" && part.kind === "tool") owner = COMMAND_OF_TOOL.get(part.tool) ?? owner;
  }
  return owner;
}

/** A parameter as `owner` spells it: its positional label or its flag; `undefined` when it has neither. */
function optionOf(param: string, owner: EvidenceCommandName): string | undefined {
  const positional = EVIDENCE_COMMANDS[owner].positional;
  if (positional?.[0] === param) return positional[1];
  const flag = flagOf(param);
  return has(owner, flag) ? flag : undefined;
}

/**
 * Renders advice text for a user of `codecite <command>` (rules in the module comment).
 * @param command - the evidence command whose output this is.
 * @param view - how the records' paths are shown; a location in the text is shown the same way.
 * @returns the text; `""` when every clause advised options the command lacks.
 */
export function adviceForCommand(text: AdviceText, command: EvidenceCommandName, view: RootView = SAME_DIR_VIEW): string {
  return renderAdvice(text, (term, clause) => {
    const owner = ownerOf(term, clause, command);
    switch (term.kind) {
      case "tool": {
        const cmd = COMMAND_OF_TOOL.get(term.tool);
        return cmd === undefined ? term.tool : `codecite ${cmd}`;
      }
      case "param": {
        const option = optionOf(term.param, owner);
        if (option === undefined) return undefined;
        return term.value === undefined || option.startsWith("<") ? option : `${option} ${term.value}`;
      }
      case "param_list": {
        const left = term.params.map((p) => optionOf(p, owner)).filter((o): o is string => o !== undefined && o.startsWith("--"));
        return left.length === 0 ? "" : `(${left.join(", ")})`;
      }
      case "set_flag": {
        const option = optionOf(term.param, owner);
        if (option === undefined) return undefined;
        return `${term.value ? "add" : "drop"} ${option}`;
      }
      case "read_range":
        return "codecite read with --start-line and --end-line";
      case "search_folder":
        return "codecite search --path <folder>";
      case "location":
        return term.line === undefined ? view.show(term.path) : `${view.show(term.path)}:${term.line}`;
      case "cut_mark":
        // What was cut and how to see it whole is said once, by the command's own note (`evidence-command.ts` cutNote).
        return undefined;
    }
  });
}
