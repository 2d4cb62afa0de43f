#!/usr/bin/env node
/**
 * codecite command-line entry. This file only wires commands: the list is in
 * `commands/index.ts`; only the command named on the line is loaded (`loadCommands`), and heavy
 * modules load inside actions.
 */
import { exitQuietlyOnBrokenPipe } from "./output.js";
import { createProgram, runProgram } from "./program.js";
import { loadCommands } from "./commands/index.js";

exitQuietlyOnBrokenPipe();
const program = createProgram();
for (const command of await loadCommands(process.argv[2])) command.register(program);
await runProgram(program, process.argv);
