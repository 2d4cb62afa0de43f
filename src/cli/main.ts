#!/usr/bin/env node
/**
 * codecite command-line entry. This file only wires commands: the list is in
 * `commands/index.ts`; heavy modules load inside actions.
 */
import { exitQuietlyOnBrokenPipe } from "./output.js";
import { createProgram, runProgram } from "./program.js";
import { COMMANDS } from "./commands/index.js";

exitQuietlyOnBrokenPipe();
const program = createProgram();
for (const command of COMMANDS) command.register(program);
await runProgram(program, process.argv);
