/**
 * The secrets deny-list: files that no tool ever reads, searches, parses or shows, whether or
 * not they are ignored by `.gitignore` (a repository's own files are untrusted input: github/github-mcp-server issue #844).
 *
 * How to extend the list: add a pattern to {@link DENY_PATTERNS} (the README section "What is
 * never read" lists the kinds); ripgrep gets the same patterns as `--iglob=!…` arguments. Files
 * whose content holds a private-key block are denied whatever their name (`secret-content.ts`),
 * and a workspace root that is a git directory itself (a bare repository) is refused.
 *
 * Patterns use gitignore syntax (matched with the `ignore` package, case-insensitively so that
 * `.ENV` on a case-insensitive file system is still denied). A pattern without a slash matches a
 * name at any depth; a trailing `/` matches a directory and everything below it.
 *
 * Lookalike names that some file systems map onto a denied name are denied too: each path is
 * also checked in a folded form ({@link foldForDenyCheck}) — Unicode NFKC, upper case then lower
 * case (APFS and NTFS compare names case-insensitively with Unicode folding: `server.\u212Aey` is
 * `server.key`; fullwidth `．env` is `.env`; NTFS compares names upper-cased by its table, where
 * dotless `\u0131` is `I`, so `credent\u0131als` is `credentials`), with the code points HFS+ ignores
 * removed (`.g\u200Cit` is `.git`, the CVE-2014-9390 shape) and every other default-ignorable
 * code point too (Unicode DerivedCoreProperties.txt: `.\u2060env`, invisible in a listing), and
 * each segment cut at an NTFS alternate-data-stream `:` and stripped of the trailing dots and
 * spaces Windows drops (`server.pem.`, `.env::$DATA`). Over-denying such a name on a file system
 * that keeps it distinct is harmless. Homoglyphs (`id_rs\u0251`, Latin alpha) and combining accents
 * stay distinct names on every file system: they are not the secret's name and are not denied.
 */
import ignore from "ignore";
import { isCleanRelative } from "./path-policy.js";

/** Deny-list patterns (gitignore syntax). Exported for documentation and for ripgrep globs. */
const DENY_PATTERNS: readonly string[] = Object.freeze([
  // environment files: .env, .env.local, .envrc …, and the `--env-file` / Compose `env_file`
  // ones named for their purpose (`prod.env`, `db.env`); Wrangler's local secrets `.dev.vars`
  // (https://developers.cloudflare.com/workers/configuration/secrets/)
  ".env*",
  "*.env",
  ".dev.vars",
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
  "id_ecdsa_sk*",
  "id_ed25519_sk*",
  "ssh_host_*key*",
  "*.ppk",
  "secring.*",
  "private-keys-v1.d/",
  "*.gpg-key",
  // credential stores and package-manager tokens
  ".npmrc",
  ".yarnrc.yml",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".pgpass",
  // MySQL client option file, `password=` (https://dev.mysql.com/doc/refman/8.0/en/option-files.html)
  ".my.cnf",
  ".git-credentials",
  ".htpasswd",
  ".dockercfg",
  "credentials",
  "credentials.json",
  "client_secret*.json",
  "*.tfstate",
  "*.tfstate.*",
  "credentials.toml",
  "credentials.db",
  "access_tokens.db",
  "legacy_credentials/",
  "application_default_credentials.json",
  "**/gh/hosts.yml",
  "**/hub/config",
  ".vault-token",
  "kubeconfig",
  "*.kubeconfig",
  ".s3cfg",
  ".boto",
  ".azure/",
  ".config/gcloud/",
  ".terraformrc",
  "terraform.rc",
  // framework secret stores: Rails `config/secrets.yml` (its key is `config/master.key`, denied as
  // `*.key`: https://guides.rubyonrails.org/security.html#custom-credentials), .NET user secrets
  // `secrets.json` (https://learn.microsoft.com/aspnet/core/security/app-secrets)
  "secrets.yml",
  "secrets.yaml",
  "secrets.json",
  // directories of secrets (a folder named `secrets` is where Docker/Compose and Kubernetes
  // setups keep the files they mount as secrets; a source package of that name is hidden too,
  // which is the cheaper mistake), and git internals (.git/config can hold credential URLs)
  "secrets/",
  ".secrets/",
  ".aws/",
  ".ssh/",
  ".gnupg/",
  ".kube/",
  ".docker/",
  ".git",
  // bare repositories by their conventional name (`project.git/config` can hold credential URLs)
  "*.git/",
]);

/** The patterns compiled, created on the first path that passes {@link mayBeDenied}. */
let matcher: ReturnType<typeof ignore> | undefined;

/**
 * For each pattern, its runs of literal characters within one path segment, lower case:
 * `.env*` → `.env`, `id_rsa*` → `id_rsa`, `.config/gcloud/` → `.config` and `gcloud` (a bracket
 * expression, `*`, `?`, `\\` and `/` end a run).
 * A path can match a pattern only when it holds all its runs, in any case (see {@link mayBeDenied}).
 * `undefined` when some pattern has no literal character (then every path is checked in full).
 */
