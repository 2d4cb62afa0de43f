/**
 * Ground truth for definitions: codecite's `find_symbol` facts against universal-ctags (JSON
 * output, https://docs.ctags.io/en/latest/man/ctags-json-output.5.html) over one repository and
 * one language.
 *
 *   npx tsx test/evidence/ground-truth-defs.ts <repo-dir> <language> [--details N] [--adjudicated <file>]
 *
 * `<language>` is a codecite language id (`c`, `cpp`, `csharp`, `ruby`, `php`, `kotlin`, `swift`: ctags has
 * no Swift parser, so `ground-truth-swift-decls.py`, written from the language reference, stands in). Both
 * sides read the same files (those codecite gives to the language; `.h` counts as C++ on both
 * sides). A codecite definition agrees with a ctags tag of the same name in the same file whose
 * line lies within the definition's range (ctags reports the name's line; for Swift the container must
 * equal the tag's scope too). Declarations without a
 * body (C/C++ prototypes) are left out on both sides.
 * - **precision**: codecite definitions that agree with a ctags tag of any kind;
 * - **recall**: ctags tags of the kinds codecite claims for the language ({@link KINDS}) that agree
 *   with a codecite definition; tags inside function bodies (locals, lambdas, anonymous classes),
 *   which codecite never reports, and ctags' made-up names of anonymous namespaces and enums
 *   (`__anon…`) are counted apart.
 * With `--adjudicated <file>` (lines `ours|truth <path>:<line> <name> — reason`; a name may hold spaces), listed
 * differences are taken as settled by reading the code: an `ours` line is a codecite definition
 * ctags misses (counts as agreeing), a `truth` line a ctags tag that is no definition (left out).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { folderProject } from "./lang-test-kit.js";

/** Per codecite language: the ctags language names and the ctags kinds codecite claims to find. */
const KINDS: Readonly<Record<string, { ctags: string[]; kinds: string[] }>> = {
  c: { ctags: ["C"], kinds: ["function", "struct", "union", "enum", "enumerator", "typedef", "macro", "variable"] },
  cpp: { ctags: ["C++"], kinds: ["function", "struct", "union", "enum", "enumerator", "typedef", "macro", "class", "namespace", "variable"] },
  csharp: { ctags: ["C#"], kinds: ["class", "struct", "interface", "enum", "enumerator", "method", "property", "event"] },
  ruby: { ctags: ["Ruby"], kinds: ["module", "class", "method", "singletonMethod", "constant", "accessor"] },
  php: { ctags: ["PHP"], kinds: ["class", "interface", "trait", "function", "define"] },
  kotlin: { ctags: ["Kotlin"], kinds: ["class", "interface", "object", "method", "typealias", "constant", "variable"] },
  // universal-ctags has no Swift parser: `ground-truth-swift-decls.py` lists Swift's declarations in its tag shape.
  swift: { ctags: ["Swift"], kinds: ["class", "struct", "enum", "protocol", "actor", "enumerator", "function", "method", "variable", "constant", "typealias", "macro", "operator", "precedencegroup"] },
};

interface Tag {
  name: string;
  path: string;
  line: number;
  kind: string;
  scope?: string;
  scopeKind?: string;
}

/**
 * ctags tags that are local by codecite's rules (no definitions inside function bodies): a tag
 * whose scope is a function or method, a lambda, an anonymous class, or lies below one (a method of
 * a class declared in a function body: scope `ns::A::f::Local`, where `ns::A::f` is a function tag
 * of the same file — `functions` holds those qualified names).
 */
function isLocal(t: Tag, functions: ReadonlySet<string>): boolean {
  if (t.name === "<lambda>" || t.name.startsWith("AnonymousClass") || t.scope?.includes("<lambda>") === true || t.scope?.includes("AnonymousClass") === true || ["function", "method", "singletonMethod"].includes(t.scopeKind ?? "")) return true;
  const parts = t.scope?.split(/::|\./) ?? [];
  for (let i = 1; i < parts.length; i++) if (functions.has(`${t.path}\0${parts.slice(0, i).join("::")}`)) return true;
  return false;
}

/**
 * ctags' names for anonymous namespaces, enums and structs (`__anon17a4e9190111`): no name a user
 * could ask for, and codecite reports none for them. Counted apart.
 */
