/**
 * Tool-name resolution: the one function that maps a tool name as a model wrote it onto an
 * offered tool. Parsers pass names through unchanged; only this function
 * decides. Native calls, dialect calls, inline JSON and interpreter output all go through it.
 *
 * Rules, in order (sources: goose's mangled-name recovery in aaif-goose/goose `crates/goose/src/providers/toolshim.rs`;
 * GLM/MiniMax leaks in aaif-goose/goose issue #9486):
 * 1. exact name;
 * 2. exact name after cleaning: surrounding quotes/backticks, a leading `functions.` /
 *    `functions:` / `default_api.` prefix, a trailing `:N` index, a trailing `()`;
 *    then `.` → `__` (`developer.shell` → `developer__shell`), `__` → `.`, and the last
 *    `.`/`__` segment (`functions.developer__shell` → `shell`, junk prefixes such as
 *    `emoji_functions.write:0` → `write`);
 * 3. hyphens and underscores as the same character, when that names one offered tool
 *    (`search-code` → `search_code`; `resolve_library_id` → `resolve-library-id`: a pythonic
 *    call cannot write a hyphen in a name, LM Studio bug-tracker issue #1358);
 * 4. unique namespace-suffix match: an offered tool named `<namespace>__<candidate>` or
 *    `<namespace>.<candidate>` (`shell` → the only `*__shell`);
 * 5. case-insensitive exact match of a candidate, when unique;
 * 6. the tool's name, title or description written as words (Hermes models that copy what the
 *    catalogue shows: `"name": "Search Code"` for `search_code`, a title "Search code", a
 *    description "Apply tags to a document." — ollama/ollama issue #17274): compared with case,
 *    spaces, underscores, hyphens and a closing `.` ignored, against each offered tool's name,
 *    title, and description (whole or its first sentence); only when exactly one offered tool
 *    matches (last resort).
 *
 * Fail closed: a side-effect alias (`bash`, `shell`, `execute`, `write_file` …, see
 * `policy.ts`) resolves only to an offered tool with exactly that name (ignoring case) — never
 * by hyphen drift, suffix or segment onto some other offered tool.
 *
 * Deliberately not done: resolving on the part before the first colon (goose resolves
 * `shell:functions.execute:0` to `shell`), fuzzy/edit-distance matching, and names containing
 * whitespace other than rule 6's whole words (`label functions.shell`).
 */
import { isSideEffectToolName } from "./policy.js";
import type { OfferedTool } from "./types.js";

