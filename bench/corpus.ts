/**
 * Deterministic generator of a large multi-language corpus that looks like real code:
 * a src-layout Python package with subpackages that import each other (absolute, relative,
 * `import a.b as c`, `TYPE_CHECKING`, function-local and dynamic imports), a TypeScript app with
 * a tsconfig `paths` alias and relative ESM imports (plus some CommonJS JavaScript), a Go
 * module, a Rust crate and a Java source tree. The same spec and seed always give the same
 * bytes (a seeded PRNG per file), so a corpus on disk is reused when its manifest matches.
 *
 * Planted probes with known answers (written to the manifest) let the benchmark check that
 * the timed queries return the right thing:
 * - Python module `acme.core.rag_common`, imported by a known list of files in eight forms,
 *   next to a decoy `acme.legacy.rag_common` with the same last name;
 * - class `RagIndexBuilder`, defined exactly once;
 * - literal `normalize_payload(` on a known number of lines;
 * - TS file `web/src/core/api-client.ts`, imported by a known list of files.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Identifies the generator's output: a hash of this source file, so any edit rebuilds stored corpora. */
const GENERATOR_VERSION = createHash("sha256").update(readFileSync(new URL(import.meta.url))).digest("hex").slice(0, 16);

export interface CorpusSpec {
  name: string;
  seed: number;
  python: { packages: number; files: number; avgBytes: number };
  ts: { files: number; avgBytes: number };
  js: { files: number };
  go: { files: number };
  rust: { files: number };
  java: { files: number };
}

/** `--quick`: a few hundred files, a few MB. */
export const QUICK: CorpusSpec = {
  name: "quick",
  seed: 7,
  python: { packages: 12, files: 360, avgBytes: 8_000 },
  ts: { files: 120, avgBytes: 4_000 },
  js: { files: 20 },
  go: { files: 30 },
  rust: { files: 30 },
  java: { files: 30 },
};

/** `--medium` and the first tree of a default run: ~1k files, ~9 MB (a medium-sized repository). */
export const MEDIUM: CorpusSpec = {
  name: "medium",
  seed: 7,
  python: { packages: 16, files: 640, avgBytes: 9_000 },
  ts: { files: 200, avgBytes: 5_000 },
  js: { files: 40 },
  go: { files: 40 },
  rust: { files: 40 },
  java: { files: 40 },
};

/** Default: ~7k Python files / ~280 MB (the memory goal's tree) plus ~2.7k files of other languages. */
export const LARGE: CorpusSpec = {
  name: "large",
  seed: 7,
  python: { packages: 70, files: 7000, avgBytes: 40_000 },
  ts: { files: 1600, avgBytes: 6_000 },
  js: { files: 200 },
  go: { files: 300 },
  rust: { files: 300 },
  java: { files: 300 },
};

export interface Manifest {
  generator: string;
  spec: CorpusSpec;
  files: number;
  bytes: number;
  byLanguage: Record<string, { files: number; bytes: number }>;
  probes: {
    pythonModule: string;
    /** Files that import `pythonModule` (each with exactly one import statement of it), sorted. */
    pythonImporters: string[];
    /** The decoy module with the same last name, and its importers. */
    decoyModule: string;
    decoyImporters: string[];
    symbol: { name: string; path: string; line: number };
    /** Literal searched with search_code / rg -F, and the number of lines that contain it. */
    searchQuery: string;
    searchLines: number;
    tsFile: string;
    tsImporters: string[];
    /** A Python file that imports `pythonModule`, edited by the re-query row. */
    editTarget: string;
  };
}

