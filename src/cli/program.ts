/**
 * The commander program shared by every command: name, version, usage-error handling.
 * Usage errors (unknown command or flag, a missing argument, a bad flag value) exit 2 and are
 * reported as every other error is (`codecite: error: …` / `hint: …` on stderr); with `--json`
 * on the line, a JSON error object is printed on stdout as well. Help and `--version` exit 0.
 */
import { Command, CommanderError } from "commander";
import { packageVersion } from "../version.js";
import { UsageError, logError, printJson } from "./output.js";

/** A fresh program; commands register on it with their module's `register(program)`. */
export function createProgram(): Command {
  return new Command("codecite")
    .description("Answer questions about a codebase with a local LLM; every answer backed by path:line evidence.")
    .version(packageVersion(), "-V, --version", "print the version")
    // Commander's own error lines are not printed: runProgram reports its error in codecite's form.
    .configureOutput({ outputError: () => undefined })
    .exitOverride();
}

/** Parses `argv` and runs the chosen command; sets `process.exitCode` (0, 1 or 2). */
export async function runProgram(program: Command, argv: readonly string[]): Promise<void> {
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === "commander.helpDisplayed" || err.code === "commander.version") {
        process.exitCode = 0;
        return;
      }
      const usage = usageError(program, argv, err);
      if (argv.includes("--json")) printJson({ ok: false, error: { code: "INVALID_ARGUMENT", message: usage.message, hint: usage.hint } });
      logError(usage);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}

/**
 * Commander's error as codecite reports errors: its first line without `error: ` as the message
 * (`missing required argument 'name'`, `unknown option '--bogus'`); its further lines (commander's
 * `(Did you mean search?)`) and where the usage is (`codecite symbol --help`, the command being the
 * first word of the line that names one) as the hint.
 */
function usageError(program: Command, argv: readonly string[], err: CommanderError): UsageError {
  const [first = "", ...rest] = err.message.split("\n");
  const names = new Set(program.commands.map((c) => c.name()));
  const command = argv.slice(2).find((a) => names.has(a));
  const more = rest.map((l) => l.trim().replace(/^\((.*)\)$/, "$1")).filter((l) => l !== "");
  return new UsageError(first.replace(/^error: /, ""), [...more, `Run codecite${command === undefined ? "" : ` ${command}`} --help for usage.`].join(" "));
}
