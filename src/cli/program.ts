/**
 * The commander program shared by every command: name, version, usage-error handling.
 * Usage errors (unknown command or flag, a bad flag value) exit 2; with `--json` on the line,
 * a JSON error object is printed on stdout as well. Help and `--version` exit 0.
 */
import { Command, CommanderError } from "commander";
import { packageVersion } from "../version.js";
import { printJson } from "./output.js";

/** A fresh program; commands register on it with their module's `register(program)`. */
export function createProgram(): Command {
  return new Command("codecite")
    .description("Answer questions about a codebase with a local LLM; every answer backed by path:line evidence.")
    .version(packageVersion(), "-V, --version", "print the version")
    .showHelpAfterError("(run with --help for usage)")
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
      if (argv.includes("--json")) {
        printJson({ ok: false, error: { code: "INVALID_ARGUMENT", message: err.message.replace(/^error: /, "") } });
      }
      process.exitCode = 2;
      return;
    }
    throw err;
  }
}