// ---------------------------------------------------------------- deterministic randomness

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Seeded choices (mulberry32), shared by the tree generators. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The seed of file `i` of `lang` under a tree's seed. */
export const seedOf = (spec: { seed: number }, lang: string, i: number) => {
  let h = spec.seed ^ 0x9e3779b9;
  for (const c of `${lang}:${i}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
};

// ---------------------------------------------------------------- vocabulary

export const NOUNS = [
  "account", "order", "invoice", "payment", "customer", "session", "token", "record", "batch", "report",
  "metric", "event", "message", "channel", "queue", "worker", "task", "job", "schedule", "policy",
  "rule", "profile", "address", "product", "catalog", "price", "discount", "cart", "shipment", "warehouse",
  "ledger", "balance", "transfer", "refund", "audit", "snapshot", "document", "chunk", "embedding", "vector",
  "query", "result", "cursor", "page", "filter", "index", "segment", "partition", "replica", "lease",
  "quota", "tenant", "region", "cluster", "node", "route", "request", "response", "header", "payload",
];
export const VERBS = [
  "load", "save", "fetch", "build", "parse", "render", "validate", "compute", "merge", "split",
  "encode", "decode", "resolve", "dispatch", "collect", "flush", "refresh", "apply", "compare", "export",
  "import_from", "sync", "schedule", "cancel", "retry", "register", "lookup", "update", "delete", "create",
];
export const ADJECTIVES = [
  "pending", "active", "cached", "remote", "local", "default", "primary", "shared", "stale", "partial",
  "signed", "encrypted", "batched", "async", "lazy", "strict", "raw", "normalized", "weighted", "scoped",
];
const MODULE_SUFFIXES = [
  "service", "utils", "models", "handlers", "client", "store", "views", "tasks", "schemas", "helpers",
  "api", "repository", "validators", "serializers", "signals", "admin", "forms", "config", "loader", "parser",
];
export const KINDS = ["Manager", "Service", "Builder", "Client", "Store", "Handler", "Config", "Repository", "Policy", "Adapter"];
const PACKAGES = [
  "core", "billing", "catalog", "search", "accounts", "orders", "shipping", "notifications", "analytics", "reports",
  "ingest", "storage", "scheduler", "auth", "payments", "inventory", "pricing", "support", "gateway", "workers",
  "legacy", "exports", "imports", "metrics", "audit", "tenancy", "routing", "cache", "streams", "documents",
];

export const pascal = (s: string) => s.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
const camel = (s: string) => {
  const p = pascal(s);
  return p.charAt(0).toLowerCase() + p.slice(1);
};

// ---------------------------------------------------------------- writing

/** A tree being written: where, and the running totals for its manifest. */
export interface Out {
  root: string;
  files: number;
  bytes: number;
  byLanguage: Record<string, { files: number; bytes: number }>;
  dirs: Set<string>;
}

/** Writes one file of the tree and counts it under `lang`. */
export function emit(out: Out, lang: string, rel: string, text: string): void {
  const abs = path.join(out.root, rel);
  const d = path.dirname(abs);
  if (!out.dirs.has(d)) {
    mkdirSync(d, { recursive: true });
    out.dirs.add(d);
  }
  writeFileSync(abs, text);
  const n = Buffer.byteLength(text);
  out.files++;
  out.bytes += n;
  const l = (out.byLanguage[lang] ??= { files: 0, bytes: 0 });
  l.files++;
  l.bytes += n;
}

// ---------------------------------------------------------------- Python

interface PyModule {
  pkg: string;
  /** Sub-package under `pkg`, or "" */
  sub: string;
  name: string;
  dotted: string;
  rel: string;
  classes: string[];
  functions: string[];
}

const PROBE_FORMS = [
  "from_import",
  "from_package",
  "import_as",
  "import_plain",
  "relative",
  "type_checking",
  "nested",
  "dynamic",
] as const;

function planPython(spec: CorpusSpec): PyModule[] {
  const pkgs = PACKAGES.slice(0, Math.min(PACKAGES.length, spec.python.packages));
  while (pkgs.length < spec.python.packages) pkgs.push(`${PACKAGES[pkgs.length % PACKAGES.length]}${pkgs.length}`);
  const mods: PyModule[] = [];
  const used = new Set<string>();
  for (let i = 0; i < spec.python.files; i++) {
    const r = new Rng(seedOf(spec, "pyplan", i));
    const pkg = pkgs[i % pkgs.length] as string;
    const sub = i % 5 === 4 ? `${r.pick(NOUNS)}s` : "";
    let name = `${r.pick(NOUNS)}_${r.pick(MODULE_SUFFIXES)}`;
    let dotted = ["acme", pkg, sub, name].filter(Boolean).join(".");
    for (let k = 2; used.has(dotted); k++) {
      name = `${name.replace(/_\d+$/, "")}_${k}`;
      dotted = ["acme", pkg, sub, name].filter(Boolean).join(".");
    }
    used.add(dotted);
    const classes = Array.from({ length: r.int(1, 4) }, () => `${pascal(r.pick(ADJECTIVES))}${pascal(r.pick(NOUNS))}${r.pick(KINDS)}`);
    const functions = Array.from({ length: r.int(3, 8) }, () => `${r.pick(VERBS)}_${r.pick(NOUNS)}`);
    mods.push({ pkg, sub, name, dotted, rel: `src/${dotted.replace(/\./g, "/")}.py`, classes, functions });
  }
  return mods;
}

/** A short English sentence for comments and docstrings. */
export function pyDocSentence(r: Rng): string {
  return `${pascal(r.pick(VERBS)).replace(/_/g, " ")} the ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} for each ${r.pick(NOUNS)}.`;
}

/** One method or function body of 6-25 lines that uses the module's imports. */
function pyBody(r: Rng, indent: string, aliases: string[], counter: { search: number }, arg: string): string[] {
  const lines: string[] = [];
  lines.push(`${indent}"""${pyDocSentence(r)}"""`);
  lines.push(`${indent}results: list[dict[str, Any]] = []`);
  lines.push(`${indent}for ${arg} in ${arg}s:`);
  lines.push(`${indent}    if ${arg} is None or not ${arg}.get("${r.pick(NOUNS)}_id"):`);
  lines.push(`${indent}        continue`);
  const n = r.int(1, 6);
  for (let k = 0; k < n; k++) {
    const a = aliases.length && r.chance(0.5) ? `${r.pick(aliases)}.` : "";
    lines.push(`${indent}    ${r.pick(NOUNS)} = ${a}${r.pick(VERBS)}_${r.pick(NOUNS)}(${arg}, ${r.pick(["strict=True", "limit=100", "timeout=30.0", "retries=3", "cache=None"])})`);
    if (r.chance(0.3)) lines.push(`${indent}    # ${pyDocSentence(r)}`);
  }
  if (r.chance(1 / 200)) {
    lines.push(`${indent}    ${arg} = text_utils.normalize_payload(${arg})`);
    counter.search++;
  }
  lines.push(`${indent}    results.append({"${arg}": ${arg}, "status": "${r.pick(ADJECTIVES)}"})`);
  lines.push(`${indent}logger.debug("${r.pick(VERBS)} %d ${r.pick(NOUNS)}s", len(results))`);
  lines.push(`${indent}return results`);
  return lines;
}

