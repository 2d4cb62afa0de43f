/**
 * The shared body of the evidence commands (`search`, `symbol`, `importers`, `read`, `diff`):
 * open the workspace, run one code tool through the registry (the same validation and the same
 * function the model's calls go through), and print the tool result envelope (`--json`) or the
 * human rendering. A tool error exits 2. Heavy modules are imported here, lazily.
 */
import { colorsFor, logLine, printJson } from "./output.js";
import { renderEvidenceList, renderSummary } from "./render.js";

export interface EvidenceCommandInput {
  /** Model-facing tool name, e.g. `find_importers`. */
  tool: string;
  /** Tool arguments; `undefined` values are dropped (the schema's defaults apply). */
  args: Record<string, unknown>;
  root: string;
  json: boolean;
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
      logLine(`${err.red("codecite: error:")} ${result.error.code}: ${result.error.message}`);
      if (result.error.hint) logLine(`${err.dim("hint:")} ${result.error.hint}`);
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
