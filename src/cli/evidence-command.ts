/**
 * The shared body of the evidence commands (`search`, `symbol`, `importers`, `read`, `diff`):
 * open the workspace, run one code tool through the registry (the same validation and the same
 * function the model's calls go through), and print the tool result envelope (`--json`) or the
 * human rendering. A tool error exits 2. Heavy modules are imported here, lazily.
 */
import { colorsFor, logLine, printJson } from "./output.js";
import { renderEvidenceList, renderSummary } from "./render.js";

/** What `runEvidenceCommand` runs: one code tool with its arguments, over `root`. */
export interface EvidenceCommandInput {
  /** CLI command name, e.g. `importers` (for `--help` pointers in human error messages). */
  command: string;
  /** Model-facing tool name, e.g. `find_importers`. */
  tool: string;
  /** Tool arguments; `undefined` values are dropped (the schema's defaults apply). */
  args: Record<string, unknown>;
  /** The argument given positionally and its usage label, e.g. `["module_name", "<module>"]`. */
  positional?: readonly [argument: string, label: string];
  root: string;
  json: boolean;
}

/** The registry's hint for bad arguments (a JSON Schema dump, meant for the model). */
const SCHEMA_HINT_PREFIX = "Expected parameters:";

/**
 * A tool error as a command-line user needs it. Argument-validation errors name tool
 * parameters (`→ at max_results`) and carry the JSON Schema as hint, both meant for the
 * model: they become `--max-results: Too small: …` and a pointer to `codecite <command> --help`.
 * Other errors pass unchanged. (`--json` prints the envelope unchanged.)
 */
export function errorForCommandLine(
  error: { code: string; message: string; hint?: string },
  input: Pick<EvidenceCommandInput, "command" | "positional">,
): { code: string; message: string; hint?: string } {
  if (error.code !== "INVALID_ARGUMENT" || !error.hint?.startsWith(SCHEMA_HINT_PREFIX)) return error;
  const option = (argument: string): string =>
    argument === input.positional?.[0] ? input.positional[1] : `--${argument.replace(/_/g, "-")}`;
  const issues = [...error.message.matchAll(/✖ (.+)\n\s*→ at (\S+)/g)].map((m) => `${option(m[2]!)}: ${m[1]}`);
  const message = issues.length > 0 ? `invalid value: ${issues.join("; ")}` : error.message;
  return { code: error.code, message, hint: `See \`codecite ${input.command} --help\`.` };
}

/** Runs one code tool and prints its result; sets `process.exitCode` to 2 on a tool error. */
export async function runEvidenceCommand(input: EvidenceCommandInput): Promise<void> {
  const [{ Workspace }, { createCodeToolRegistry }] = await Promise.all([
    import("../evidence/workspace.js"),
    import("../tools/code-tools.js"),
  ]);
  const workspace = await Workspace.open(input.root);
  const args = Object.fromEntries(Object.entries(input.args).filter(([, v]) => v !== undefined));
  const result = await createCodeToolRegistry().dispatch({ name: input.tool, arguments: args }, { workspace });
  if (input.json) printJson(result);
  const err = colorsFor(process.stderr);
  if (!result.ok) {
    if (!input.json) {
      const error = errorForCommandLine(result.error, input);
      logLine(`${err.red("codecite: error:")} ${error.code}: ${error.message}`);
      if (error.hint) logLine(`${err.dim("hint:")} ${error.hint}`);
    }
    process.exitCode = 2;
    return;
  }
  if (input.json) return;
  if (!("evidence" in result)) {
    process.stdout.write(`${JSON.stringify(result.result, null, 2)}\n`);
    return;
  }
  process.stdout.write(renderEvidenceList(result.evidence, colorsFor(process.stdout)));
  logLine(err.dim(renderSummary(result.evidence.length, result.total, result.truncated)));
  if (result.note) logLine(`${err.dim("note:")} ${result.note}`);
}