interface PyProbe {
  form: (typeof PROBE_FORMS)[number] | "decoy";
}

function pyModuleText(
  spec: CorpusSpec,
  i: number,
  mods: readonly PyModule[],
  probe: PyProbe | undefined,
  counter: { search: number },
): string {
  const m = mods[i] as PyModule;
  const r = new Rng(seedOf(spec, "py", i));
  const target = Math.round(spec.python.avgBytes * (0.4 + 1.2 * r.next()));
  const L: string[] = [];
  L.push(`"""${pascal(m.name).replace(/([a-z])([A-Z])/g, "$1 $2")}: ${pyDocSentence(r)}`, "", pyDocSentence(r) + " " + pyDocSentence(r), '"""');
  L.push("from __future__ import annotations", "");
  const std = ["json", "logging", "os", "re", "time", "dataclasses", "functools", "itertools"].filter(() => r.chance(0.5));
  for (const s of ["logging", ...std.filter((s) => s !== "logging")].sort()) L.push(`import ${s}`);
  L.push("from typing import TYPE_CHECKING, Any, Iterable, Optional", "");
  const aliases: string[] = ["text_utils"];
  L.push("from acme.core import text_utils");
  const nImports = r.int(3, 9);
  for (let k = 0; k < nImports; k++) {
    const t = mods[r.int(0, mods.length - 1)] as PyModule;
    if (t === m || t.name === "rag_common") continue;
    const style = r.int(0, 3);
    if (style === 0) L.push(`from ${t.dotted} import ${t.classes[0]}, ${t.functions[0]}`);
    else if (style === 1) {
      const alias = `${t.name.split("_")[0]}_mod${k}`;
      L.push(`import ${t.dotted} as ${alias}`);
      aliases.push(alias);
    } else if (style === 2 && t.pkg === m.pkg && t.sub === m.sub) {
      L.push(`from . import ${t.name}`);
      aliases.push(t.name);
    } else if (style === 2 && !m.sub && !t.sub && t.pkg !== m.pkg) {
      L.push(`from ..${t.pkg}.${t.name} import ${t.functions[0]}`);
    } else L.push(`from ${t.dotted} import ${t.functions[0]}`);
  }
  const lazy: string[] = [];
  switch (probe?.form) {
    case "from_import":
      L.push("from acme.core.rag_common import RagIndexBuilder, load_index");
      break;
    case "from_package":
      L.push("from acme.core import rag_common");
      break;
    case "import_as":
      L.push("import acme.core.rag_common as rag");
      break;
    case "import_plain":
      L.push("import acme.core.rag_common");
      break;
    case "relative":
      // PEP 328: one dot per package level above the module
      L.push(
        m.pkg === "core"
          ? `from ${m.sub ? ".." : "."}rag_common import load_index`
          : `from ${m.sub ? "..." : ".."}core.rag_common import load_index`,
      );
      break;
    case "type_checking":
      L.push("", "if TYPE_CHECKING:", "    from acme.core.rag_common import RagIndexBuilder");
      break;
    case "nested":
      lazy.push("", "", "def _rag_module():", '    """Import the index helpers lazily (they pull in heavy dependencies)."""', "    from acme.core import rag_common", "", "    return rag_common");
      break;
    case "dynamic":
      L.push("import importlib");
      lazy.push("", "", "def _rag_module():", "    return importlib.import_module(\"acme.core.rag_common\")");
      break;
    case "decoy":
      L.push("from acme.legacy.rag_common import legacy_index");
      break;
    default:
      if (r.chance(0.03)) L.push("", "# The rag_common helpers moved to acme.core; see docs/indexing.md.");
  }
  L.push("", "logger = logging.getLogger(__name__)", "");
  L.push(`DEFAULT_${r.pick(NOUNS).toUpperCase()}_LIMIT = ${r.int(10, 5000)}`);
  L.push(`${r.pick(NOUNS).toUpperCase()}_KEYS = (${Array.from({ length: 3 }, () => `"${r.pick(NOUNS)}"`).join(", ")})`);
  L.push(...lazy);
  let size = L.join("\n").length;
  const push = (lines: string[]) => {
    L.push(...lines);
    size += lines.reduce((a, l) => a + l.length + 1, 0);
  };
  let c = 0;
  let f = 0;
  while (size < target || c < m.classes.length || f < m.functions.length) {
    if (c < m.classes.length && (f >= m.functions.length || r.chance(0.5))) {
      const cls = m.classes[c++] as string;
      const base = r.chance(0.3) ? `(${r.pick(KINDS)}Base)` : "";
      const fields = Array.from({ length: r.int(1, 4) }, () => r.pick(NOUNS));
      push(["", "", `class ${cls}${base}:`, `    """${pyDocSentence(r)}"""`, "", `    def __init__(self, ${fields.map((x) => `${x}: Optional[str] = None`).join(", ")}) -> None:`]);
      push(fields.map((x) => `        self.${x} = ${x}`));
      const methods = r.int(2, 6);
      for (let k = 0; k < methods; k++) {
        const name = `${r.pick(VERBS)}_${r.pick(NOUNS)}s`;
        const arg = r.pick(NOUNS);
        push(["", `    def ${name}(self, ${arg}s: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:`, ...pyBody(r, "        ", aliases, counter, arg)]);
      }
    } else if (f < m.functions.length) {
      const fn = m.functions[f++] as string;
      const arg = r.pick(NOUNS);
      push(["", "", `def ${fn}(${arg}s: Iterable[dict[str, Any]], *, limit: int = 100) -> list[dict[str, Any]]:`, ...pyBody(r, "    ", aliases, counter, arg)]);
    } else {
      const fn = `_${r.pick(VERBS)}_${r.pick(NOUNS)}_${L.length}`;
      const arg = r.pick(NOUNS);
      push(["", "", `def ${fn}(${arg}s: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:`, ...pyBody(r, "    ", aliases, counter, arg)]);
    }
  }
  if (probe && probe.form !== "decoy" && probe.form !== "type_checking") {
    const call =
      probe.form === "from_import" || probe.form === "relative"
        ? "load_index"
        : probe.form === "import_as"
          ? "rag.load_index"
          : probe.form === "import_plain"
            ? "acme.core.rag_common.load_index"
            : probe.form === "from_package"
              ? "rag_common.load_index"
              : "_rag_module().load_index";
    L.push("", "", "def open_index(path: str) -> Any:", '    """Open the shared retrieval index."""', `    return ${call}(path)`);
  }
  return L.join("\n") + "\n";
}

