/**
 * Runs git for test fixtures, isolated from the machine's configuration: no system or global
 * config (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`, as `src/evidence/git-diff.ts`
 * does for the product) and a fixed author/committer, so that commits work on a bare CI runner.
 */
import { execFileSync } from "node:child_process";

/** The environment of every fixture git process. */
const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

/**
 * Runs `git ...args` in `cwd` and returns its standard output, UTF-8, trimmed.
 *
 * @throws the `execFileSync` error when git exits non-zero.
 */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_TEST_ENV, encoding: "utf8" }).trim();
}

/**
 * Runs `git ...args` in `cwd` with `input` on its standard input (e.g. `hash-object -w --stdin`,
 * `update-index --index-info`); returns standard output, UTF-8, trimmed.
 *
 * @throws the `execFileSync` error when git exits non-zero.
 */
export function gitWithInput(cwd: string, input: Buffer, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_TEST_ENV, input }).toString("utf8").trim();
}

/** Stages every change in the repository at `repo` (`git add -A`) and commits it quietly with `message`. */
export function commitAll(repo: string, message: string): void {
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", message);
}
