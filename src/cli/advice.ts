/**
 * Advice written for the model, translated for a command-line user.
 *
 * The evidence layer's `note`s and error `hint`s speak the model's tool language (the tool
 * definitions): tool names (`search_code`), parameters (`max_results`, `kind`) and assignments
 * (`start_line=201`). They must stay that way in tool results, MCP and `--json`. Human output of
 * the evidence commands shows them through {@link humanizeAdvice}, which says the same with
 * the CLI's words (README "CLI reference"):
 *
 * - tool names become commands: `read_evidence` → `codecite read`, `search_code` →
 *   `codecite search`, `find_symbol` → `codecite symbol`, `find_importers` →
 *   `codecite importers`, `find_references` → `codecite refs`, `read_git_diff` → `codecite diff`;
 * - `param=value` becomes `--param-name value` (`start_line=201` → `--start-line 201`);
 * - parameter names with an underscore (`max_results`, `start_line`, `end_line`,
 *   `context_lines`, `case_sensitive`, `module_name`) become flags (`--max-results`), or the
 *   usage label of the command's positional argument (`module_name` → `<module>` in
 *   `importers`);
 * - one-word parameters that are also plain words (`path`, `kind`, `regex`, `glob`, `base`,
 *   `head`) become flags only in the advice phrases the tools use ("with path", "Drop kind",
 *   "set regex to true" → "add --regex", "set regex to false" → "drop --regex", "(path, kind)");
 * - advice naming an option the command does not have is dropped: an option list keeps the
 *   options the command has ("(--path, --kind)" → "(--path)" for `search`, nothing for
 *   `importers`), and any other sentence or clause advising a missing option goes. A flag
 *   written after `codecite <command>` in the same sentence is checked against that command.
 */

/** Command-line options of each evidence command, as registered in `commands/<name>.ts`. */
export const EVIDENCE_COMMANDS = {
  search: { tool: "search_code", positional: ["query", "<query>"], options: ["--regex", "--path", "--glob", "--case-sensitive", "--max-results", "--root", "--json"] },
  symbol: { tool: "find_symbol", positional: ["name", "<name>"], options: ["--kind", "--path", "--max-results", "--root", "--json"] },
  importers: { tool: "find_importers", positional: ["module_name", "<module>"], options: ["--max-results", "--root", "--json"] },
  refs: { tool: "find_references", positional: ["name", "<name>"], options: ["--path", "--kind", "--max-results", "--root", "--json"] },
  read: { tool: "read_evidence", positional: ["path", "<path>"], options: ["--start-line", "--end-line", "--root", "--json"] },
  diff: { tool: "read_git_diff", positional: undefined, options: ["--base", "--head", "--path", "--context-lines", "--root", "--json"] },
} as const satisfies Record<string, { tool: string; positional: readonly [string, string] | undefined; options: readonly string[] }>;

/** An evidence command's name (`search`, `symbol`, `importers`, `read`, `diff`). */
export type EvidenceCommandName = keyof typeof EVIDENCE_COMMANDS;

const COMMAND_OF_TOOL: ReadonlyMap<string, EvidenceCommandName> = new Map(
  (Object.entries(EVIDENCE_COMMANDS) as [EvidenceCommandName, (typeof EVIDENCE_COMMANDS)[EvidenceCommandName]][]).map(([cmd, spec]) => [spec.tool, cmd]),
);

/** Tool parameters (every tool's), longest first so that `start_line` is tried before `path`. */
const PARAMETERS = [
  "case_sensitive",
  "context_lines",
  "max_results",
  "module_name",
  "start_line",
  "end_line",
  "query",
  "regex",
  "glob",
  "kind",
  "name",
  "path",
  "base",
  "head",
];

/** Parameters whose names are unambiguous in prose (they hold an underscore). */
const SNAKE_PARAMETERS = PARAMETERS.filter((p) => p.includes("_"));

const flagOf = (param: string): string => `--${param.replace(/_/g, "-")}`;

/** Advice phrases that name one-word parameters, and their CLI wording (applied in order). */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bread_evidence with a line range\b/g, "codecite read with --start-line and --end-line"],
  [/\bsearch_code with path set to the folder\b/g, "codecite search --path <folder>"],
  [/\bset regex to true\b/g, "add --regex"],
  [/\bset regex to false\b/g, "drop --regex"],
  [/\b([Dd])rop kind\b/g, "$1rop --kind"],
  [/\(path, kind\)/g, "(--path, --kind)"],
  [/\b([Pp]ass|[Ww]ith|[Ww]ithout) path or glob\b/g, "$1 --path or --glob"],
  [/\b([Pp]ass|[Ww]ith|[Ww]ithout) path\b/g, "$1 --path"],
  [/\b([Pp]ass) base and head\b/g, "$1 --base and --head"],
  [/(^|[.;] )base defaults to\b/g, "$1--base defaults to"],
];

