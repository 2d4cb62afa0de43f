/**
 * Deterministic generator of a mixed C/C++ tree laid out like a CMake project, for the C/C++ rows
 * of `npm run bench`:
 * - `include/acme/<module>/<unit>.h` public headers (include guards or `#pragma once`, `extern "C"`
 *   blocks, prototypes, typedefs, enums, function-like macros; C++ headers with nested namespaces,
 *   classes behind an export macro, templates, operators) that include other public headers;
 * - `src/<module>/<unit>.c|.cc` sources (definitions, out-of-line methods `A::m`, anonymous
 *   namespaces, `static` helpers), some with a private header `src/<module>/internal/<unit>_impl.h`
 *   included relatively; `tests/<module>/<unit>_test.cc`;
 * - `third_party/minilog/minilog.h` reached as `<minilog/minilog.h>` through `-Ithird_party`;
 * - `build/compile_commands.json` (relative `directory`) with `-Iinclude -Ithird_party` per source;
 * - includes under `#ifdef` / `#if defined(_WIN32)` … `#else`, system headers (`<stdio.h>`, `<vector>`).
 * The same spec and seed always give the same bytes; a tree on disk is reused while its manifest
 * matches.
 *
 * File sizes follow real C/C++ code: function bodies of 4-10 statement blocks (loops, switches,
 * checks: 20-110 lines; {@link cBody}, {@link cppBody}) and doc comments of 2-4 lines on
 * declarations, so the tree (951 files) holds 6.4 MB, a mean of 6.6 KB and a median of 3.0 KB per
 * C/C++ file. Measured on two public repositories
 * (C/C++ files: `.c .h .cc .cpp .hpp`): google/leveldb 78a352f, 133 files, 901 KB, mean 6.8 KB,
 * median 3.6 KB; redis/redis 4f8cdc2, 715 files, 10.6 MB, mean 14.8 KB, median 4.5 KB. The tree
 * before had bodies of 6-8 lines: mean 2.3 KB, median 2.2 KB.
 *
 * Planted probes with known answers (in the manifest):
 * - header `include/acme/core/arena.h`, included by a known list of files in three forms
 *   (`"acme/core/arena.h"`, `<acme/core/arena.h>`, a relative `"../../include/acme/core/arena.h"` or
 *   `"../core/arena.h"`), headers among them;
 * - function `acme_arena_alloc` (declared in that header, defined in `src/core/arena.c`), called once
 *   in each source file that includes the header;
 * - class `RingBufferPool`, defined exactly once.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CliQuery } from "./cli-rows.js";
import { ADJECTIVES, emit, KINDS, NOUNS, pascal, pyDocSentence, Rng, seedOf, VERBS, type Out } from "./corpus.js";

/** A hash of this generator and the one it borrows from, so an edit to either rebuilds stored trees. */
const GENERATOR_VERSION = createHash("sha256")
  .update(readFileSync(new URL(import.meta.url)))
  .update(readFileSync(new URL("./corpus.ts", import.meta.url)))
  .digest("hex")
  .slice(0, 16);

export interface CTreeSpec {
  name: string;
  seed: number;
  /** Modules written in C (the first is `core`, holding the probe header). */
  cModules: number;
  /** Modules written in C++. */
  cppModules: number;
  /** Units (a public header and a source, sometimes a private header and a test) per module. */
  unitsPerModule: number;
}

/** 951 files, 6.4 MB: a mid-sized C/C++ library. */
export const C_TREE: CTreeSpec = { name: "c-cpp", seed: 11, cModules: 8, cppModules: 12, unitsPerModule: 18 };

export interface CTreeManifest {
  generator: string;
  spec: CTreeSpec;
  files: number;
  bytes: number;
  byLanguage: Record<string, { files: number; bytes: number }>;
  probes: {
    header: string;
    /** Files that include `header` (each with exactly one include of it), sorted. */
    headerImporters: string[];
    function: { name: string; path: string; line: number };
    /** Files with one call of `function` each (besides its definition), sorted. */
    functionCallers: string[];
    symbol: { name: string; path: string; line: number };
  };
}