const RAG_COMMON = `"""Shared retrieval-index helpers used across acme services."""
from __future__ import annotations

import json
import os
from typing import Any

from acme.core import text_utils

class RagIndexBuilder:
    """Builds the on-disk retrieval index from document chunks."""

    def __init__(self, root: str, dim: int = 384) -> None:
        self.root = root
        self.dim = dim
        self.chunks: list[dict[str, Any]] = []

    def add(self, chunk: dict[str, Any]) -> None:
        self.chunks.append(text_utils.normalize_payload(chunk))

    def build(self) -> str:
        path = os.path.join(self.root, "index.json")
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"dim": self.dim, "chunks": self.chunks}, fh)
        return path

def load_index(path: str) -> dict[str, Any]:
    """Load an index written by RagIndexBuilder.build."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
`;

const TEXT_UTILS = `"""Small text helpers shared by every acme package."""
from __future__ import annotations

from typing import Any

def normalize_payload(payload: Any) -> Any:
    """Strip whitespace from every string value of a payload."""
    if isinstance(payload, dict):
        return {k: normalize_payload(v) for k, v in payload.items()}
    if isinstance(payload, str):
        return payload.strip()
    return payload
`;

const LEGACY_RAG = `"""Deprecated index helpers kept for old exports (not acme.core.rag_common)."""

def legacy_index(path):
    return open(path).read()
`;

