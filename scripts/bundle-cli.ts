/**
 * Bundles the command line (`dist/cli/main.js`, after `tsc -p tsconfig.build.json`) into a few
 * files, so that a fresh `codecite` process reads and links a handful of modules instead of a few
 * hundred (Node resolves, reads and compiles each ES module separately; `npm run build` runs this
 * after tsc). Run as `node --import tsx scripts/bundle-cli.ts [folder]` (default `dist`; another
 * folder, e.g. one built with `tsc --outDir`, for comparisons).
 *
 * - Input is tsc's output, so the bundle runs the same JavaScript as `dist/` does.
 * - Commands stay lazily loaded: every dynamic `import()` becomes its own chunk (esbuild
 *   `splitting`), written next to `main.js` (`dist/cli/chunk-*.js`; stale ones are removed first).
 * - `import.meta.url` in a bundled codecite module is rewritten to the URL that module has in
 *   `dist/` (e.g. `dist/evidence/analysis/facts.js`), so that everything found relative to a
 *   module keeps its place: `package.json`, the parse-pool worker (`dist/fact-cache/parse-pool-worker.js`,
 *   which loads its task module from `dist/`).
 * - The fact cache's version (`factsVersion` in `evidence/analysis/facts.ts`: grammar package
 *   versions and a digest of the extractor code) is computed here, from the same `dist/` files, and
 *   fixed in the bundle (`__CODECITE_FACTS_VERSION__`).
 * - Packages that find files next to themselves stay external and load from `node_modules` as
 *   before: better-sqlite3 (native addon), web-tree-sitter and the grammar packages (`.wasm`),
 *   node-llama-cpp (native, optional). CommonJS packages that are bundled get a `require` made
 *   with `createRequire` (esbuild's ESM output has none).
 *
 * esbuild API: https://esbuild.github.io/api/ (splitting, format esm, platform node, plugins onLoad).
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The built tree to bundle in place: `dist/`, or the folder given as the first argument. */
const DIST = path.resolve(ROOT, process.argv[2] ?? "dist");
const OUT = path.join(DIST, "cli");
const ENTRY = path.join(OUT, "main.js");

/** Packages loaded from node_modules at run time (see the module comment). */
const EXTERNAL_PACKAGES = [
  "better-sqlite3",
  "web-tree-sitter",
  "node-llama-cpp",
  "tree-sitter-*",
  "@tree-sitter-grammars/*",
];

/** `import.meta.url` of a bundled dist/ module → that module's own URL, computed from the output file's. */
const keepModuleUrls: Plugin = {
  name: "keep-module-urls",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(DIST + path.sep)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      // Every output file lives in dist/cli/, so the module's dist/ URL is relative to it.
      const rel = path.relative(OUT, args.path).split(path.sep).join("/");
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", url), loader: "js" };
    });
  },
};

/** First line after the hashbang of every output file; an entry that starts with it is already bundled. */
const MARK = "// codecite CLI bundle (scripts/bundle-cli.ts)";

if (readFileSync(ENTRY, "utf8").split("\n", 3).includes(MARK)) {
  // tsc has not written main.js since the last bundle, so nothing under dist/ changed either.
  console.error(`${path.relative(ROOT, ENTRY)} is bundled already (run tsc first to bundle again)`);
  process.exit(0);
}
// The facts version of these dist/ files (grammar packages as installed now, extractor digest),
// fixed in the bundle: a fresh process then skips computing it (see factsVersion in facts.ts).
const facts = (await import(pathToFileURL(path.join(DIST, "evidence/analysis/facts.js")).href)) as { factsVersion(): string };
const factsVersion = facts.factsVersion();

for (const f of readdirSync(OUT)) if (/^chunk-[A-Z0-9]+\.js(\.map)?$/.test(f)) rmSync(path.join(OUT, f));
rmSync(`${ENTRY}.map`, { force: true });

await build({
  entryPoints: [ENTRY],
  outdir: OUT,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunk-[hash]",
  external: EXTERNAL_PACKAGES,
  plugins: [keepModuleUrls],
  define: { __CODECITE_FACTS_VERSION__: JSON.stringify(factsVersion) },
  banner: { js: `${MARK}\nimport { createRequire as __codeciteRequire } from "node:module";\nconst require = __codeciteRequire(import.meta.url);` },
  logLevel: "warning",
});