interface Unit {
  /** Global index; a unit includes only headers of units with a lower index (no cycles). */
  g: number;
  module: string;
  name: string;
  cpp: boolean;
  header: string;
  source: string;
  /** C: the struct and function prefix (`acme_<name>`); C++: the main class. */
  api: string;
  /** Functions (C) or methods (C++) its header declares. */
  functions: string[];
  internal?: string;
  test?: string;
}

const PROBE_HEADER = "include/acme/core/arena.h";
const PROBE_FUNCTION = "acme_arena_alloc";
const PROBE_CLASS = "RingBufferPool";

function plan(spec: CTreeSpec): Unit[] {
  const cMods = ["core", ...NOUNS.slice(0, spec.cModules - 1)];
  const cppMods = NOUNS.slice(30, 30 + spec.cppModules);
  const units: Unit[] = [];
  const used = new Set<string>();
  for (const [mods, cpp] of [[cMods, false], [cppMods, true]] as const) {
    for (const module of mods) {
      for (let u = 0; u < spec.unitsPerModule; u++) {
        const g = units.length;
        const r = new Rng(seedOf(spec, "cplan", g));
        let name = g === 0 ? "arena" : `${r.pick(NOUNS)}_${r.pick(["store", "pool", "codec", "table", "index", "queue", "map", "buffer", "cache", "io"])}`;
        for (let k = 2; used.has(`${module}/${name}`); k++) name = `${name.replace(/_\d+$/, "")}_${k}`;
        used.add(`${module}/${name}`);
        const api = cpp ? (module === cppMods[3] && u === 5 ? PROBE_CLASS : `${pascal(r.pick(ADJECTIVES))}${pascal(name)}${r.pick(KINDS)}`) : g === 0 ? "acme_arena" : `acme_${module}_${name}`;
        const functions = cpp
          ? Array.from({ length: r.int(4, 10) }, (_, k) => `${pascal(`${r.pick(VERBS)}_${r.pick(NOUNS)}`)}${k}`)
          : g === 0
            ? [PROBE_FUNCTION, "acme_arena_free", "acme_arena_reset"]
            : Array.from({ length: r.int(4, 10) }, (_, k) => `acme_${module}_${name}_${r.pick(VERBS)}${k}`);
        const unit: Unit = { g, module, name, cpp, header: `include/acme/${module}/${name}.h`, source: `src/${module}/${name}.${cpp ? "cc" : "c"}`, api, functions };
        if (r.chance(0.4)) unit.internal = `src/${module}/internal/${name}_impl.h`;
        if (r.chance(0.25)) unit.test = `tests/${module}/${name}_test.cc`;
        units.push(unit);
      }
    }
  }
  return units;
}

/** How `from` includes the probe header (three forms), or of another unit's header `to`. */
function includeLine(r: Rng, from: string, to: string, angle = false): string {
  const rel = to.slice("include/".length);
  const roll = r.next();
  if (angle || roll < 0.2) return `#include <${rel}>`;
  if (roll < 0.4) return `#include "${path.posix.relative(path.posix.dirname(from), to)}"`;
  return `#include "${rel}"`;
}

interface Picked {
  deps: Unit[];
  arena: boolean;
}

function pick(r: Rng, unit: Unit, units: readonly Unit[], arenaChance: number): Picked {
  const deps: Unit[] = [];
  const n = Math.min(unit.g - 1, r.int(1, 4));
  for (let i = 0; i < n; i++) {
    const d = units[r.int(1, unit.g - 1)] as Unit;
    if (!deps.includes(d)) deps.push(d);
  }
  return { deps, arena: unit.g > 0 && r.chance(arenaChance) };
}

/** A doc comment of 2-4 sentences at `indent`: a block comment for C, `///` lines for C++. */
function docLines(r: Rng, indent: string, cpp: boolean): string[] {
  const text = Array.from({ length: r.int(2, 4) }, () => pyDocSentence(r));
  return cpp ? text.map((t) => `${indent}/// ${t}`) : [`${indent}/**`, ...text.map((t) => `${indent} * ${t}`), `${indent} */`];
}