const isAnonymous = (t: Tag): boolean => /^__anon[0-9a-f]+$/.test(t.name);

/**
 * A ctags tag whose name does not occur on its line: universal-ctags 5.9.0's Kotlin parser names a
 * function written with backquotes (`` fun `can resolve`() ``) with bytes of uninitialized memory
 * (`J@W`, `VW`, different on every run). No name to compare; counted apart (Kotlin only: other
 * parsers make up names on purpose, such as Ruby's `x=` writer of `attr_accessor :x`).
 */
function isGarbled(t: Tag, linesOf: (file: string) => readonly string[]): boolean {
  const line = linesOf(t.path)[t.line - 1] ?? "";
  return !line.includes(t.name.replace(/^operator/, "").split(".").pop() ?? t.name);
}

/** `path\0qualified::name` of every function and method tag (scopes joined with `::`). */
function functionNames(tags: readonly Tag[]): Set<string> {
  const out = new Set<string>();
  for (const t of tags) {
    if (!["function", "method", "singletonMethod"].includes(t.kind)) continue;
    const scope = t.scope?.split(/::|\./).join("::");
    out.add(`${t.path}\0${scope ? `${scope}::` : ""}${t.name}`);
  }
  return out;
}

export interface DefinitionAgreement {
  root: string;
  language: string;
  files: number;
  ours: number;
  oursAgree: number;
  truth: number;
  truthFound: number;
  /** ctags tags left out as local ({@link isLocal}). */
  local: number;
  /** ctags tags left out as anonymous ({@link isAnonymous}). */
  anonymous: number;
  /** ctags tags left out as garbled: the name does not occur on the tag's line ({@link isGarbled}). */
  garbled: number;
  onlyOurs: string[];
  onlyTruth: string[];
}

function ctagsTags(root: string, files: readonly string[], ctagsLanguage: string): Tag[] {
  // `--language-force` makes ctags read every listed file (so `.h` is C++ as in codecite).
  const command: [string, string[]] =
    ctagsLanguage === "Swift"
      ? ["python3", [fileURLToPath(new URL("ground-truth-swift-decls.py", import.meta.url))]]
      : ["ctags", ["--output-format=json", "--fields=+nKZ", "-f", "-", `--language-force=${ctagsLanguage}`, "-L", "-"]];
  const r = spawnSync(command[0], command[1], {
    cwd: root,
    input: files.join("\n"),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`ctags failed: ${r.stderr}`);
  const out: Tag[] = [];
  for (const line of r.stdout.split("\n")) {
    if (line.trim() === "") continue;
    const t = JSON.parse(line) as Tag & { _type: string };
    // `operator ==` (ctags) is `operator==` (codecite); a C# explicit interface implementation
    // (`IEnumerable.GetEnumerator`, `System.IDisposable.Dispose`) is named by its member, as codecite names it.
    const name = t.name.trim().replace(/^operator\s+/, "operator");
    if (t._type === "tag") out.push({ name: ctagsLanguage === "C#" && /^[\w.<>, ]+\.\w+$/.test(name) && ["method", "property", "event"].includes(t.kind) ? (name.split(".").pop() as string) : name, path: t.path, line: t.line, kind: t.kind, ...(t.scope !== undefined ? { scope: t.scope } : {}), ...(t.scopeKind !== undefined ? { scopeKind: t.scopeKind } : {}) });
  }
  return out;
}

/** `ours|truth path:line name` lines of an adjudication file. */
function readAdjudicated(file: string | undefined): { ours: Set<string>; truth: Set<string> } {
  const out = { ours: new Set<string>(), truth: new Set<string>() };
  if (file === undefined) return out;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^(ours|truth)\s+(\S+:\d+\s+.+?)\s+—/.exec(line);
    if (m !== null) out[m[1] as "ours" | "truth"].add(m[2] as string);
  }
  return out;
}