/** `param=value` (the value runs to white space, or to `,;)` or a sentence-ending `.`). */
const ASSIGNMENT = new RegExp(`\\b(${PARAMETERS.join("|")})=([^\\s,;)]+?)(?=[.,;)]?(?:\\s|$))`, "g");
const SNAKE = new RegExp(`\\b(${SNAKE_PARAMETERS.join("|")})\\b`, "g");
const TOOL = new RegExp(`\\b(${[...COMMAND_OF_TOOL.keys()].join("|")})\\b`, "g");

/**
 * Sentences and `;`-clauses: the units advice is dropped in. A clause ends at `.` or `;` followed
 * by white space or the end (so `a.py` or `e.g.x` do not end one); the separators stay attached.
 */
function clauses(text: string): string[] {
  return text.split(/(?<=[.;])\s+/).filter((c) => c !== "");
}

/** The command a flag at offset `at` of `clause` belongs to: the last `codecite <cmd>` named before it, else `command`. */
function ownerOf(clause: string, at: number, command: EvidenceCommandName): EvidenceCommandName {
  let owner = command;
  for (const m of clause.slice(0, at).matchAll(/\bcodecite (search|symbol|importers|read|diff)\b/g)) owner = m[1] as EvidenceCommandName;
  return owner;
}

const has = (cmd: EvidenceCommandName, flag: string): boolean => (EVIDENCE_COMMANDS[cmd].options as readonly string[]).includes(flag);

/** Drops advice naming options `command` lacks (see the module comment). */
function dropMissingOptions(text: string, command: EvidenceCommandName): string {
  const kept: string[] = [];
  let endedSentence = false;
  for (const original of clauses(text)) {
    let clause = original;
    // Option lists: "(--a, --b)" and "--a or --b" keep the options their command has.
    clause = clause.replace(/ ?\((--[a-z-]+(?:, --[a-z-]+)*)\)/g, (whole: string, list: string, at: number) => {
      const owner = ownerOf(clause, at, command);
      const left = list.split(", ").filter((f) => has(owner, f));
      return left.length === 0 ? "" : `${whole.startsWith(" ") ? " " : ""}(${left.join(", ")})`;
    });
    clause = clause.replace(/(--[a-z-]+) or (--[a-z-]+)/g, (whole: string, a: string, b: string, at: number) => {
      const owner = ownerOf(clause, at, command);
      const left = [a, b].filter((f) => has(owner, f));
      return left.length === 0 ? whole : left.join(" or ");
    });
    // Quoted text (a query such as "--verbose") is not advice.
    const unquoted = clause.replace(/"[^"]*"/g, (q) => " ".repeat(q.length));
    const missing = [...unquoted.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].some((m) => !has(ownerOf(clause, m.index, command), m[0]));
    if (!missing) {
      kept.push(endedSentence ? clause.charAt(0).toUpperCase() + clause.slice(1) : clause);
      endedSentence = false;
    } else if (kept.length > 0 && kept[kept.length - 1]!.endsWith(";")) {
      // "A; <dropped>; b" becomes "A. B".
      kept[kept.length - 1] = `${kept[kept.length - 1]!.slice(0, -1)}.`;
      endedSentence = true;
    }
  }
  const out = kept.join(" ");
  // A dropped first clause must not leave the text starting in lower case.
  return /^[A-Z]/.test(text) ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}

/**
 * Translates one model-facing note, hint or error message for a user of `codecite <command>`
 * (rules in the module comment). Text without tool words comes back unchanged.
 * @param command - the evidence command whose output this is.
 * @returns the translated text; `""` when every sentence advised options the command lacks.
 */
export function humanizeAdvice(text: string, command: EvidenceCommandName): string {
  const positional = EVIDENCE_COMMANDS[command].positional;
  let out = text;
  for (const [pattern, replacement] of PHRASES) out = out.replace(pattern, replacement);
  out = out.replace(ASSIGNMENT, (_m, param: string, value: string) => `${flagOf(param)} ${value}`);
  out = out.replace(SNAKE, (param: string) => (positional?.[0] === param ? positional[1] : flagOf(param)));
  out = out.replace(TOOL, (tool: string) => `codecite ${COMMAND_OF_TOOL.get(tool)!}`);
  return out === text ? text : dropMissingOptions(out, command);
}