/** 4-10 statement blocks of a C function body over `self` (`${api}_t *`) and `n` (`size_t`); names no other unit. */
function cBody(r: Rng, api: string): string[] {
  const L = ["  size_t used = 0;", `  unsigned mask = 0x${r.int(1, 255).toString(16)}u;`];
  for (let k = 0, blocks = r.int(4, 10); k < blocks; k++) {
    const roll = r.next();
    if (roll < 0.4) {
      L.push(`  /* ${pyDocSentence(r)} */`, "  for (size_t i = 0; i < n; i++) {", "    if (self->flags[i % sizeof self->flags] & mask) {", `      used += i * ${r.int(2, 9)};`, `    } else if (i % ${r.int(3, 7)} == 0) {`, `      used ^= (size_t)${r.int(16, 4096)};`, "    }", "  }");
    } else if (roll < 0.7) {
      L.push(`  switch (self->id % ${r.int(3, 5)}) {`, "    case 0:", `      self->capacity += ${r.int(1, 64)};`, "      break;", "    case 1:", "      mask <<= 1;", "      break;", "    default:", `      used += ${api.toUpperCase()}_MAX;`, "      break;", "  }");
    } else {
      L.push(`  if (used > (size_t)${r.int(100, 10000)} && n > 0) {`, `    fprintf(stderr, "%s: ${pyDocSentence(r).replace(/\./, "")} (%zu)\\n", __func__, used);`, "    used /= n;", "  }");
    }
  }
  return L;
}

/** 4-10 statement blocks of a C++ method body over `values` (`std::vector<int>`) and `total` (`int`); names no other unit. */
function cppBody(r: Rng): string[] {
  const L: string[] = [];
  for (let k = 0, blocks = r.int(4, 10); k < blocks; k++) {
    const roll = r.next();
    if (roll < 0.4) {
      L.push(`  // ${pyDocSentence(r)}`, "  for (std::size_t i = 0; i < values.size(); ++i) {", `    if (values[i] % ${r.int(2, 7)} == 0) {`, `      total += values[i] * ${r.int(2, 9)};`, `    } else if (values[i] > ${r.int(10, 1000)}) {`, "      total -= Twice(values[i]);", "    }", "  }");
    } else if (roll < 0.7) {
      L.push("  std::vector<int> sorted(values);", "  std::sort(sorted.begin(), sorted.end());", `  auto it = std::lower_bound(sorted.begin(), sorted.end(), ${r.int(0, 500)});`, "  if (it != sorted.end()) {", "    total += *it;", "  }", `  total += static_cast<int>(std::count_if(sorted.begin(), sorted.end(), [](int v) { return v > ${r.int(1, 99)}; }));`);
    } else {
      L.push(`  if (total > ${r.int(100, 10000)} && !values.empty()) {`, "    total /= static_cast<int>(values.size());", "  }", `  total = std::min(total, capacity_ * ${r.int(2, 16)});`);
    }
  }
  return L;
}

function cHeader(r: Rng, u: Unit, units: readonly Unit[], picked: Picked): string[] {
  const guard = `ACME_${u.module.toUpperCase()}_${u.name.toUpperCase()}_H_`;
  const L = [`/* ${u.header}: ${pyDocSentence(r)} */`, `#ifndef ${guard}`, `#define ${guard}`, "", "#include <stddef.h>", '#include "acme/base/export.h"'];
  for (const d of picked.deps) L.push(includeLine(r, u.header, d.header));
  if (picked.arena) L.push(includeLine(r, u.header, PROBE_HEADER));
  L.push("", "#ifdef __cplusplus", 'extern "C" {', "#endif", "");
  L.push(`#define ${u.api.toUpperCase()}_MAX ${r.int(8, 512)}`, `#define ${u.api.toUpperCase()}_CHECK(x) do { if (!(x)) { acme_fail(#x, __FILE__, __LINE__); } } while (0)`, "");
  L.push(`/** ${pyDocSentence(r)} */`, `typedef struct ${u.api} {`, "  int id;", "  size_t capacity;", `  unsigned char flags[${r.int(2, 16)}];`, `} ${u.api}_t;`, "");
  L.push(`enum ${u.api}_state {`, `  ${u.api.toUpperCase()}_IDLE,`, `  ${u.api.toUpperCase()}_BUSY,`, `  ${u.api.toUpperCase()}_DONE`, "};", "");
  L.push(`typedef int (*${u.api}_cb)(${u.api}_t *self, void *user);`, "");
  for (const f of u.functions) L.push(...docLines(r, "", false), `ACME_API int ${f}(${u.api}_t *self, size_t n);`, "");
  L.push("#ifdef __cplusplus", "}", "#endif", "", `#endif /* ${guard} */`, "");
  void units;
  return L;
}

