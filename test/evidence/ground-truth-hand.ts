/**
 * Hand-checked ground truth for `find_references` (Rust and Java, where no reference oracle was
 * installable for Rust and the Java one is a compiler walk): the targets are chosen by a rule
 * that does not run codecite, their reference lines are read in the code and written to
 * `test/evidence/ground-truth/references-<lang>.md`, and this script recomputes precision and
 * recall of codecite's resolved references (not `by_name`) against them on any checkout:
 *
 *   npx tsx test/evidence/ground-truth-hand.ts pick <repo-dir> --lang rust|java [--count N]
 *   npx tsx test/evidence/ground-truth-hand.ts check <repo-dir> --truth FILE.md [--oracle javac] [--details N]
 *
 * - **pick** (the rule, before codecite runs): universal-ctags (`ctags -R --output-format=json`)
 *   lists the definitions of the library's own sources (Rust `src/`, Java `src/main/java/`):
 *   Rust functions, methods, structs, enums, traits, type aliases and `const`/`static` items;
 *   Java classes, interfaces, enums, methods and `static final` fields. Kept: names of 4+
 *   characters, not inside a function or a `tests` module, not `test*`, not a method of an `impl`
 *   for a primitive type (`impl X for [u8]`: no named type to qualify it), one per qualified name
 *   (overloads are one target), whose name occurs as a word on 2 to 30 lines of the language's
 *   files (`rg -w`; at least one use, few enough to read every line). Sorted by the SHA-1 of
 *   `path\0qualified`, the first `--count` (default 24).
 * - **check**: every target of the truth file is queried as `find_references NAME --path FILE`;
 *   compared at `path:line`, the definition's own line left out, micro-averaged. `--oracle javac`
 *   also runs the javac tree walk (`ground-truth-javac.java`, needs a JDK: Debian
 *   `openjdk-17-jdk-headless`) and reports its agreement with the truth and with codecite.
 *
 * Truth file: a fenced block marked `truth`, one `target <qualified> <path>:<line>` line per
 * target followed by its reference lines (`path:line`, indented; `#` starts a comment).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { collectReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

type Lang = "rust" | "java";

export interface HandTarget {
  qualified: string;
  file: string;
  line: number;
  kind: string;
}

interface CtagsTag {
  name: string;
  path: string;
  line: number;
  kind: string;
  pattern?: string;
  scope?: string;
  scopeKind?: string;
}

const EXT: Record<Lang, string> = { rust: ".rs", java: ".java" };
const SOURCES: Record<Lang, string> = { rust: "src", java: "src/main/java" };
const KINDS: Record<Lang, ReadonlySet<string>> = {
  rust: new Set(["function", "method", "struct", "enum", "interface", "typedef", "variable"]),
  java: new Set(["class", "interface", "enum", "method", "field"]),
};

const PRIMITIVES: ReadonlySet<string> = new Set(["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "bool", "char", "str"]);

/** The qualified name codecite takes for a tag: `Type.method` (generics and `Trait for` dropped), `Outer.Inner.m`. */
function qualifiedOf(lang: Lang, t: CtagsTag): string | undefined {
  if (t.scope === undefined || t.scopeKind === "module" || t.scopeKind === "package") return t.name;
  if (t.scopeKind === "function" || t.scopeKind === "method") return undefined;
  if (lang === "rust") {
    // `impl Trait for [u8]` / `for str`: no named type of the crate to qualify the method with.
    const self = t.scope.replace(/<.*$/, "").split(" for ").pop()?.split("::").pop();
    return self === undefined || self === "" || PRIMITIVES.has(self) ? undefined : `${self}.${t.name}`;
  }
  return `${t.scope}.${t.name}`;
}