function spellings(raw: string): { full: string[]; segment?: string } {
  const trimmed = raw.trim().replace(/^["'`]+|["'`]+$/g, "").trim();
  if (trimmed === "" || /\s/.test(trimmed)) return { full: trimmed === "" ? [] : [trimmed] };
  const full: string[] = [trimmed];
  let core = trimmed;
  for (const strip of [/^(?:functions?|default_api)[.:]/, /:\d+$/, /\(\)$/]) {
    const next = core.replace(strip, "");
    if (next !== core && next !== "") {
      full.push(next);
      core = next;
    }
  }
  full.push(core.replace(/\./g, "__"), core.replace(/__/g, "."));
  const segments = core.split(/\.|__/).filter((x) => x !== "");
  const out: { full: string[]; segment?: string } = { full: [...new Set(full)] };
  if (segments.length > 1) out.segment = segments[segments.length - 1]!;
  return out;
}

/**
 * The cleaned spellings of a raw name that rule 2 tries, most specific first, de-duplicated.
 * Exported for tests and diagnostics.
 */
export function nameCandidates(raw: string): string[] {
  const { full, segment } = spellings(raw);
  return segment === undefined || full.includes(segment) ? full : [...full, segment];
}

/**
 * Resolve `name` against the offered tools.
 *
 * @param name the tool name as the model wrote it (header, JSON `name`, tag attribute …).
 * @param tools the offered whitelist.
 * @returns the offered tool's exact name, or `undefined` when the name is not an offered tool
 *   (then it is not a call; see `policy.ts` for the error the model gets).
 */
export function resolveToolName(name: string, tools: readonly OfferedTool[]): string | undefined {
  if (tools.length === 0) return undefined;
  const names = tools.map((t) => t.name);
  const exact = new Set(names);
  if (exact.has(name)) return name;
  const candidates = nameCandidates(name);
  for (const c of candidates) if (exact.has(c)) return c;
  if (candidates.length === 0) return undefined;
  if (/\s/.test(candidates[0]!)) return byWords(candidates[0]!, tools);

  const caseInsensitive = (c: string): string | undefined => {
    const lower = asciiLower(c);
    const hits = [...new Set(names.filter((n) => asciiLower(n) === lower))];
    return hits.length === 1 ? hits[0] : undefined;
  };

  if (isSideEffectToolName(name)) {
    // Fail closed: only the same whole name, ignoring case; no segment or suffix match.
    for (const c of spellings(name).full) {
      const hit = caseInsensitive(c);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  const underscored = (n: string): string => n.replace(/-/g, "_");
  for (const c of candidates) {
    const key = underscored(c);
    const hits = [...new Set(names.filter((n) => n !== c && underscored(n) === key))];
    if (hits.length === 1) return hits[0];
  }
  const written = namespaceOf(name);
  for (const c of candidates) {
    const hits = [...new Set(names.filter((n) => (n.endsWith(`__${c}`) || n.endsWith(`.${c}`)) && sameNamespace(written, n.slice(0, -c.length))))];
    if (hits.length === 1) return hits[0];
  }
  for (const c of candidates) {
    const hit = caseInsensitive(c);
    if (hit !== undefined) return hit;
  }
  return byWords(candidates[0]!, tools);
}

/**
 * Lower case of the ASCII letters only: a look-alike that Unicode case mapping turns into an ASCII
 * letter (the Kelvin sign `K` U+212A lower-cases to `k`) does not spell an offered name.
 */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * The namespace a written name gives its tool: what stands before its last `.`/`__` segment once the
 * `functions.`/`default_api.` prefix and a `:N` index are cleaned off (`mcp__git__list_dir` → `mcp__git`),
 * with `.` spelled `__`; `""` for none.
 */
function namespaceOf(raw: string): string {
  const core = spellings(raw).full.find((f) => !/\s/.test(f) && !/^(?:functions?|default_api)[.:]|:\d+$|\(\)$/.test(f)) ?? "";
  const cut = Math.max(core.lastIndexOf("."), core.lastIndexOf("__"));
  return cut <= 0 ? "" : core.slice(0, cut).replace(/\./g, "__");
}

/**
 * Whether a written namespace allows an offered tool whose name has `prefix` before the matched
 * candidate (`mcp__fs__`): none written, or the same one, or its last part (`fs` for `mcp__fs`).
 * `mcp__git__list_dir` is not the offered `mcp__fs__list_dir`: another server's tool was not offered.
 */
function sameNamespace(written: string, prefix: string): boolean {
  if (written === "") return true;
  const offered = prefix.replace(/\./g, "__").replace(/_+$/, "");
  return offered === written || offered.endsWith(`__${written}`);
}

/** A name, title or sentence as words: lower case, one space for each run of spaces, `_` and `-`, no closing `.`. */
function words(s: string): string {
  return asciiLower(s).replace(/[\s_-]+/g, " ").trim().replace(/\s*\.$/, "");
}

/** What rule 6 compares a written name with: the tool's name, title, description and its first sentence. */
function wordKeys(t: OfferedTool): string[] {
  const keys = [t.name, t.title, t.description, t.description?.split(/(?<=\.)\s|\n/)[0]];
  return keys.filter((k): k is string => k !== undefined && k.trim() !== "").map(words);
}

/**
 * Rule 6: the one offered tool whose name, title or description `written` spells in words.
 * A side-effect name written as words (`Write File`) keeps the fail-closed rule: only a tool
 * named exactly that (`write_file`), never one it titles.
 */
function byWords(written: string, tools: readonly OfferedTool[]): string | undefined {
  const key = words(written);
  if (key === "") return undefined;
  const byName = (t: OfferedTool) => words(t.name) === key;
  const hits = tools.filter(isSideEffectToolName(key.replace(/ /g, "_")) ? byName : (t) => wordKeys(t).includes(key));
  return new Set(hits.map((t) => t.name)).size === 1 ? hits[0]!.name : undefined;
}