/** Compares codecite's definitions with ctags' tags for one language of `root`. */
export async function compareDefinitions(root: string, language: string, opts: { adjudicated?: string } = {}): Promise<DefinitionAgreement> {
  const spec = KINDS[language];
  if (spec === undefined) throw new Error(`no ctags mapping for ${language}`);
  const project = folderProject(root);
  const files = project.files.filter((f) => !f.startsWith(".git/") && languageFor(f)?.id === language);
  const settled = readAdjudicated(opts.adjudicated);
  const tags = ctagsTags(root, files, spec.ctags[0] as string);
  const byFileName = new Map<string, Tag[]>();
  for (const t of tags) {
    const key = `${t.path}\0${t.name}`;
    byFileName.set(key, [...(byFileName.get(key) ?? []), t]);
  }
  const result: DefinitionAgreement = { root, language, files: files.length, ours: 0, oursAgree: 0, truth: 0, truthFound: 0, local: 0, anonymous: 0, garbled: 0, onlyOurs: [], onlyTruth: [] };
  const covered = new Set<Tag>();
  for (const f of files) {
    const lang = languageFor(f);
    if (lang === undefined) continue;
    const facts = await extractFacts(lang, project.read(f));
    for (const d of facts.symbols) {
      if (d.declaration === true) continue;
      result.ours++;
      // Swift's tags carry the full enclosing type (`ground-truth-swift-decls.py`): the container must agree too.
      const hits = (byFileName.get(`${f}\0${d.name}`) ?? []).filter((t) => t.line >= d.start_line && t.line <= d.end_line && (language !== "swift" || (t.scope ?? "") === (d.container ?? "")));
      for (const t of hits) covered.add(t);
      if (hits.length > 0 || settled.ours.has(`${f}:${d.start_line} ${d.name}`)) result.oursAgree++;
      else result.onlyOurs.push(`${f}:${d.start_line} ${d.name} (${d.kind}${d.container ? ` in ${d.container}` : ""})`);
    }
  }
  const functions = functionNames(tags);
  const lines = new Map<string, string[]>();
  const linesOf = (f: string): string[] => lines.get(f) ?? (lines.set(f, project.read(f).split("\n")).get(f) as string[]);
  for (const t of tags) {
    if (!spec.kinds.includes(t.kind)) continue;
    if (isLocal(t, functions)) {
      result.local++;
      continue;
    }
    if (isAnonymous(t)) {
      result.anonymous++;
      continue;
    }
    if (language === "kotlin" && isGarbled(t, linesOf)) {
      result.garbled++;
      continue;
    }
    if (settled.truth.has(`${t.path}:${t.line} ${t.name}`)) continue;
    result.truth++;
    if (covered.has(t)) result.truthFound++;
    else result.onlyTruth.push(`${t.path}:${t.line} ${t.name} (${t.kind}${t.scope ? ` in ${t.scope}` : ""})`);
  }
  return result;
}

const ratio = (a: number, b: number): string => (b === 0 ? "n/a" : (a / b).toFixed(4));

export function summarizeDefinitions(a: DefinitionAgreement): string {
  return `${a.root} [${a.language}]: ${a.files} files; precision ${ratio(a.oursAgree, a.ours)} (${a.oursAgree}/${a.ours}); recall ${ratio(a.truthFound, a.truth)} (${a.truthFound}/${a.truth}; ${a.local} local, ${a.anonymous} anonymous and ${a.garbled} garbled ctags tags left out)`;
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const positional = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--details" && args[i - 1] !== "--adjudicated");
  const [root, language] = positional;
  if (root === undefined || language === undefined) {
    process.stderr.write("usage: ground-truth-defs.ts <repo-dir> <language> [--details N] [--adjudicated <file>]\n");
    process.exit(2);
  }
  const detailsAt = args.indexOf("--details");
  const adjAt = args.indexOf("--adjudicated");
  const a = await compareDefinitions(path.resolve(root), language, adjAt >= 0 ? { adjudicated: args[adjAt + 1] as string } : {});
  process.stdout.write(`${summarizeDefinitions(a)}\n`);
  const n = detailsAt >= 0 ? Number(args[detailsAt + 1] ?? "10") : 0;
  if (n > 0) {
    process.stdout.write(`only codecite (${a.onlyOurs.length}):\n${a.onlyOurs.slice(0, n).map((s) => `  ${s}\n`).join("")}`);
    process.stdout.write(`only ctags (${a.onlyTruth.length}):\n${a.onlyTruth.slice(0, n).map((s) => `  ${s}\n`).join("")}`);
  }
}