/** The targets of `root` by the rule of the module comment (codecite is not run). */
export function pickTargets(root: string, lang: Lang, count = 24): HandTarget[] {
  const res = spawnSync("ctags", ["-R", `--languages=${lang === "rust" ? "Rust" : "Java"}`, "--output-format=json", "--fields=+nKZS", "-f", "-", SOURCES[lang]], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`ctags failed: ${res.stderr.toString()}`);
  const tags = res.stdout
    .toString()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as CtagsTag & { _type: string })
    .filter((t) => t._type === "tag");
  const words = (name: string): number => {
    const r = spawnSync(rgPath, ["--no-config", "-c", "-w", "--no-filename", `--iglob=*${EXT[lang]}`, "-e", name, "."], { cwd: root });
    return r.stdout
      .toString()
      .split("\n")
      .filter((l) => l !== "")
      .reduce((s, l) => s + Number(l), 0);
  };
  const seen = new Set<string>();
  const out: HandTarget[] = [];
  for (const t of tags) {
    if (!KINDS[lang].has(t.kind) || t.name.length < 4 || /^test/i.test(t.name)) continue;
    if (lang === "java" && t.kind === "field" && !/\bstatic\s+final\b/.test(t.pattern ?? "")) continue;
    if (t.scope !== undefined && /(^|::|\.)tests?$/.test(t.scope)) continue;
    const qualified = qualifiedOf(lang, t);
    if (qualified === undefined) continue;
    const key = `${t.path}\0${qualified}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ qualified, file: t.path, line: t.line, kind: t.kind });
  }
  const hash = (t: HandTarget) => createHash("sha1").update(`${t.file}\0${t.qualified}`).digest("hex");
  const picked: HandTarget[] = [];
  for (const t of out.sort((a, b) => (hash(a) < hash(b) ? -1 : 1))) {
    if (picked.length >= count) break;
    const n = words(t.qualified.split(".").pop() as string);
    if (n >= 2 && n <= 30) picked.push(t);
  }
  return picked;
}

export interface HandTruth {
  targets: (HandTarget & { truth: string[] })[];
}

/** Reads the `truth` block of a truth file (see the module comment). */
export function readTruth(file: string): HandTruth {
  const text = fs.readFileSync(file, "utf8");
  const block = /```truth\n([\s\S]*?)```/.exec(text);
  if (block === null) throw new Error(`${file}: no \`\`\`truth block`);
  const targets: HandTruth["targets"] = [];
  for (const raw of (block[1] as string).split("\n")) {
    const line = raw.replace(/#.*$/, "").trimEnd();
    if (line.trim() === "") continue;
    const t = /^target\s+(\S+)\s+(\S+):(\d+)(?:\s+(\S+))?$/.exec(line.trim());
    if (t !== null) {
      targets.push({ qualified: t[1] as string, file: t[2] as string, line: Number(t[3]), kind: t[4] ?? "", truth: [] });
      continue;
    }
    const ref = /^\s+(\S+:\d+)$/.exec(line);
    if (ref === null || targets.length === 0) throw new Error(`${file}: cannot read line ${JSON.stringify(raw)}`);
    targets[targets.length - 1]?.truth.push(ref[1] as string);
  }
  return { targets };
}

/** Reference lines per target from the javac tree walk (`ground-truth-javac.java`); `undefined` when no JDK runs. */
export function javacTruth(root: string, targets: readonly HandTarget[]): (string[] | undefined)[] | undefined {
  if (spawnSync("java", ["-version"]).status !== 0) return undefined;
  const input = targets.map((t) => `${t.file}\t${t.qualified}\t${t.kind}`).join("\n");
  const res = spawnSync("java", [path.join(import.meta.dirname, "ground-truth-javac.java"), root], { input, maxBuffer: 256 * 1024 * 1024, timeout: 600_000 });
  if (res.status !== 0) throw new Error(`javac oracle failed: ${res.stderr.toString().slice(0, 2000)}`);
  const byTarget = new Map<string, string[]>();
  const kindOf = (kind: string) => (kind === "method" || kind === "field" ? kind : "type");
  for (const l of res.stdout.toString().split("\n")) {
    const [file, qualified, kind, use] = l.split("\t");
    if (use === undefined) continue;
    const k = `${file}\t${qualified}\t${kind}`;
    byTarget.set(k, [...(byTarget.get(k) ?? []), use]);
  }
  return targets.map((t) => byTarget.get(`${t.file}\t${t.qualified}\t${kindOf(t.kind)}`) ?? []);
}

export interface HandAgreement {
  targets: number;
  skipped: string[];
  ours: number;
  truth: number;
  agree: number;
  precision: number;
  recall: number;
  onlyOurs: string[];
  onlyTruth: string[];
}

function agreement(targets: readonly HandTarget[], ours: readonly (Set<string> | undefined)[], truths: readonly (readonly string[] | undefined)[]): HandAgreement {
  const a: HandAgreement = { targets: targets.length, skipped: [], ours: 0, truth: 0, agree: 0, precision: 1, recall: 1, onlyOurs: [], onlyTruth: [] };
  targets.forEach((t, i) => {
    const o = ours[i];
    const tr = truths[i];
    if (o === undefined || tr === undefined) {
      a.skipped.push(t.qualified);
      return;
    }
    const self = `${t.file}:${t.line}`;
    const truth = new Set(tr.filter((k) => k !== self));
    const mine = new Set([...o].filter((k) => k !== self));
    for (const k of mine) {
      if (truth.has(k)) a.agree++;
      else a.onlyOurs.push(`${t.qualified} ← ${k}`);
    }
    for (const k of truth) if (!mine.has(k)) a.onlyTruth.push(`${t.qualified} ← ${k}`);
    a.ours += mine.size;
    a.truth += truth.size;
  });
  a.precision = a.ours === 0 ? 1 : a.agree / a.ours;
  a.recall = a.truth === 0 ? 1 : a.agree / a.truth;
  return a;
}

