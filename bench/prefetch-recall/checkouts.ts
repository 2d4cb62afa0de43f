/**
 * The checkouts the prefetch recall questions run over: `CODECITE_PREFETCH_REPOS`, a
 * comma-separated list of local git checkouts (`/src/click,/src/httpx`), each matched to a
 * repository of the question set by its folder name. A checkout whose HEAD is not the recorded
 * commit is never changed: a shared clone of it at that commit is made in a temporary folder
 * (`git clone --shared`, no network).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = path.dirname(fileURLToPath(import.meta.url));

/** A repository of the question set: where it comes from and the commit its keys were derived at. */
export interface RepoSpec {
  url: string;
  commit: string;
}

/** The environment variable that names the checkouts. */
export const REPOS_VARIABLE = "CODECITE_PREFETCH_REPOS";

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The checkouts named by {@link REPOS_VARIABLE}, by folder name (empty when it is unset). */
export function namedCheckouts(value = process.env[REPOS_VARIABLE]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")) out.set(path.basename(path.resolve(p)), path.resolve(p));
  return out;
}

/**
 * A work tree of `dir` at `commit`: `dir` itself when its HEAD is that commit, else a shared
 * clone checked out at it in a temporary folder (the caller removes `cleanup` when done).
 * @throws when `dir` is not a git checkout or does not have the commit.
 */
export function checkoutAt(dir: string, commit: string): { root: string; cleanup?: string } {
  const head = git(dir, "rev-parse", "HEAD");
  const wanted = git(dir, "rev-parse", "--verify", `${commit}^{commit}`);
  if (head === wanted) return { root: dir };
  const tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-recall-"));
  const root = path.join(tmp, path.basename(dir));
  execFileSync("git", ["clone", "-q", "--shared", "--no-checkout", dir, root], { stdio: "ignore" });
  git(root, "checkout", "-q", "--detach", wanted);
  return { root, cleanup: tmp };
}

/** Reads a JSON file of this folder. */
export function readData<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(HERE, name), "utf8")) as T;
}
