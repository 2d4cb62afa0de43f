/**
 * Child process of the benchmark for cold queries and peak memory: a fresh Node process (no
 * TypeScript loader, so its memory is codecite's alone) that loads the compiled evidence
 * functions from `dist/`, opens the workspace, runs the given queries in order (the first one
 * against an empty cache, when CODECITE_CACHE_DIR points at an empty folder) and prints one
 * JSON line: {results: [{tool, ms, total, first}], maxRssMb, wallMs}.
 *
 * Usage: node bench/query-child.mjs <distDir> <root> '<json [{tool, args}]>'
 * Plain JavaScript on purpose: the parent runs under tsx, this process must not.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { pathToFileURL } from "node:url";

const t0 = performance.now();
const [dist, root, queriesJson] = process.argv.slice(2);
const FILES = {
  search_code: ["evidence/search.js", "searchCode"],
  find_importers: ["evidence/importers.js", "findImporters"],
  find_symbol: ["evidence/symbols.js", "findSymbol"],
  find_references: ["evidence/references.js", "findReferences"],
};
const load = async (file, name) => (await import(pathToFileURL(path.join(dist, file)).href))[name];

const queries = JSON.parse(queriesJson);
const Workspace = await load("evidence/sandbox/workspace.js", "Workspace");
const fns = {};
for (const q of queries) {
  const [file, name] = FILES[q.tool];
  fns[q.tool] ??= await load(file, name);
}
const ws = await Workspace.open(root);
const results = [];
for (const q of queries) {
  const t = performance.now();
  const r = await fns[q.tool](ws, q.args);
  const ms = performance.now() - t;
  const first = r.evidence[0];
  results.push({ tool: q.tool, ms, total: r.total, first: first && { path: first.path, start_line: first.start_line } });
}
const maxRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ results, maxRssMb, wallMs: performance.now() - t0 })}\n`);