/** codecite's resolved reference lines per target (`undefined`: the query failed). */
export async function ourReferences(root: string, targets: readonly HandTarget[]): Promise<(Set<string> | undefined)[]> {
  const ws = await Workspace.open(root);
  const out: (Set<string> | undefined)[] = [];
  for (const t of targets) {
    try {
      const c = await collectReferences(ws, { name: t.qualified, path: t.file });
      out.push(new Set(c.hits.filter((h) => !h.byName).map((h) => `${h.file}:${h.line}`)));
    } catch (err) {
      process.stderr.write(`${t.qualified}: ${err instanceof Error ? err.message : String(err)}\n`);
      out.push(undefined);
    }
  }
  return out;
}

/** Precision and recall of codecite against the truth file, and of the oracle when asked. */
export async function checkTruth(root: string, truthFile: string, oracle?: "javac"): Promise<{ ours: HandAgreement; oracle?: { vsTruth: HandAgreement; oursVsOracle: HandAgreement } }> {
  const { targets } = readTruth(truthFile);
  const truths = targets.map((t) => t.truth);
  const ours = await ourReferences(root, targets);
  const result: { ours: HandAgreement; oracle?: { vsTruth: HandAgreement; oursVsOracle: HandAgreement } } = { ours: agreement(targets, ours, truths) };
  if (oracle === "javac") {
    const o = javacTruth(root, targets);
    if (o !== undefined) {
      result.oracle = {
        vsTruth: agreement(targets, o.map((x) => (x === undefined ? undefined : new Set(x))), truths),
        oursVsOracle: agreement(targets, ours, o),
      };
    }
  }
  return result;
}

function summary(label: string, a: HandAgreement): string {
  return `${label}: ${a.targets} targets (${a.skipped.length} skipped), found ${a.ours}, truth ${a.truth}, agree ${a.agree}; precision ${a.precision.toFixed(3)}, recall ${a.recall.toFixed(3)}`;
}

if (process.argv[1] !== undefined && import.meta.filename === path.resolve(process.argv[1])) {
  const [mode, root, ...rest] = process.argv.slice(2);
  const opt = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (root === undefined || (mode !== "pick" && mode !== "check")) {
    process.stderr.write("usage: ground-truth-hand.ts pick <repo-dir> --lang rust|java [--count N]\n       ground-truth-hand.ts check <repo-dir> --truth FILE.md [--oracle javac] [--details N]\n");
    process.exit(2);
  }
  const head = spawnSync("git", ["-C", root, "rev-parse", "HEAD"]).stdout?.toString().trim();
  if (mode === "pick") {
    const lang = opt("--lang") as Lang;
    if (lang !== "rust" && lang !== "java") throw new Error("--lang rust|java");
    process.stdout.write(`# ${path.basename(root)} ${head ?? "?"}${os.EOL}`);
    for (const t of pickTargets(root, lang, Number(opt("--count") ?? "24"))) process.stdout.write(`target ${t.qualified} ${t.file}:${t.line} ${t.kind}\n`);
  } else {
    const truthFile = opt("--truth");
    if (truthFile === undefined) throw new Error("--truth FILE.md");
    const commit = /commit ([0-9a-f]{40})/.exec(fs.readFileSync(truthFile, "utf8"))?.[1];
    if (commit !== undefined && head !== undefined && commit !== head) process.stderr.write(`note: the truth was read at ${commit}; the checkout is at ${head}\n`);
    const r = await checkTruth(root, truthFile, opt("--oracle") === "javac" ? "javac" : undefined);
    const details = Number(opt("--details") ?? "0");
    const print = (label: string, a: HandAgreement) => {
      process.stdout.write(`${summary(label, a)}\n`);
      for (const [l, list] of [["only found", a.onlyOurs], ["only truth", a.onlyTruth], ["skipped", a.skipped]] as const) {
        if (details === 0 || list.length === 0) continue;
        process.stdout.write(`  ${l} (${list.length}):\n`);
        for (const x of list.slice(0, details)) process.stdout.write(`    ${x}\n`);
      }
    };
    print("codecite vs hand-checked truth", r.ours);
    if (r.oracle) {
      print("javac oracle vs hand-checked truth", r.oracle.vsTruth);
      print("codecite vs javac oracle", r.oracle.oursVsOracle);
    }
  }
}
