#!/usr/bin/env node
/**
 * codecite command-line entry. This file only wires commands: each lives in
 * `commands/<name>.ts` and exports `register(program)`; heavy modules load inside actions.
 * To add a command: one import line and one entry in COMMANDS.
 */
import type { Command } from "commander";
import { exitQuietlyOnBrokenPipe } from "./output.js";
import { createProgram, runProgram } from "./program.js";
import * as ask from "./commands/ask.js";
import * as search from "./commands/search.js";
import * as symbol from "./commands/symbol.js";
import * as importers from "./commands/importers.js";
import * as refs from "./commands/refs.js";
import * as read from "./commands/read.js";
import * as diff from "./commands/diff.js";
import * as tools from "./commands/tools.js";
import * as mcp from "./commands/mcp.js";
import * as doctor from "./commands/doctor.js";
import * as toolshim from "./commands/toolshim.js";
import * as config from "./commands/config.js";
import * as evalCommand from "./commands/eval.js";

const COMMANDS: ReadonlyArray<{ register(program: Command): void }> = [
  ask,
  search,
  symbol,
  importers,
  refs,
  read,
  diff,
  tools,
  mcp,
  toolshim,
  doctor,
  config,
  evalCommand,
];

exitQuietlyOnBrokenPipe();
const program = createProgram();
for (const command of COMMANDS) command.register(program);
await runProgram(program, process.argv);
