/**
 * CLI output rules (README "CLI reference"): stdout carries only the answer or the JSON; progress,
 * logs and errors go to stderr; `NO_COLOR` is honoured. Exit codes: 0 success (also an empty
 * result), 1 runtime failure (model unreachable, timeout), 2 usage error or tool error — with
 * `--json`, a JSON error object `{"ok": false, "error": {code, message, hint?}}` on stdout.
 */
import { InvalidArgumentError } from "commander";
import pc from "picocolors";
import { ConfigError } from "../config.js";
import { ConfigFileError } from "../config-file.js";
import { ToolError } from "../evidence/evidence.js";
import { ProviderError } from "../llm/types.js";
import { visibleText } from "../evidence/visible-text.js";

/** picocolors functions, enabled or not for one stream (`colorsFor`). */
export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Whether to colour a stream: never when `NO_COLOR` is set to a non-empty value (no-color.org);
 * always when `FORCE_COLOR` is set to anything but `0`; otherwise only on a terminal.
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** Colours for stdout and for stderr, decided once per stream. */
export function colorsFor(stream: NodeJS.WriteStream): Colors {
  return pc.createColors(colorEnabled(stream));
}

/** A usage error found after commander parsed the line (e.g. a bad flag value); exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The exit code of a failure: 2 for usage, configuration and tool errors; 1 for the rest. */
function exitCodeFor(err: unknown): 1 | 2 {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof ConfigFileError || err instanceof ToolError) return 2;
  return 1;
}

/** The JSON error object of a failure. */
function errorObject(err: unknown): { code: string; message: string; hint?: string } {
  if (err instanceof ToolError) return err.toJSON();
  if (err instanceof ConfigError || err instanceof ConfigFileError) return { code: "INVALID_ARGUMENT", message: err.message, hint: err.hint };
  if (err instanceof ProviderError) {
    return err.hint !== undefined ? { code: err.code, message: err.message, hint: err.hint } : { code: err.code, message: err.message };
  }
  if (err instanceof UsageError) {
    return err.hint !== undefined ? { code: "INVALID_ARGUMENT", message: err.message, hint: err.hint } : { code: "INVALID_ARGUMENT", message: err.message };
  }
  return { code: "INTERNAL", message: err instanceof Error ? err.message : String(err) };
}

/** Writes one JSON document (2-space indentation) and a newline to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Makes a closed stdout or stderr (`codecite … | head -1`) end the process quietly with exit
 * code 0, as ripgrep and other Unix filters do, instead of crashing with an unhandled `EPIPE`.
 * The reader has all it wanted; nothing more can be written. Call once at start-up.
 */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE") process.exit(0);
      throw err;
    });
  }
}

/**
 * Ends a one-shot command's process as soon as everything it wrote to stdout and stderr has been
 * handed to the system, with `process.exitCode`, instead of letting Node tear the process down once
 * its event loop is empty: freeing the heap, joining its threads and closing native handles (the
 * fact cache's SQLite connection among them: its WAL is recovered by the next open,
 * https://sqlite.org/wal.html) took a warm query 50–100 ms of wall time after its last line on this
 * machine under load. `exit` listeners still run (the code cache is saved there).
 */
export async function exitWhenWritten(): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write("", () => resolve()))));
  process.exit();
}

/** Writes a line to stderr. */
export function logLine(text: string): void {
  process.stderr.write(`${text}\n`);
}

/**
 * Reports a failure and sets the exit code: with `json`, the error object on stdout; always a
 * readable `codecite: error: …` (and `hint: …`) on stderr.
 */
function reportFailure(err: unknown, json: boolean): void {
  const obj = errorObject(err);
  if (json) printJson({ ok: false, error: obj });
  logError(err);
  if (obj.code === "INTERNAL" && err instanceof Error && err.stack && process.env.CODECITE_DEBUG) logLine(err.stack);
  process.exitCode = exitCodeFor(err);
}

/**
 * Writes a failure as a command reports it, `codecite: error: …` and `hint: …` on stderr, without
 * ending anything (`chat` refusing a command goes on).
 */
export function logError(err: unknown): void {
  const obj = errorObject(err);
  const c = colorsFor(process.stderr);
  // Messages quote paths and names from the repository or the model: control characters shown.
  // A configuration file's problems are listed one a line, each line shown on its own.
  const lines = err instanceof ConfigFileError ? err.lines() : [obj.message];
  logLine(`${c.red("codecite: error:")} ${lines.map((l) => visibleText(l)).join("\n")}`);
  if (obj.hint) logLine(`${c.dim("hint:")} ${visibleText(obj.hint)}`);
}

/**
 * Wraps a command action: runs it, and turns any throw into `reportFailure` with the right exit
 * code. `json` says whether the command was asked for JSON output.
 */
export async function runAction(json: boolean, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    reportFailure(err, json);
  }
}

/**
 * Parses a flag value as an integer (a commander option parser; ranges are checked by the
 * tool's schema, so the model and the CLI get the same messages).
 * @throws InvalidArgumentError (commander reports it as a usage error, exit 2).
 */
export function parseInteger(value: string): number {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new InvalidArgumentError("Not an integer.");
  return Number(value.trim());
}