function cSource(r: Rng, u: Unit, picked: Picked, arenaCall: boolean): { lines: string[]; probeLine?: number } {
  const L = [`/* ${u.source}: ${pyDocSentence(r)} */`, includeLine(r, u.source, u.header)];
  if (u.internal) L.push(`#include "internal/${u.name}_impl.h"`);
  L.push("#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>", "#include <minilog/minilog.h>");
  for (const d of picked.deps) L.push(includeLine(r, u.source, d.header));
  if (picked.arena) L.push(includeLine(r, u.source, PROBE_HEADER));
  if (r.chance(0.3)) L.push("", "#ifdef ACME_HAVE_THREADS", "#include <pthread.h>", "#endif");
  L.push("", `#define LOCAL_LIMIT ${r.int(4, 64)}`, "");
  L.push(`static int ${u.name}_helper(int x) {`, "  int acc = 0;", "  for (int i = 0; i < x && i < LOCAL_LIMIT; i++) {", "    acc += i * 2;", "  }", "  return acc;", "}", "");
  let probeLine: number | undefined;
  for (const [k, f] of u.functions.entries()) {
    if (f === PROBE_FUNCTION) probeLine = L.length + 2;
    L.push(`/* ${pyDocSentence(r)} */`, `int ${f}(${u.api}_t *self, size_t n) {`, "  if (self == NULL) {", "    return -1;", "  }", `  ${u.api.toUpperCase()}_CHECK(n < ${u.api.toUpperCase()}_MAX);`);
    for (const d of picked.deps.slice(0, 2)) if (!d.cpp) L.push(`  ${d.functions[0] as string}(NULL, n);`);
    if (arenaCall && k === 0) L.push(`  ${PROBE_FUNCTION}(NULL, n);`);
    L.push(...cBody(r, u.api));
    L.push(`  MINILOG("${f}: %d", ${u.name}_helper((int)n));`, "  self->capacity = n + used;", `  return (int)self->capacity + ${k};`, "}", "");
  }
  return { lines: L, ...(probeLine !== undefined ? { probeLine } : {}) };
}

function cppHeader(r: Rng, u: Unit, picked: Picked): { lines: string[]; classLine: number } {
  const L = [`// ${u.header}: ${pyDocSentence(r)}`, "#pragma once", "", "#include <cstddef>", "#include <string>", "#include <vector>", '#include "acme/base/export.h"'];
  for (const d of picked.deps) L.push(includeLine(r, u.header, d.header));
  if (picked.arena) L.push(includeLine(r, u.header, PROBE_HEADER));
  L.push("", "namespace acme {", `namespace ${u.module} {`, "", `struct ${u.api}Options {`, "  int capacity = 16;", "  bool strict = false;", "};", "");
  L.push(`enum class ${u.api}State { kIdle, kBusy, kDone };`, "");
  const classLine = L.length + 2;
  L.push(`/// ${pyDocSentence(r)}`, `class ACME_EXPORT ${u.api} {`, " public:", `  explicit ${u.api}(const ${u.api}Options& options);`, `  ~${u.api}();`, "");
  for (const m of u.functions) L.push(...docLines(r, "  ", true), `  int ${m}(const std::vector<int>& values) const;`);
  L.push("", `  bool operator==(const ${u.api}& other) const { return capacity_ == other.capacity_; }`, "", "  template <typename T>", "  T Clamp(T value) const {", "    return value < T(capacity_) ? value : T(capacity_);", "  }", "");
  L.push(" private:", "  int capacity_;", "  std::string name_;", "};", "");
  L.push("template <typename K, typename V>", `class ${u.api}Cache {`, " public:", "  void Put(const K& key, const V& value) { keys_.push_back(key); values_.push_back(value); }", "  std::size_t Size() const { return keys_.size(); }", "", " private:", "  std::vector<K> keys_;", "  std::vector<V> values_;", "};", "");
  L.push(`}  // namespace ${u.module}`, "}  // namespace acme", "");
  return { lines: L, classLine };
}

