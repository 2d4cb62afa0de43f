#!/usr/bin/env node
/**
 * codecite command-line entry (`cli.ts` {@link runCli}). The build replaces this file's output
 * with the bundle's entry (`scripts/bundle-cli.ts`), which runs the same code.
 */
import { runCli } from "./cli.js";

await runCli();
