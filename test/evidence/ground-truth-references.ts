/**
 * Ground truth for `find_references`: precision and recall of codecite's resolved references (not
 * `by_name`) at (path, line) granularity against an independent tool, on any checkout:
 *
 *   npx tsx test/evidence/ground-truth-references.ts <repo-dir> --lang python|ts|go|c|cpp [--count N] [--details N]
 *
 * - **Targets**: `--count` (default 40) definitions of the language (functions, classes, methods,
 *   Go structs and interfaces; names of 4+ characters), chosen deterministically by a hash of
 *   path and qualified name. Each is queried as `find_references` would be, with its file as `path`.
 * - **Oracles**: Python — jedi `Script.get_references` (Debian `python3-jedi`; helper
 *   `ground-truth-references.py`); TypeScript/JavaScript — the TypeScript language service
 *   `findReferences` over every JS/TS file of the checkout (`allowJs`); Go — `gopls references`
 *   (Debian `gopls`, needs the `go` toolchain); C and C++ — clangd `textDocument/references` after
 *   its background index (Debian `clangd`; helper `ground-truth-clangd.ts`).
 * - **Rust and Java**: `--truth FILE` instead of `--lang` checks against hand-checked truth
 *   (`ground-truth/references-rust.md`, `references-java.md`; `--oracle javac` adds the javac
 *   tree walk for Java); targets, rule and details in `ground-truth-hand.ts`.
 * - **Compared**: the set of `path:line` of references of each target, without the line where the
 *   definition's name is written; lines outside the repository or in `node_modules` are dropped.
 *   Figures are summed over targets (micro average). TypeScript: the lines of the target symbol's
 *   own declarations (an overloaded function's signatures and implementation, a merged interface's
 *   parts; `TypeChecker.getSymbolAtLocation(…).declarations`) are left out of both sides — they are
 *   declarations, not uses — and so is a `findReferences` group whose definition lies outside the
 *   repository (a library method such as `Map.prototype.entries` that a repository class overrides:
 *   those are the library method's uses). The name's position is the name right after its keyword
 *   (`const`/`let`/`var` included), so a keyword earlier on a line of the definition's range is not
 *   taken for it (`type: "test/reverseArray"`).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { loadFacts } from "../../src/evidence/analysis/facts.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { SymbolDef } from "../../src/evidence/analysis/lang/language.js";
import { statFiles, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { collectReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { clangdReferences } from "./ground-truth-clangd.js";
import { checkTruth } from "./ground-truth-hand.js";

type Lang = "python" | "ts" | "go" | "c" | "cpp";

interface Target {
  file: string;
  def: SymbolDef;
  qualified: string;
  /** 1-based line and 0-based column of the definition's name. */
  line: number;
  column: number;
}

const KINDS = new Set(["function", "class", "method", "struct", "interface"]);
const FAMILY: Record<Lang, (f: string) => boolean> = {
  python: (f) => languageFor(f)?.id === "python",
  ts: (f) => ["typescript", "tsx", "javascript"].includes(languageFor(f)?.id ?? "") && !f.endsWith(".d.ts"),
  go: (f) => languageFor(f)?.id === "go",
  c: (f) => languageFor(f)?.family === "c",
  cpp: (f) => languageFor(f)?.family === "c",
};
/** Where the targets are picked (C: `.c` files and headers; C++: C++ sources and headers). */
const TARGET_FILES: Partial<Record<Lang, (f: string) => boolean>> = {
  c: (f) => f.endsWith(".c") || f.endsWith(".h"),
  cpp: (f) => languageFor(f)?.id === "cpp",
};