type PythonProbes = Pick<
  Manifest["probes"],
  "pythonModule" | "pythonImporters" | "decoyModule" | "decoyImporters" | "symbol" | "editTarget"
>;

function generatePython(spec: CorpusSpec, out: Out, counter: { search: number }): PythonProbes {
  const mods = planPython(spec);
  // Probe importers: every (files/36)-th module, cycling through the forms; decoys in between.
  const step = Math.max(3, Math.floor(mods.length / 36));
  const probes = new Map<number, PyProbe>();
  let k = 0;
  for (let i = 1; i < mods.length; i += step + (k % 7)) {
    probes.set(i, { form: PROBE_FORMS[k++ % PROBE_FORMS.length] as (typeof PROBE_FORMS)[number] });
    if (i + 1 < mods.length) probes.set(i + 1, { form: "decoy" });
  }
  const pythonImporters: string[] = [];
  const decoyImporters: string[] = [];
  mods.forEach((m, i) => {
    const probe = probes.get(i);
    if (probe?.form === "decoy") decoyImporters.push(m.rel);
    else if (probe) pythonImporters.push(m.rel);
    emit(out, "python", m.rel, pyModuleText(spec, i, mods, probe, counter));
  });
  // packages: __init__.py with a re-export of the first module's first class
  const inits = new Map<string, PyModule>();
  for (const m of mods) {
    const pkgDir = ["acme", m.pkg, m.sub].filter(Boolean).join("/");
    if (!inits.has(pkgDir)) inits.set(pkgDir, m);
    if (m.sub && !inits.has(`acme/${m.pkg}`)) inits.set(`acme/${m.pkg}`, m);
  }
  emit(out, "python", "src/acme/__init__.py", '"""acme services."""\n\n__version__ = "4.2.0"\n');
  for (const [dir, m] of [...inits].sort()) {
    const text =
      dir === ["acme", m.pkg, m.sub].filter(Boolean).join("/")
        ? `"""${dir.replace(/\//g, ".")} package."""\nfrom .${m.name} import ${m.classes[0]}\n\n__all__ = ["${m.classes[0]}"]\n`
        : `"""${dir.replace(/\//g, ".")} package."""\n`;
    emit(out, "python", `src/${dir}/__init__.py`, text);
  }
  if (!inits.has("acme/core")) emit(out, "python", "src/acme/core/__init__.py", '"""acme.core package."""\n');
  if (!inits.has("acme/legacy")) emit(out, "python", "src/acme/legacy/__init__.py", '"""acme.legacy package."""\n');
  emit(out, "python", "src/acme/core/rag_common.py", RAG_COMMON);
  emit(out, "python", "src/acme/core/text_utils.py", TEXT_UTILS);
  emit(out, "python", "src/acme/legacy/rag_common.py", LEGACY_RAG);
  counter.search += 3; // the definition, its recursive call, and the call in rag_common
  emit(out, "python", "pyproject.toml", '[project]\nname = "acme"\nversion = "4.2.0"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n');
  return {
    pythonModule: "acme.core.rag_common",
    pythonImporters: pythonImporters.sort(),
    decoyModule: "acme.legacy.rag_common",
    decoyImporters: decoyImporters.sort(),
    symbol: { name: "RagIndexBuilder", path: "src/acme/core/rag_common.py", line: RAG_COMMON.split("\n").indexOf("class RagIndexBuilder:") + 1 },
    editTarget: pythonImporters.find((p) => !p.includes("/core/")) ?? (pythonImporters[0] as string),
  };
}

// ---------------------------------------------------------------- TypeScript / JavaScript

const FEATURES = ["core", "auth", "billing", "dashboard", "search", "settings", "reports", "orders", "catalog", "profile", "admin", "chat", "files", "alerts", "teams", "audit"];

