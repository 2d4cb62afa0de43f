/**
 * Runs the command line (`process.argv`): registers only the command named on the line
 * (`commands/index.ts` {@link loadCommands}; heavy modules load inside its action), parses, runs
 * it and sets `process.exitCode`. `main.ts` calls it; so does the CLI bundle (`scripts/bundle-cli.ts`).
 */
import { exitQuietlyOnBrokenPipe } from "./output.js";
import { createProgram, runProgram } from "./program.js";
import { loadCommands } from "./commands/index.js";

/** Runs the command on `process.argv`; resolves when it is done. */
export async function runCli(): Promise<void> {
  exitQuietlyOnBrokenPipe();
  const program = createProgram();
  for (const command of await loadCommands(process.argv[2])) command.register(program);
  await runProgram(program, process.argv);
}