function cppSource(r: Rng, u: Unit, picked: Picked, arenaCall: boolean): string[] {
  const L = [`// ${u.source}: ${pyDocSentence(r)}`, includeLine(r, u.source, u.header)];
  if (u.internal) L.push(`#include "internal/${u.name}_impl.h"`);
  L.push("", "#include <algorithm>", "#include <numeric>", "#include <minilog/minilog.h>");
  for (const d of picked.deps) L.push(includeLine(r, u.source, d.header));
  if (picked.arena) L.push(includeLine(r, u.source, PROBE_HEADER));
  if (r.chance(0.3)) L.push("", "#if defined(_WIN32)", "#include <windows.h>", "#else", "#include <unistd.h>", "#endif");
  L.push("", "namespace acme {", `namespace ${u.module} {`, "", "namespace {", "", "int Twice(int x) { return x * 2; }", "", "}  // namespace", "");
  L.push(`${u.api}::${u.api}(const ${u.api}Options& options) : capacity_(options.capacity), name_("${u.name}") {}`, "", `${u.api}::~${u.api}() = default;`, "");
  for (const [k, m] of u.functions.entries()) {
    L.push(`// ${pyDocSentence(r)}`, `int ${u.api}::${m}(const std::vector<int>& values) const {`, "  int total = std::accumulate(values.begin(), values.end(), 0);");
    for (const d of picked.deps.slice(0, 2)) {
      if (d.cpp) L.push(`  ${d.module === u.module ? "" : `::acme::${d.module}::`}${d.api}Options opts_${d.g};`, `  total += opts_${d.g}.capacity;`);
      else L.push(`  total += ${d.functions[0] as string}(nullptr, values.size());`);
    }
    if (arenaCall && k === 0) L.push(`  total += ${PROBE_FUNCTION}(nullptr, values.size());`);
    L.push(...cppBody(r));
    L.push(`  MINILOG("${m}: %d", Twice(total));`, `  return std::max(total, capacity_) + ${k};`, "}", "");
  }
  L.push(`}  // namespace ${u.module}`, "}  // namespace acme", "");
  return L;
}

/**
 * Generates the tree under `<dir>/tree` unless `<dir>/manifest.json` already describes the same spec
 * and generator version. Returns the manifest.
 */
