/**
 * `codecite toolshim --tools <a,b,c | tools.json> [--interpreter] [--json]`: run the tool shim on
 * raw assistant text from stdin and show what became a call and why (README "CLI reference"). `tools.json` is the array `codecite tools --json` prints (Ollama/OpenAI tool
 * definitions; plain `{name, description?, parameters?}` objects are accepted too); a comma list
 * means tools without a schema. Without `--interpreter` only the deterministic stages run; with
 * it, the interpreter backend from the configuration (`CODECITE_TOOLSHIM_BACKEND` …) is used.
 *
 * Output: with `--json`, `{"tool_calls": [{"name", "arguments"}], "content", "recovered_by",
 * "thinking"?, "rejected", "diagnostics"}`; otherwise a readable report on stdout and the
 * diagnostics on stderr. Exit codes: 0 (also when nothing became a call), 1 when `--interpreter`
 * was asked for and the interpreter failed (the deterministic result is still printed),
 * 2 for usage errors (no stdin, an unreadable or malformed tools file).
 */
import { existsSync, readFileSync } from "node:fs";
import type { Command } from "commander";
import { colorsFor, logLine, printJson, runAction, UsageError } from "../output.js";
import type { OfferedTool, RecoverResult } from "../../toolshim/types.js";
import { visibleText } from "../../evidence/visible-text.js";

interface ToolshimFlags {
  tools: string;
  interpreter?: boolean;
  json?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function toolFromDefinition(d: unknown, i: number): OfferedTool {
  const fn = isRecord(d) && isRecord(d.function) ? d.function : d;
  if (!isRecord(fn) || typeof fn.name !== "string" || fn.name.trim() === "") {
    throw new UsageError(`tools file: entry ${i} has no "name"`, "Use the array that `codecite tools --json` prints.");
  }
  const tool: OfferedTool = { name: fn.name };
  if (typeof fn.title === "string") tool.title = fn.title;
  if (typeof fn.description === "string") tool.description = fn.description;
  if (isRecord(fn.parameters)) tool.parameters = fn.parameters;
  return tool;
}

/**
 * Parse the `--tools` value: a JSON file (path ending in `.json` or an existing file) holding
 * an array of tool definitions, or a comma-separated list of names.
 * @throws UsageError for an empty list, an unreadable file, invalid JSON or entries without a name.
 */
export function parseToolsOption(value: string): OfferedTool[] {
  const v = value.trim();
  if (v.endsWith(".json") || (v !== "" && !v.includes(",") && existsSync(v))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(v, "utf8"));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new UsageError(`cannot read the tools file ${v}: ${why}`, "Create it with `codecite tools --json > tools.json`.");
    }
    if (!Array.isArray(parsed)) throw new UsageError(`tools file ${v} is not a JSON array`, "Use the array that `codecite tools --json` prints.");
    return parsed.map(toolFromDefinition);
  }
  const names = v.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0) throw new UsageError("--tools needs tool names (a,b,c) or a tools.json file");
  return [...new Set(names)].map((name) => ({ name }));
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("no input: pipe the raw assistant text on stdin", "e.g. `pbpaste | codecite toolshim --tools search_code`");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

/** The `--json` document. */
export function toolshimJson(r: RecoverResult): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    tool_calls: r.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments })),
    content: r.content,
    recovered_by: r.recovered_by,
  };
  if (r.thinking !== undefined) doc.thinking = r.thinking;
  doc.rejected = r.rejected;
  doc.diagnostics = r.diagnostics;
  return doc;
}

function printHuman(r: RecoverResult): void {
  const c = colorsFor(process.stdout);
  const lines: string[] = [`${c.bold("recovered_by:")} ${r.recovered_by}`];
  lines.push(`${c.bold("tool calls:")} ${r.tool_calls.length}`);
  for (const call of r.tool_calls) lines.push(`  ${c.cyan(visibleText(call.name))} ${visibleText(JSON.stringify(call.arguments) ?? "")}`);
  if (r.rejected.length > 0) {
    lines.push(`${c.bold("rejected:")} ${r.rejected.length}`);
    for (const x of r.rejected) lines.push(`  ${c.yellow(x.code)} ${visibleText(x.name)}: ${visibleText(x.message)}`);
  }
  lines.push(`${c.bold("content:")}${r.content === "" ? " (empty)" : ""}`);
  if (r.content !== "") for (const l of r.content.split("\n")) lines.push(`  ${visibleText(l, { multiline: true })}`);
  if (r.thinking !== undefined) lines.push(`${c.bold("thinking:")} ${r.thinking.length} characters (not shown)`);
  process.stdout.write(`${lines.join("\n")}\n`);
  const e = colorsFor(process.stderr);
  for (const d of r.diagnostics) logLine(e.dim(`${d.stage}: ${visibleText(d.message)}`));
}

/** Registers `codecite toolshim` on the program (the toolshim modules load inside the action). */
export function register(program: Command): void {
  program
    .command("toolshim")
    .description("recover tool calls from raw assistant text on stdin and show why it did or did not become a call")
    .requiredOption("--tools <list>", "offered tools: names a,b,c (no schema) or a tools.json file (`codecite tools --json`)")
    .option("--interpreter", "also ask the interpreter model (CODECITE_TOOLSHIM_BACKEND) when no parser matched")
    .option("--json", 'print {"tool_calls", "content", "recovered_by", …} as JSON')
    .action((flags: ToolshimFlags) =>
      runAction(flags.json === true, async () => {
        const tools = parseToolsOption(flags.tools);
        const text = await readStdin();
        const [shim, { schemaValidator }] = await Promise.all([import("../../toolshim/index.js"), import("../../tools/schema-validator.js")]);
        const validate = schemaValidator(tools);
        let result: RecoverResult;
        if (flags.interpreter === true) {
          const [{ resolveConfig }, { createInterpreterTarget, closeProviders }] = await Promise.all([
            import("../../config.js"),
            import("../provider-factory.js"),
          ]);
          const target = await createInterpreterTarget(resolveConfig({}, process.env));
          if ("disabled" in target) {
            logLine(`codecite: interpreter disabled: ${target.disabled}`);
            result = shim.recoverDeterministic({ content: text }, tools, { validate });
          } else {
            try {
              const interpreter = shim.createInterpreter(target.provider, target.model);
              result = await shim.recover({ content: text }, tools, { interpreter, validate });
            } finally {
              // The local backend holds an embedded model and a native backend: free them.
              await closeProviders(target.provider);
            }
            if (result.diagnostics.some((d) => d.stage === "interpreter" && /failed|did not answer/.test(d.message))) {
              process.exitCode = 1;
            }
          }
        } else {
          result = shim.recoverDeterministic({ content: text }, tools, { validate });
        }
        if (flags.json === true) printJson(toolshimJson(result));
        else printHuman(result);
      }),
    );
}
