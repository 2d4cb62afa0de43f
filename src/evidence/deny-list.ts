/**
 * The secrets deny-list: files that no tool ever reads, searches, parses or shows, whether or
 * not they are ignored by `.gitignore` (code-intel-anchors §2.4 item 1, §2.5 cases 16–18).
 *
 * Patterns use gitignore syntax (matched with the `ignore` package, case-insensitively so that
 * `.ENV` on a case-insensitive file system is still denied). A pattern without a slash matches a
 * name at any depth; a trailing `/` matches a directory and everything below it.
 */
import ignore from "ignore";

/** Deny-list patterns (gitignore syntax). Exported for documentation and for ripgrep globs. */
export const DENY_PATTERNS: readonly string[] = Object.freeze([
  // environment files: .env, .env.local, .envrc …
  ".env*",
  // keys and certificates
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "*.kdbx",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  // credential stores and package-manager tokens
  ".npmrc",
  ".yarnrc.yml",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".pgpass",
  ".git-credentials",
  ".htpasswd",
  ".dockercfg",
  "credentials",
  "credentials.json",
  "client_secret*.json",
  "*.tfstate",
  "*.tfstate.*",
  // directories of secrets, and git internals (.git/config can hold credential URLs)
  ".aws/",
  ".ssh/",
  ".gnupg/",
  ".kube/",
  ".docker/",
  ".git",
]);

const matcher = ignore({ ignorecase: true }).add([...DENY_PATTERNS]);

/**
 * True when a normalized repository-relative path (`/`-separated, no `..`, not absolute) is on
 * the deny-list, either itself or through one of its parent directories. The path is also
 * checked as a directory (`rel/`), so `.aws` as a folder is denied.
 * The root itself (`""`) is never denied.
 */
export function isDeniedPath(rel: string): boolean {
  if (rel === "" || rel === ".") return false;
  return matcher.ignores(rel) || matcher.ignores(`${rel}/`);
}

/**
 * The deny-list as ripgrep arguments (`--iglob=!<pattern>`, case-insensitive like
 * `isDeniedPath`), so that ripgrep never even opens a denied file. Results are still filtered
 * through `isDeniedPath` afterwards.
 */
export function denyGlobArgs(): string[] {
  return DENY_PATTERNS.map((p) => `--iglob=!${p}`);
}