function tsFileText(spec: CorpusSpec, i: number, files: readonly { rel: string; feature: string; name: string; exports: string[] }[], probe: string | undefined): string {
  const f = files[i] as (typeof files)[number];
  const r = new Rng(seedOf(spec, "ts", i));
  const target = Math.round(spec.ts.avgBytes * (0.4 + 1.2 * r.next()));
  const L: string[] = [`/** ${pascal(f.name.replace(/-/g, "_"))}: ${pyDocSentence(r)} */`];
  if (f.rel.endsWith(".tsx")) L.push('import { useEffect, useState } from "react";');
  const n = r.int(2, 6);
  const seen = new Set<string>();
  for (let k = 0; k < n; k++) {
    const t = files[r.int(0, files.length - 1)] as (typeof files)[number];
    if (t === f || seen.has(t.rel) || t.rel.endsWith("api-client.ts")) continue;
    seen.add(t.rel);
    const spec2 = t.rel.replace(/^web\/src\//, "").replace(/\.tsx?$/, "");
    const sym = t.exports[0] as string;
    if (t.feature === f.feature) L.push(`import { ${sym} } from "./${t.name}.js";`);
    else if (r.chance(0.5)) L.push(`import { ${sym} } from "@app/${spec2}";`);
    else L.push(`import ${r.chance(0.2) ? "type " : ""}{ ${sym} } from "../${spec2}.js";`);
  }
  switch (probe) {
    case "relative":
      L.push(f.feature === "core" ? 'import { ApiClient } from "./api-client.js";' : 'import { ApiClient } from "../core/api-client.js";');
      break;
    case "alias":
      L.push('import { ApiClient, request } from "@app/core/api-client";');
      break;
    case "type":
      L.push('import type { ApiClient } from "@app/core/api-client";');
      break;
    case "reexport":
      L.push('export { request } from "../core/api-client.js";');
      break;
    case "dynamic":
      L.push('const lazyClient = () => import("../core/api-client.js");');
      break;
  }
  L.push('import { z } from "zod";', "");
  let size = L.join("\n").length;
  let e = 0;
  while (size < target || e < f.exports.length) {
    const name = f.exports[e++] ?? `${camel(`${r.pick(VERBS)}_${r.pick(NOUNS)}`)}${e}`;
    const noun = r.pick(NOUNS);
    const block =
      /^[A-Z]/.test(name)
        ? [
            "",
            `export interface ${name}Options {`,
            `  ${noun}Id: string;`,
            `  limit?: number;`,
            "}",
            "",
            `export class ${name} {`,
            `  private readonly cache = new Map<string, unknown>();`,
            `  constructor(private readonly options: ${name}Options) {}`,
            "",
            `  async ${camel(`${r.pick(VERBS)}_${noun}`)}(input: string): Promise<string[]> {`,
            `    const parsed = z.string().min(1).parse(input);`,
            `    if (this.cache.has(parsed)) return [];`,
            `    this.cache.set(parsed, this.options.limit ?? ${r.int(1, 500)});`,
            `    return parsed.split("${r.pick([",", ";", "/"])}").map((part) => part.trim());`,
            "  }",
            "}",
          ]
        : [
            "",
            `export function ${name}(${noun}s: readonly { id: string; ${r.pick(NOUNS)}?: number }[]): string[] {`,
            `  // ${pyDocSentence(r)}`,
            `  return ${noun}s.filter((${noun}) => ${noun}.id.length > ${r.int(0, 5)}).map((${noun}) => ${noun}.id);`,
            "}",
          ];
    L.push(...block);
    size += block.reduce((a, l) => a + l.length + 1, 0);
  }
  if (probe && probe !== "reexport" && probe !== "type" && probe !== "dynamic") L.push("", "export const defaultClient = new ApiClient({ baseUrl: \"/api\" });");
  return L.join("\n") + "\n";
}

const API_CLIENT = `/** HTTP client shared by every feature of the web app. */
export interface ApiClientOptions {
  baseUrl: string;
}

export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  async get<T>(path: string): Promise<T> {
    const res = await fetch(this.options.baseUrl + path);
    return (await res.json()) as T;
  }
}

export function request(path: string): Promise<Response> {
  return fetch(path);
}
`;

function generateTs(spec: CorpusSpec, out: Out): { tsFile: string; tsImporters: string[] } {
  const files = Array.from({ length: spec.ts.files }, (_, i) => {
    const r = new Rng(seedOf(spec, "tsplan", i));
    const feature = FEATURES[i % FEATURES.length] as string;
    const name = `${r.pick(NOUNS)}-${r.pick(MODULE_SUFFIXES)}-${i}`;
    const tsx = i % 4 === 3;
    const exports = [tsx ? `${pascal(name.replace(/-/g, "_"))}View` : `${pascal(r.pick(NOUNS))}${r.pick(KINDS)}${i}`, camel(`${r.pick(VERBS)}_${r.pick(NOUNS)}_${i}`)];
    return { rel: `web/src/${feature}/${name}.${tsx ? "tsx" : "ts"}`, feature, name, exports };
  });
  const forms = ["relative", "alias", "type", "reexport", "dynamic"];
  const importers: string[] = [];
  const step = Math.max(2, Math.floor(files.length / 20));
  const probes = new Map<number, string>();
  let k = 0;
  for (let i = 0; i < files.length; i += step) probes.set(i, forms[k++ % forms.length] as string);
  files.forEach((f, i) => {
    const p = probes.get(i);
    if (p) importers.push(f.rel);
    emit(out, "typescript", f.rel, tsFileText(spec, i, files, p));
  });
  emit(out, "typescript", "web/src/core/api-client.ts", API_CLIENT);
  emit(
    out,
    "typescript",
    "web/tsconfig.json",
    JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", jsx: "react-jsx", strict: true, baseUrl: ".", paths: { "@app/*": ["src/*"] } }, include: ["src"] }, null, 2) + "\n",
  );
  emit(out, "typescript", "web/package.json", JSON.stringify({ name: "@acme/web", private: true, type: "module", dependencies: { react: "^19.0.0", zod: "^4.0.0" } }, null, 2) + "\n");
  for (let i = 0; i < spec.js.files; i++) {
    const r = new Rng(seedOf(spec, "js", i));
    const other = (j: number) => `./task-${j}.cjs`;
    const L = ['"use strict";', `// Build script ${i}: ${pyDocSentence(r)}`, 'const path = require("node:path");'];
    if (i > 0) L.push(`const prev = require("${other(r.int(0, i - 1))}");`);
    for (let k2 = 0; k2 < r.int(4, 12); k2++) {
      const fn = camel(`${r.pick(VERBS)}_${r.pick(NOUNS)}_${k2}`);
      L.push("", `function ${fn}(dir) {`, `  return path.join(dir, "${r.pick(NOUNS)}", "${r.pick(NOUNS)}.json");`, "}", `module.exports.${fn} = ${fn};`);
    }
    emit(out, "javascript", `web/scripts/task-${i}.cjs`, L.join("\n") + "\n");
  }
  return { tsFile: "web/src/core/api-client.ts", tsImporters: importers.sort() };
}

// ---------------------------------------------------------------- Go, Rust, Java

function generateGo(spec: CorpusSpec, out: Out): void {
  emit(out, "go", "services/go.mod", "module example.com/acme/svc\n\ngo 1.22\n");
  const pkgs = NOUNS.slice(0, Math.max(3, Math.ceil(spec.go.files / 10)));
  for (let i = 0; i < spec.go.files; i++) {
    const r = new Rng(seedOf(spec, "go", i));
    const pkg = pkgs[i % pkgs.length] as string;
    const dep = pkgs[(i + 1) % pkgs.length] as string;
    const typ = `${pascal(r.pick(ADJECTIVES))}${pascal(pkg)}${r.pick(KINDS)}${i}`;
    const L = [`// Package ${pkg} ${pyDocSentence(r).toLowerCase()}`, `package ${pkg}`, "", "import (", '\t"context"', '\t"fmt"', "", `\t${r.chance(0.3) ? `${dep}pkg ` : ""}"example.com/acme/svc/internal/${dep}"`, ")", ""];
    const depRef = L.some((l) => l.includes(`${dep}pkg "`)) ? `${dep}pkg` : dep;
    L.push(`// ${typ} ${pyDocSentence(r).toLowerCase()}`, `type ${typ} struct {`, `\tID    string`, `\tLimit int`, "}", "");
    for (let k = 0; k < r.int(3, 9); k++) {
      const m = pascal(`${r.pick(VERBS)}_${r.pick(NOUNS)}`);
      L.push(`// ${m} ${pyDocSentence(r).toLowerCase()}`, `func (s *${typ}) ${m}${k}(ctx context.Context, id string) (string, error) {`, `\tif id == "" {`, `\t\treturn "", fmt.Errorf("${pkg}: empty id")`, "\t}", `\t_ = ${depRef}.Version`, `\treturn fmt.Sprintf("%s/%d", id, s.Limit), nil`, "}", "");
    }
    if (i < pkgs.length) L.push(`// Version of package ${pkg}.`, `const Version = "1.${i}.0"`, "");
    emit(out, "go", `services/internal/${pkg}/${pkg}_${i}.go`, L.join("\n"));
  }
}

function generateRust(spec: CorpusSpec, out: Out): void {
  emit(out, "rust", "engine/Cargo.toml", '[package]\nname = "engine"\nversion = "0.4.0"\nedition = "2021"\n');
  const mods = NOUNS.slice(10, 10 + Math.max(3, Math.ceil(spec.rust.files / 10)));
  const perMod = new Map<string, string[]>();
  for (let i = 0; i < spec.rust.files; i++) {
    const m = mods[i % mods.length] as string;
    const list = perMod.get(m) ?? [];
    list.push(`${m}_${i}`);
    perMod.set(m, list);
  }
  emit(out, "rust", "engine/src/lib.rs", `//! Engine crate.\n${mods.map((m) => `pub mod ${m};`).join("\n")}\n`);
  for (const [m, files] of perMod) emit(out, "rust", `engine/src/${m}/mod.rs`, `//! ${m} module.\n${files.map((f) => `pub mod ${f};`).join("\n")}\n`);
  for (let i = 0; i < spec.rust.files; i++) {
    const r = new Rng(seedOf(spec, "rust", i));
    const m = mods[i % mods.length] as string;
    const other = mods[(i + 3) % mods.length] as string;
    const otherFile = perMod.get(other)?.[0] as string;
    const st = `${pascal(r.pick(ADJECTIVES))}${pascal(m)}${i}`;
    const L = [`//! ${pyDocSentence(r)}`, "use std::collections::HashMap;", `use crate::${other}::${otherFile}::{self as peer};`, r.chance(0.5) ? "use super::*;" : "", "", `/// ${pyDocSentence(r)}`, "#[derive(Debug, Default)]", `pub struct ${st} {`, "    pub id: String,", "    cache: HashMap<String, usize>,", "}", "", `impl ${st} {`];
    for (let k = 0; k < r.int(3, 8); k++) {
      L.push(`    /// ${pyDocSentence(r)}`, `    pub fn ${r.pick(VERBS)}_${r.pick(NOUNS)}_${k}(&mut self, key: &str) -> usize {`, "        let n = self.cache.len();", "        *self.cache.entry(key.to_string()).or_insert(n)", "    }", "");
    }
    L.push("}", "", `pub fn version() -> &'static str {`, `    let _ = peer::version;`, `    "0.${i}.0"`, "}", "");
    emit(out, "rust", `engine/src/${m}/${m}_${i}.rs`, L.join("\n"));
  }
}

function generateJava(spec: CorpusSpec, out: Out): void {
  const pkgs = NOUNS.slice(20, 20 + Math.max(3, Math.ceil(spec.java.files / 12)));
  const classes = Array.from({ length: spec.java.files }, (_, i) => ({ pkg: pkgs[i % pkgs.length] as string, name: `${pascal(NOUNS[(i * 7) % NOUNS.length] as string)}${KINDS[i % KINDS.length]}${i}` }));
  classes.forEach((c, i) => {
    const r = new Rng(seedOf(spec, "java", i));
    const dep = classes[(i + 5) % classes.length] as (typeof classes)[number];
    const L = [`package com.acme.${c.pkg};`, "", "import java.util.List;", "import java.util.Map;", `import com.acme.${dep.pkg}.${dep.name};`, r.chance(0.3) ? `import static com.acme.${dep.pkg}.${dep.name}.VERSION;` : "", "", `/** ${pyDocSentence(r)} */`, `public class ${c.name} {`, `    public static final String VERSION = "1.${i}";`, `    private final Map<String, ${dep.name}> peers = new java.util.HashMap<>();`, ""];
    for (let k = 0; k < r.int(3, 8); k++) {
      L.push(`    /** ${pyDocSentence(r)} */`, `    public List<String> ${camel(`${r.pick(VERBS)}_${r.pick(NOUNS)}`)}${k}(List<String> ids) {`, `        return ids.stream().filter(id -> !peers.containsKey(id)).toList();`, "    }", "");
    }
    L.push("}", "");
    emit(out, "java", `java/src/main/java/com/acme/${c.pkg}/${c.name}.java`, L.join("\n"));
  });
}

// ---------------------------------------------------------------- entry point

/**
 * Generates the corpus under `<dir>/tree` unless `<dir>/manifest.json` already describes the
 * same spec and generator version. Returns the manifest.
 */
export function ensureCorpus(dir: string, spec: CorpusSpec, log: (msg: string) => void = () => {}): { root: string; manifest: Manifest; generated: boolean } {
  const root = path.join(dir, "tree");
  const manifestFile = path.join(dir, "manifest.json");
  try {
    const m = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    if (m.generator === GENERATOR_VERSION && JSON.stringify(m.spec) === JSON.stringify(spec)) return { root, manifest: m, generated: false };
  } catch {
    // no usable manifest: generate
  }
  log(`generating the ${spec.name} corpus in ${root} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const out: Out = { root, files: 0, bytes: 0, byLanguage: {}, dirs: new Set() };
  const counter = { search: 0 };
  const py = generatePython(spec, out, counter);
  const ts = generateTs(spec, out);
  generateGo(spec, out);
  generateRust(spec, out);
  generateJava(spec, out);
  const manifest: Manifest = {
    generator: GENERATOR_VERSION,
    spec,
    files: out.files,
    bytes: out.bytes,
    byLanguage: out.byLanguage,
    probes: {
      ...py,
      searchQuery: "normalize_payload(",
      searchLines: counter.search,
      tsFile: ts.tsFile,
      tsImporters: ts.tsImporters,
    },
  };
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
  return { root, manifest, generated: true };
}
