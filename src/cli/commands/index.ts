/**
 * Every command of the CLI, in help order. Each lives in `<name>.ts` and exports
 * `register(program)`; heavy modules load inside its action. To add a command: one import line
 * and one entry here (`main.ts` and the README test read this list).
 */
import type { Command } from "commander";
import * as ask from "./ask.js";
import * as search from "./search.js";
import * as symbol from "./symbol.js";
import * as importers from "./importers.js";
import * as refs from "./refs.js";
import * as read from "./read.js";
import * as diff from "./diff.js";
import * as tools from "./tools.js";
import * as mcp from "./mcp.js";
import * as doctor from "./doctor.js";
import * as toolshim from "./toolshim.js";
import * as config from "./config.js";
import * as evalCommand from "./eval.js";

export const COMMANDS: ReadonlyArray<{ register(program: Command): void }> = [
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