/** Where the definition's name is written: the first line of its range naming it after a keyword, else the first naming it. */
function namePosition(lines: readonly string[], def: SymbolDef): { line: number; column: number } | undefined {
  const word = new RegExp(`\\b${def.name.replace(/[$]/g, "\\$")}\\b`);
  // The keyword right before the name (Go: after a method's receiver); not a keyword earlier on the
  // line (`type: "test/reverseArray"` on the line after `const reverseArray = () => ({`).
  const keyword = new RegExp(`\\b(def|class|function\\*?|func(?:\\s*\\([^)]*\\))?|interface|type|struct|fn|const|let|var)\\s+${def.name.replace(/[$]/g, "\\$")}\\b`);
  let first: { line: number; column: number } | undefined;
  for (let l = def.start_line; l <= Math.min(def.end_line, def.start_line + 30); l++) {
    const text = lines[l - 1] ?? "";
    const m = word.exec(text);
    if (m === null) continue;
    if (keyword.test(text)) {
      const k = keyword.exec(text) as RegExpExecArray;
      const col = text.indexOf(def.name, k.index + k[1]!.length);
      return { line: l, column: col };
    }
    first ??= { line: l, column: m.index };
  }
  return first;
}

async function pickTargets(ws: Workspace, lang: Lang, count: number): Promise<Target[]> {
  const snap = await treeSnapshot(ws, {});
  const files = snap.files.filter(TARGET_FILES[lang] ?? FAMILY[lang]);
  const facts = await loadFacts(ws, statFiles(ws, files));
  const all: Target[] = [];
  for (const [file, f] of facts) {
    const lines = (await ws.readText(file)).lines;
    const seen = new Set<string>();
    for (const def of f.symbols) {
      if (!KINDS.has(def.kind) || def.name.length < 4 || def.declaration === true) continue;
      const qualified = def.container ? `${def.container}.${def.name}` : def.name;
      if (seen.has(qualified)) continue; // overloads: one target
      seen.add(qualified);
      const pos = namePosition(lines, def);
      if (pos) all.push({ file, def, qualified, ...pos });
    }
  }
  const key = (t: Target) => createHash("sha1").update(`${t.file}\0${t.qualified}`).digest("hex");
  return all.sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, count);
}