export function ensureCTree(dir: string, spec: CTreeSpec = C_TREE, log: (msg: string) => void = () => {}): { root: string; manifest: CTreeManifest; generated: boolean } {
  const root = path.join(dir, "tree");
  const manifestFile = path.join(dir, "manifest.json");
  try {
    const m = JSON.parse(readFileSync(manifestFile, "utf8")) as CTreeManifest;
    if (m.generator === GENERATOR_VERSION && JSON.stringify(m.spec) === JSON.stringify(spec)) return { root, manifest: m, generated: false };
  } catch {
    // no usable manifest: generate
  }
  log(`generating the ${spec.name} tree in ${root} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const out: Out = { root, files: 0, bytes: 0, byLanguage: {}, dirs: new Set() };
  const units = plan(spec);
  const importers: string[] = [];
  const callers: string[] = [];
  let fnProbe: CTreeManifest["probes"]["function"] | undefined;
  let classProbe: CTreeManifest["probes"]["symbol"] | undefined;

  emit(out, "c", "include/acme/base/export.h", ["#pragma once", "", "#if defined(_WIN32)", "#define ACME_API __declspec(dllexport)", "#define ACME_EXPORT __declspec(dllexport)", "#else", '#define ACME_API __attribute__((visibility("default")))', '#define ACME_EXPORT __attribute__((visibility("default")))', "#endif", "", "#ifdef __cplusplus", 'extern "C" {', "#endif", "void acme_fail(const char *what, const char *file, int line);", "#ifdef __cplusplus", "}", "#endif", ""].join("\n"));
  emit(out, "c", "third_party/minilog/minilog.h", ["#ifndef MINILOG_H", "#define MINILOG_H", "#include <stdio.h>", '#define MINILOG(fmt, ...) fprintf(stderr, "[minilog] " fmt "\\n", __VA_ARGS__)', "#endif", ""].join("\n"));
  const commands: { directory: string; file: string; arguments: string[] }[] = [];
  for (const u of units) {
    const r = new Rng(seedOf(spec, "cunit", u.g));
    const hp = pick(r, u, units, 0.05);
    const sp = pick(r, u, units, 0.14);
    const lang = u.cpp ? "cpp" : "c";
    if (u.cpp) {
      const h = cppHeader(r, u, hp);
      emit(out, lang, u.header, h.lines.join("\n"));
      if (u.api === PROBE_CLASS) classProbe = { name: PROBE_CLASS, path: u.header, line: h.classLine };
      emit(out, lang, u.source, cppSource(r, u, sp, sp.arena).join("\n"));
    } else {
      emit(out, lang, u.header, cHeader(r, u, units, hp).join("\n"));
      // The probe unit includes its own header (one of the importers) and defines the function.
      const s = cSource(r, u, u.g === 0 ? { deps: sp.deps, arena: false } : sp, sp.arena);
      emit(out, lang, u.source, s.lines.join("\n"));
      if (s.probeLine !== undefined) fnProbe = { name: PROBE_FUNCTION, path: u.source, line: s.probeLine };
    }
    if (hp.arena) importers.push(u.header);
    if (sp.arena || u.g === 0) importers.push(u.source);
    if (sp.arena) callers.push(u.source);
    if (u.internal) {
      const guard = `ACME_${u.module.toUpperCase()}_${u.name.toUpperCase()}_IMPL_H_`;
      emit(out, lang, u.internal, [`/* ${pyDocSentence(r)} */`, `#ifndef ${guard}`, `#define ${guard}`, `#include "acme/${u.module}/${u.name}.h"`, "", `#define ${u.name.toUpperCase()}_IMPL_SLOTS ${r.int(2, 32)}`, "", `#endif /* ${guard} */`, ""].join("\n"));
    }
    if (u.test) {
      const arena = r.chance(0.2);
      const T = [`// ${u.test}`, `#include "acme/${u.module}/${u.name}.h"`, "", "#include <cassert>"];
      if (arena) T.push(`#include <acme/core/arena.h>`);
      T.push("", `int main() {`);
      if (u.cpp) T.push(`  acme::${u.module}::${u.api}Options options;`, `  acme::${u.module}::${u.api} subject(options);`, `  assert(subject.${u.functions[0] as string}({1, 2, 3}) >= 0);`);
      else T.push(`  assert(${u.functions[0] as string}(nullptr, 1) == -1);`);
      if (arena) T.push(`  assert(${PROBE_FUNCTION}(nullptr, 4) == -1);`);
      T.push("  return 0;", "}", "");
      emit(out, "cpp", u.test, T.join("\n"));
      if (arena) {
        importers.push(u.test);
        callers.push(u.test);
      }
      commands.push({ directory: "..", file: u.test, arguments: ["c++", "-std=c++17", "-Iinclude", "-Ithird_party", "-c", u.test] });
    }
    commands.push({ directory: "..", file: u.source, arguments: [u.cpp ? "c++" : "cc", ...(u.cpp ? ["-std=c++17"] : ["-std=c11"]), "-Iinclude", "-Ithird_party", "-DACME_HAVE_THREADS", "-c", u.source] });
  }
  emit(out, "json", "build/compile_commands.json", JSON.stringify(commands, null, 1) + "\n");
  if (fnProbe === undefined || classProbe === undefined) throw new Error("C/C++ tree: a probe was not planted");
  const manifest: CTreeManifest = {
    generator: GENERATOR_VERSION,
    spec,
    files: out.files,
    bytes: out.bytes,
    byLanguage: out.byLanguage,
    probes: { header: PROBE_HEADER, headerImporters: importers.sort(), function: fnProbe, functionCallers: callers.sort(), symbol: classProbe },
  };
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
  return { root, manifest, generated: true };
}

/** The command-line queries timed on the tree: the class, the header's importers, the function's references. */
export function cQueries(m: CTreeManifest): CliQuery[] {
  const p = m.probes;
  return [
    { kind: "symbol", args: ["symbol", p.symbol.name], word: p.symbol.name },
    { kind: "importers", args: ["importers", p.header], word: path.posix.basename(p.header, ".h") },
    { kind: "refs", args: ["refs", p.function.name, "--path", p.function.path], word: p.function.name },
  ];
}
