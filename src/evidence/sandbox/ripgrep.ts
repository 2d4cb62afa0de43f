/**
 * Locating and hardening ripgrep (`@vscode/ripgrep` 1.18.0 ships ripgrep 15 in npm; `--pre` runs a
 * program per file and `RIPGREP_CONFIG_PATH` can inject flags, so both are shut off: ripgrep `rg --help`).
 */
import { existsSync } from "node:fs";
import { ToolError } from "../evidence.js";
import { denyGlobArgs } from "./deny-list.js";
import { findExecutable, scrubbedEnv } from "./spawn.js";

/** Names of the ignore files ripgrep reads in every folder it walks (with `--no-require-git`). */
export const IGNORE_FILE_NAMES: readonly string[] = Object.freeze([".gitignore", ".ignore", ".rgignore"]);

/** Folders that are never walked (besides `.git`): dependencies, virtual envs and caches. */
export const NEVER_WALK_DIRS: readonly string[] = Object.freeze([
  "node_modules",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".hg",
  ".svn",
]);

let bundled: Promise<string | undefined> | undefined;

/**
 * Absolute path of the ripgrep binary: `rgPath` from `@vscode/ripgrep` (codecite's own
 * dependency), or else `rg` found on the absolute `PATH` entries ({@link findExecutable}), never
 * inside `notUnder` (the workspace root; compared by real paths) — a repository cannot supply
 * its own `rg`. The package is imported once; the `PATH` lookup is cached per root.
 * @param notUnder the workspace root (default: the current directory).
 * @throws ToolError `UNSUPPORTED` when neither exists.
 */
export async function ripgrepPath(notUnder: string = process.cwd()): Promise<string> {
  bundled ??= import("@vscode/ripgrep").then(
    (m: { rgPath: string }) => (existsSync(m.rgPath) ? m.rgPath : undefined),
    () => undefined,
  );
  const own = await bundled;
  if (own !== undefined) return own;
  const rg = await findExecutable("rg", { notUnder });
  if (rg === undefined) throw ripgrepMissing(new Error("no rg on PATH outside the repository and no @vscode/ripgrep binary"));
  return rg;
}

/**
 * Arguments every ripgrep run starts with: no config file (`--no-config`; `RIPGREP_CONFIG_PATH`
 * is also removed from the environment), ignore files honoured outside git repositories
 * (`--no-require-git`), no personal global excludes (`--no-ignore-global`), no ignore files from
 * folders above the root (`--no-ignore-parent`: they lie outside the root, may be FIFOs or
 * devices, and a `*` in `$HOME/.gitignore` would silently hide the whole project), hidden files
 * searched but `.git`, the {@link NEVER_WALK_DIRS} and the secrets deny-list excluded, symlinks
 * never followed (no `--follow`), never `--pre`.
 */
export function baseRipgrepArgs(): string[] {
  return [
    "--no-config",
    "--no-require-git",
    "--no-ignore-global",
    "--no-ignore-parent",
    "--hidden",
    "--glob=!.git",
    ...NEVER_WALK_DIRS.map((d) => `--glob=!${d}/`),
    ...denyGlobArgs(),
  ];
}

/**
 * A validated repository-relative path as a ripgrep path argument (after `--`): prefixed with
 * `./`, because ripgrep reads standard input for a path argument of exactly `-`. ripgrep then
 * reports paths with that `./` prefix, which callers strip.
 */
export function ripgrepPathArg(rel: string): string {
  return rel === "" ? "." : `./${rel}`;
}

/** Environment for ripgrep: the parent's minus `RIPGREP_CONFIG_PATH` and `GIT_*`. */
export function ripgrepEnv(): NodeJS.ProcessEnv {
  return scrubbedEnv();
}

/** Turns a failure to start ripgrep into a clear error. */
export function ripgrepMissing(err: unknown): ToolError {
  return new ToolError(
    "UNSUPPORTED",
    `ripgrep could not be started (${err instanceof Error ? err.message : String(err)})`,
    "Reinstall codecite's dependencies (npm ci) so that @vscode/ripgrep provides rg, or install ripgrep.",
  );
}