function jediTruth(root: string, targets: readonly Target[]): (string[] | undefined)[] {
  const input = JSON.stringify({ root, targets: targets.map((t) => ({ file: t.file, line: t.line, column: t.column })) });
  const res = spawnSync("python3", [path.join(import.meta.dirname, "ground-truth-references.py")], { input, maxBuffer: 256 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`jedi failed: ${res.stderr.toString()}`);
  const out = JSON.parse(res.stdout.toString()) as ([string, number][] | { error: string })[];
  return out.map((r) => (Array.isArray(r) ? r.map(([f, l]) => `${f}:${l}`) : undefined));
}

/** `declared[i]` receives the `path:line` of target `i`'s own declarations ({@link ownDeclarations}), left out of both sides. */
function tsTruth(root: string, files: readonly string[], targets: readonly Target[], declared: Set<string>[]): (string[] | undefined)[] {
  const abs = files.map((f) => path.join(root, f));
  // The checkout's own compiler options (paths, baseUrl, jsx) when it has a root tsconfig.json.
  let options: ts.CompilerOptions = { jsx: ts.JsxEmit.Preserve, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ESNext, resolveJsonModule: true };
  const config = path.join(root, "tsconfig.json");
  if (fs.existsSync(config)) {
    const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (parsed) options = parsed.options;
  }
  options = { ...options, allowJs: true, checkJs: false, noEmit: true };
  const texts = new Map<string, string>();
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => abs,
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      let t = texts.get(name);
      if (t === undefined) {
        if (!fs.existsSync(name)) return undefined;
        t = fs.readFileSync(name, "utf8");
        texts.set(name, t);
      }
      return ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (p) => fs.existsSync(p),
    readFile: (p) => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  return targets.map((t, i) => {
    const fileName = path.join(root, t.file);
    const text = host.getScriptSnapshot(fileName);
    if (text === undefined) return undefined;
    const source = service.getProgram()?.getSourceFile(fileName);
    if (source === undefined) return undefined;
    const pos = ts.getPositionOfLineAndCharacter(source, t.line - 1, t.column);
    const found = service.findReferences(fileName, pos) ?? [];
    const outside = (f: string) => {
      const rel = path.relative(root, f).replace(/\\/g, "/");
      return rel.startsWith("..") || path.isAbsolute(rel) || rel.includes("node_modules/") ? undefined : rel;
    };
    const own = ownDeclarations(service, source, pos);
    declared[i] = own;
    const out: string[] = [];
    for (const group of found) {
      // A group whose symbol is declared outside the repository (`Map.prototype.entries`, which a
      // repository class overriding it shares its references with) lists that symbol's uses.
      if (outside(group.definition.fileName) === undefined) continue;
      for (const r of group.references) {
        const rel = outside(r.fileName);
        if (rel === undefined) continue;
        const sf = service.getProgram()?.getSourceFile(r.fileName);
        if (!sf) continue;
        const key = `${rel}:${sf.getLineAndCharacterOfPosition(r.textSpan.start).line + 1}`;
        if (!own.has(key)) out.push(key);
      }
    }
    return out;
  });
}

/**
 * The `path:line` of every declaration of the symbol at `pos` (an overloaded function's signatures
 * and implementation, a merged interface's parts): declarations, not uses, so not references.
 */
function ownDeclarations(service: ts.LanguageService, source: ts.SourceFile, pos: number): Set<string> {
  const program = service.getProgram();
  const out = new Set<string>();
  if (program === undefined) return out;
  const find = (n: ts.Node): ts.Node | undefined => (n.getStart(source) <= pos && pos < n.getEnd() ? (ts.forEachChild(n, find) ?? n) : undefined);
  const node = find(source);
  const symbol = node === undefined ? undefined : program.getTypeChecker().getSymbolAtLocation(node);
  for (const d of symbol?.declarations ?? []) {
    const name = ts.getNameOfDeclaration(d) ?? d;
    const sf = d.getSourceFile();
    const rel = path.relative(program.getCurrentDirectory(), sf.fileName).replace(/\\/g, "/");
    out.add(`${rel}:${sf.getLineAndCharacterOfPosition(name.getStart(sf)).line + 1}`);
  }
  return out;
}

function goplsTruth(root: string, targets: readonly Target[]): (string[] | undefined)[] {
  return targets.map((t) => {
    // gopls columns are 1-based byte offsets.
    const line = fs.readFileSync(path.join(root, t.file), "utf8").split("\n")[t.line - 1] ?? "";
    const col = Buffer.byteLength(line.slice(0, t.column)) + 1;
    const res = spawnSync("gopls", ["references", `${path.join(root, t.file)}:${t.line}:${col}`], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    if (res.status !== 0) return undefined;
    return res.stdout
      .toString()
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => {
        const m = /^(.*):(\d+):\d+(-\d+)?$/.exec(l);
        return m ? `${path.relative(root, m[1] as string).replace(/\\/g, "/")}:${m[2]}` : "";
      })
      .filter((l) => l !== "" && !l.startsWith(".."));
  });
}

export interface ReferenceAgreement {
  repo: string;
  lang: Lang;
  targets: number;
  /** Targets the oracle could not answer (left out). */
  skipped: number;
  truePositives: number;
  ours: number;
  truth: number;
  precision: number;
  recall: number;
  onlyOurs: string[];
  onlyTruth: string[];
}

/** Runs the comparison on `root` for `lang` (see the module comment). */
export async function compareReferences(root: string, lang: Lang, count = 40): Promise<ReferenceAgreement> {
  const ws = await Workspace.open(root);
  const targets = await pickTargets(ws, lang, count);
  const snap = await treeSnapshot(ws, {});
  const declared: Set<string>[] = [];
  const truths =
    lang === "python"
      ? jediTruth(ws.root, targets)
      : lang === "ts"
        ? tsTruth(ws.root, snap.files.filter(FAMILY.ts), targets, declared)
        : lang === "go"
          ? goplsTruth(ws.root, targets)
          : await clangdReferences(ws.root, snap.files.filter(FAMILY[lang]), targets);
  const a: ReferenceAgreement = { repo: root, lang, targets: targets.length, skipped: 0, truePositives: 0, ours: 0, truth: 0, precision: 1, recall: 1, onlyOurs: [], onlyTruth: [] };
  for (const [i, t] of targets.entries()) {
    const truthList = truths[i];
    let ours: Set<string>;
    try {
      const c = await collectReferences(ws, { name: t.qualified, path: t.file });
      ours = new Set(c.hits.filter((h) => !h.byName).map((h) => `${h.file}:${h.line}`));
    } catch {
      a.skipped++;
      continue;
    }
    if (truthList === undefined) {
      a.skipped++;
      continue;
    }
    const self = `${t.file}:${t.line}`;
    const truth = new Set(truthList.filter((k) => k !== self && FAMILY[lang](k.slice(0, k.lastIndexOf(":")))));
    ours.delete(self);
    for (const k of declared[i] ?? []) ours.delete(k);
    for (const k of ours) {
      if (truth.has(k)) a.truePositives++;
      else a.onlyOurs.push(`${t.qualified} ← ${k}`);
    }
    for (const k of truth) if (!ours.has(k)) a.onlyTruth.push(`${t.qualified} ← ${k}`);
    a.ours += ours.size;
    a.truth += truth.size;
  }
  a.precision = a.ours === 0 ? 1 : a.truePositives / a.ours;
  a.recall = a.truth === 0 ? 1 : a.truePositives / a.truth;
  return a;
}

if (process.argv[1] !== undefined && import.meta.filename === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const root = args.find((x) => !x.startsWith("--") && !/^\d+$/.test(x) && !["python", "ts", "go", "c", "cpp"].includes(x));
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const truthFile = opt("--truth");
  if (root !== undefined && truthFile !== undefined) {
    // Hand-checked truth (Rust, Java): ground-truth-hand.ts
    const r = await checkTruth(root, truthFile, opt("--oracle") === "javac" ? "javac" : undefined);
    for (const [label, a] of [["hand-checked truth", r.ours], ["javac vs truth", r.oracle?.vsTruth], ["codecite vs javac", r.oracle?.oursVsOracle]] as const) {
      if (a !== undefined) process.stdout.write(`${path.basename(root)} ${label}: ${a.targets} targets, found ${a.ours}, truth ${a.truth}, agree ${a.agree}; precision ${a.precision.toFixed(3)}, recall ${a.recall.toFixed(3)}\n`);
    }
    process.exit(0);
  }
  const lang = opt("--lang") as Lang | undefined;
  if (root === undefined || lang === undefined || !["python", "ts", "go", "c", "cpp"].includes(lang)) {
    process.stderr.write("usage: ground-truth-references.ts <repo-dir> --lang python|ts|go|c|cpp [--count N] [--details N]\n       ground-truth-references.ts <repo-dir> --truth test/evidence/ground-truth/references-rust.md|references-java.md [--oracle javac]\n");
    process.exit(2);
  }
  const a = await compareReferences(root, lang, Number(opt("--count") ?? "40"));
  const details = Number(opt("--details") ?? "0");
  process.stdout.write(
    `${path.basename(root)} ${lang}: ${a.targets} targets (${a.skipped} skipped), ours ${a.ours}, truth ${a.truth}, agree ${a.truePositives}; precision ${a.precision.toFixed(3)}, recall ${a.recall.toFixed(3)}\n`,
  );
  for (const [label, list] of [["only ours", a.onlyOurs], ["only truth", a.onlyTruth]] as const) {
    if (details === 0 || list.length === 0) continue;
    process.stdout.write(`  ${label} (${list.length}):\n`);
    for (const x of list.slice(0, details)) process.stdout.write(`    ${x}\n`);
  }
}
