/**
 * The repository root as seen from the user's current directory, for human output.
 *
 * Evidence paths are repository-relative (ARCHITECTURE.md "Evidence"), which is right for JSON and for
 * the model, but a `path:line` location printed for a person must open in a terminal or editor
 * started in the current directory (README "CLI reference"), and a suggested command must work when
 * pasted there. So when `--root` is not the current directory:
 * - locations are shown relative to the current directory, or absolute when that is shorter;
 * - suggested commands carry `--root <dir>` (relative to the current directory when shorter).
 *
 * `--json` output never goes through this: it keeps repository-relative paths.
 */
import { realpathSync } from "node:fs";
import path from "node:path";

/** How repository-relative paths and the root are shown to a command-line user. */
export interface RootView {
  /**
   * A repository-relative, `/`-separated path as the user should see it: unchanged when the root
   * is the current directory, else relative to the current directory or absolute, whichever is
   * shorter (relative on a tie).
   */
  show(rel: string): string;
  /**
   * The words to append to a suggested `codecite` command so that it reads the same root:
   * `""` when the root is the current directory, else ` --root <dir>` (leading space; `<dir>`
   * shell-quoted, relative to the current directory when that is shorter than absolute).
   */
  readonly rootOption: string;
}

/** The view for a root that is the current directory: paths and commands unchanged. */
export const SAME_DIR_VIEW: RootView = { show: (rel) => rel, rootOption: "" };

/** Characters that never need quoting in a POSIX shell word. */
const SHELL_SAFE = /^[A-Za-z0-9_@%+:,./-]+$/;

/**
 * Quotes one argument for a POSIX shell (sh, bash, zsh): unchanged when it holds only safe
 * characters, else wrapped in single quotes with each `'` written as `'\''` (POSIX Shell
 * Command Language §2.2.2: single quotes preserve every character but `'` itself).
 * The empty string becomes `''`.
 */
export function shellQuote(arg: string): string {
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The shorter of `to` relative to `from` and `to` absolute (relative on a tie; absolute across drives). */
function shorterSpelling(from: string, to: string): string {
  const rel = path.relative(from, to);
  if (rel === "") return ".";
  if (path.isAbsolute(rel)) return to;
  return rel.length <= to.length ? rel : to;
}

/**
 * The view of `root` (as given to `--root`, absolute or relative to `cwd`) from `cwd`.
 * The root counts as the current directory when both have the same real path (symbolic links
 * resolved); otherwise paths keep the user's spelling of the root (links not resolved).
 * @param cwd - the current directory (default `process.cwd()`).
 */
export function rootView(root: string, cwd: string = process.cwd()): RootView {
  const rootAbs = path.resolve(cwd, root);
  if (realOrResolved(rootAbs) === realOrResolved(cwd)) return SAME_DIR_VIEW;
  const toNative = (rel: string) => (path.sep === "/" ? rel : rel.split("/").join(path.sep));
  return {
    show: (rel) => shorterSpelling(cwd, path.join(rootAbs, toNative(rel))),
    rootOption: ` --root ${shellQuote(shorterSpelling(cwd, rootAbs))}`,
  };
}