const PATTERN_NEEDLES: readonly (readonly string[])[] | undefined = (() => {
  const needles: string[][] = [];
  for (const pattern of DENY_PATTERNS) {
    const runs = pattern.toLowerCase().replace(/\[[^\]]*\]?/gu, "/").split(/[/*?!\\]+/u).filter((run) => run !== "");
    if (runs.length === 0) return undefined;
    needles.push(runs);
  }
  return needles;
})();

/**
 * A quick necessary condition for {@link checkDenied}, for clean paths made of ASCII characters
 * only: false when the path, in lower case, holds no pattern's {@link PATTERN_NEEDLES} all, and
 * then no pattern can match it or its folded form. Why that holds: every run lies within one
 * segment of its pattern, so a match puts it within one segment of the matched path (patterns
 * are matched case-insensitively). For an ASCII path, {@link foldForDenyCheck} only lower-cases
 * (NFKC leaves ASCII unchanged and no HFS-ignorable code point is ASCII), cuts the end of a
 * segment (a `:` stream suffix, trailing dots and spaces) and drops segments that became empty;
 * each folded segment is thus the start of a lower-cased segment of the path, and a run in it
 * is in the lower-cased path. Other paths (any non-ASCII character) are always checked in full.
 */
function mayBeDenied(rel: string): boolean {
  if (PATTERN_NEEDLES === undefined || !/^[\x01-\x7f]*$/u.test(rel)) return true;
  const lower = rel.toLowerCase();
  // A pattern's runs can all be there only when one of them is (one regex test, perf: issue 17).
  if (ANY_NEEDLE !== undefined && !ANY_NEEDLE.test(lower)) return false;
  return PATTERN_NEEDLES.some((runs) => runs.every((run) => lower.includes(run)));
}

/** Matches a string holding any run of {@link PATTERN_NEEDLES} (a quick first test of {@link mayBeDenied}). */
const ANY_NEEDLE: RegExp | undefined =
  PATTERN_NEEDLES === undefined ? undefined : new RegExp([...new Set(PATTERN_NEEDLES.flat())].map((run) => run.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")).join("|"), "u");

/**
 * True when a normalized repository-relative path (`/`-separated, no `..`, not absolute) is on
 * the deny-list, either itself or through one of its parent directories. The path is also
 * checked as a directory (`rel/`), so `.aws` as a folder is denied.
 * The root itself (`""`) is never denied. Anything that is not a clean relative path (`../x`,
 * `/abs`, `a//b`: e.g. a path forged in a repository's git index) is denied, never an exception.
 */
export function isDeniedPath(rel: string): boolean {
  const known = deniedCache.get(rel);
  if (known !== undefined) return known;
  const denied = checkDenied(rel);
  if (deniedCache.size >= DENIED_CACHE_MAX) deniedCache.clear();
  deniedCache.set(rel, denied);
  return denied;
}

/** Answers of {@link isDeniedPath}, a pure function of the path, kept for repeated walks (perf, J). */
const deniedCache = new Map<string, boolean>();
const DENIED_CACHE_MAX = 200_000;

function checkDenied(rel: string): boolean {
  if (rel === "" || rel === ".") return false;
  if (!isCleanRelative(rel)) return true;
  if (!mayBeDenied(rel)) return false;
  if (matches(rel)) return true;
  const folded = foldForDenyCheck(rel);
  return folded !== rel && folded !== "" && matches(folded);
}

function matches(rel: string): boolean {
  matcher ??= ignore({ ignorecase: true }).add([...DENY_PATTERNS]);
  return matcher.ignores(rel) || matcher.ignores(`${rel}/`);
}

/**
 * Code points that HFS+ ignores when comparing names (the list git checks in `is_hfs_dotgit`:
 * U+200C–200F, U+202A–202E, U+206A–206F, U+FEFF), plus every default-ignorable code point
 * (`\p{Default_Ignorable_Code_Point}`: U+200B, U+2060, U+034F, U+00AD, variation selectors …).
 */
const IGNORABLE = /[\u200B-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]|\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form of a repository-relative path used for the second deny-list check (see the module
 * comment): NFKC, upper case then lower case (`\u0131` → `I` → `i`, `ß` → `SS` → `ss`), ignorable
 * code points removed, and per segment an NTFS stream suffix (`:…`) and trailing dots/spaces
 * removed. Segments that become empty are dropped.
 */
export function foldForDenyCheck(rel: string): string {
  return rel
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .replace(IGNORABLE, "")
    .split("/")
    .map((seg) => {
      const colon = seg.indexOf(":");
      const base = colon > 0 ? seg.slice(0, colon) : seg;
      return base.replace(/[. ]+$/u, "");
    })
    .filter((seg) => seg !== "")
    .join("/");
}

/**
 * The deny-list as ripgrep arguments (`--iglob=!<pattern>`, case-insensitive like
 * `isDeniedPath`), so that ripgrep never even opens a denied file. Results are still filtered
 * through `isDeniedPath` afterwards.
 */
export function denyGlobArgs(): string[] {
  return DENY_PATTERNS.map((p) => `--iglob=!${p}`);
}
