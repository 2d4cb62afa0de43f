/**
 * Bundles the command line (`dist/cli/main.js`, after `tsc -p tsconfig.build.json`), so that a
 * fresh `codecite` process reads and compiles a few files instead of a few hundred modules (Node
 * resolves, reads and compiles each ES module separately; `npm run build` runs this after tsc).
 * Run as `node --import tsx scripts/bundle-cli.ts [folder]` (default `dist`; another folder, e.g.
 * one built with `tsc --outDir`, for comparisons). It writes, in `dist/cli/`:
 *
 * - `query-<command>.cjs`, one per query command (`QUERY_BUNDLE_COMMANDS` of
 *   `src/cli/compile-cache.ts`: search, symbol, importers, refs, read, diff): that command as one
 *   CommonJS file, which `main.cjs` runs with a V8 code cache kept in the user's cache folder
 *   (`compile-cache.ts`; Node 20 keeps no compile cache for modules). Every other command module
 *   and every other tool's evidence module is left out (a stub that throws), so `search` does not
 *   read the language modules; so is zod (loaded from node_modules when an argument fails the
 *   quick check). Modules reached through a dynamic `import()` are still evaluated only when first
 *   imported (esbuild wraps them). Each file is the wrapper function expression itself
 *   (`compile-cache.ts` `wrapped`).
 * - `all.js` and `chunk-*.js`: every command as ES modules; each dynamic `import()` becomes its
 *   own chunk (esbuild `splitting`; stale chunks are removed first), so commands load lazily.
 * - `launch.cjs`: `compile-cache.js` and `root-seen.js` with what they import, as one CommonJS file. An ES module's
 *   `import … from "node:fs"` makes Node build an ES module facade of the builtin, which reads every
 *   export, lazy ones included (`fs.ReadStream` loads the stream modules); `require` does not.
 * - `main.cjs` (package.json `bin`): loads `launch.cjs`, runs `query-<command>.cjs` for a query
 *   command, else imports `all.js`. Being CommonJS, a query command never starts Node's ES module
 *   loader.
 * - `main.js` (replacing tsc's): runs `main.cjs`, for `node dist/cli/main.js`.
 *
 * Both bundles are made from tsc's output, so they run the same JavaScript as `dist/` does.
 * - `import.meta.url` in a bundled codecite module is rewritten to the URL that module has in
 *   `dist/` (e.g. `dist/evidence/analysis/facts.js`), so that everything found relative to a
 *   module keeps its place: `package.json`, the parse-pool worker (`dist/fact-cache/parse-pool-worker.js`,
 *   which loads its task module from `dist/`).
 * - The fact cache's version (`factsVersion` in `evidence/analysis/facts.ts`: grammar package
 *   versions and a digest of the extractor code) is computed here, from the same `dist/` files, and
 *   fixed in the bundle (`__CODECITE_FACTS_VERSION__`).
 * - Packages that find files next to themselves stay external and load from `node_modules` as
 *   before: better-sqlite3 (native addon), web-tree-sitter and the grammar packages (`.wasm`),
 *   node-llama-cpp (native, optional). The query bundles hold better-sqlite3's JavaScript too,
 *   used when its addon's file is found (`fact-cache/sqlite-driver.ts`); the addon itself is
 *   loaded from `node_modules` by path. They hold web-tree-sitter's CommonJS build as well
 *   ({@link bundledTreeSitter}), with its runtime's `tree-sitter.wasm` copied next to them. CommonJS packages bundled into the ES modules get a
 *   `require` made with `createRequire` (esbuild's ESM output has none).
 *
 * esbuild API: https://esbuild.github.io/api/ (splitting, format esm/cjs, stdin, platform node, plugins onResolve/onLoad).
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { QUERY_BUNDLE_COMMANDS, WRAPPER_END, WRAPPER_START } from "../src/cli/compile-cache.js";

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

/**
 * `import.meta.url` of a bundled dist/ module → that module's own URL, computed from the output
 * file's (every output file lives in dist/cli/, so the module's dist/ URL is relative to it). In
 * the CommonJS bundle, which has no `import.meta`, the output file's URL is `__codeciteUrl` (set
 * by its banner), also for the packages bundled with it.
 */
function keepModuleUrls(format: "esm" | "cjs"): Plugin {
  const base = format === "esm" ? "import.meta.url" : "__codeciteUrl";
  return {
    name: "keep-module-urls",
    setup(b) {
      b.onLoad({ filter: /\.js$/, namespace: "file" }, async (args) => {
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        if (!args.path.startsWith(DIST + path.sep)) return format === "esm" ? undefined : { contents: text.replaceAll("import.meta.url", base), loader: "js" };
        const rel = path.relative(OUT, args.path).split(path.sep).join("/");
        return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(rel)}, ${base}).href`), loader: "js" };
      });
    },
  };
}

/**
 * The evidence module each query command's tool imports when it runs (`tools/code-tools.ts`, one
 * dynamic `import("../evidence/<module>")` per tool); checked against code-tools.js at build time.
 */
const TOOL_MODULE_OF_COMMAND: Readonly<Record<string, string>> = {
  search: "search.js",
  symbol: "symbols.js",
  read: "read.js",
  importers: "importers.js",
  refs: "references.js",
  diff: "git-diff.js",
};

/**
 * In the query bundle of `command`, every other command module (`commands/index.js`) and every
 * other tool's evidence module (`tools/code-tools.js`) is a stub that throws if it is ever loaded:
 * the process runs that one command, whose tool is the only one it calls.
 */
function onlyCommand(command: string): Plugin {
  const index = path.join(OUT, "commands", "index.js");
  const codeTools = path.join(DIST, "tools", "code-tools.js");
  const toolModules = [...readFileSync(codeTools, "utf8").matchAll(/import\("\.\.\/evidence\/([a-z-]+\.js)"\)/g)].map((m) => m[1] as string);
  const own = TOOL_MODULE_OF_COMMAND[command];
  if (own === undefined || !QUERY_BUNDLE_COMMANDS.every((c) => toolModules.includes(TOOL_MODULE_OF_COMMAND[c] ?? ""))) {
    throw new Error(`bundle-cli: the tool modules imported by ${codeTools} (${toolModules.join(", ")}) do not match TOOL_MODULE_OF_COMMAND`);
  }
  return {
    name: "only-command",
    setup(b) {
      b.onResolve({ filter: /^\.\/[a-z]+\.js$/ }, (args) => {
        if (args.importer !== index || path.basename(args.path, ".js") === command) return undefined;
        return { path: args.path, namespace: "codecite-not-in-query-bundle" };
      });
      b.onResolve({ filter: /^\.\.\/evidence\/[a-z-]+\.js$/ }, (args) => {
        const name = path.basename(args.path);
        if (args.importer !== codeTools || args.kind !== "dynamic-import" || !toolModules.includes(name) || name === own) return undefined;
        return { path: args.path, namespace: "codecite-not-in-query-bundle" };
      });
      b.onLoad({ filter: /.*/, namespace: "codecite-not-in-query-bundle" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`codecite: ${args.path} is not in the query bundle of ${command}`)});`,
        loader: "js",
      }));
    },
  };
}

/**
 * In the query bundle, commander's `require("node:child_process")` (used only to run executable
 * subcommands, which codecite has none of) gives an object whose properties load the module on
 * first use: loading it (with the stream and socket code it pulls in) cost every query a few ms,
 * and a warm query answered from the fact cache starts no child process.
 */
function lazyChildProcessForCommander(): Plugin {
  return {
    name: "lazy-child-process-for-commander",
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
        if (!args.importer.split(path.sep).includes("commander")) return undefined;
        return { path: "child_process", namespace: "codecite-lazy-child-process" };
      });
      b.onLoad({ filter: /.*/, namespace: "codecite-lazy-child-process" }, () => ({
        contents: `let m; module.exports = new Proxy({}, { get(_, key) { m ??= require("node:child_process"); return m[key]; } });`,
        loader: "js",
      }));
    },
  };
}

/**
 * In the query bundles, `packageVersion()` (`version.ts`) returns `version`, what it returned at
 * build time from the same `dist/`: each query command registers `--version` on the program, and
 * reading and parsing package.json cost every query process its share.
 */
function fixedPackageVersion(version: string): Plugin {
  const file = path.join(DIST, "version.js");
  return {
    name: "fixed-package-version",
    setup(b) {
      b.onLoad({ filter: /version\.js$/, namespace: "file" }, (args) =>
        args.path === file ? { contents: `export function packageVersion() {\n  return ${JSON.stringify(version)};\n}\n`, loader: "js" } : undefined,
      );
    },
  };
}

/**
 * In the query bundles, `bundledDriver()` (`fact-cache/sqlite-driver.ts`) returns better-sqlite3's
 * `Database` through a `require` the bundler follows (the driver's JavaScript is bundled, its
 * native addon stays in node_modules) and the version of the package it was taken from.
 */
function bundledSqliteDriver(): Plugin {
  const file = path.join(DIST, "fact-cache", "sqlite-driver.js");
  const manifest = createRequire(file).resolve("better-sqlite3/package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return {
    name: "bundled-sqlite-driver",
    setup(b) {
      b.onLoad({ filter: /sqlite-driver\.js$/, namespace: "file" }, (args) =>
        args.path === file
          ? {
              contents: `export function bundledDriver() {\n  return { Database: require("better-sqlite3"), version: ${JSON.stringify(version)} };\n}\n`,
              loader: "js",
              resolveDir: path.dirname(file),
            }
          : undefined,
      );
    },
  };
}

/**
 * In the query bundles, `web-tree-sitter` is its CommonJS build (`tree-sitter.cjs`, the package's
 * `require` export), bundled: loaded from node_modules on a first query, it cost the main thread
 * about 10 ms (process CPU of paired first `symbol` queries on the c-cpp bench tree, main thread
 * from /proc/<pid>/task/<pid>/schedstat). `require` resolves the package's `exports` with Node's ES
 * module resolver, whose modules then compile without their embedded code cache (main.cjs sets a V8
 * flag first), and the 160 KB file compiled without a code cache. Bundled, it is compiled from the
 * query bundle's code cache. Its ES module build is not taken: it reaches `node:module` through a
 * dynamic `import()`, which code from a `vm.Script`'s cached data cannot run (Node 20:
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). The runtime finds `tree-sitter.wasm` in its script's
 * folder (`__dirname`, Emscripten's `locateFile`): {@link TREE_SITTER_RUNTIME} is copied there.
 */
function bundledTreeSitter(): Plugin {
  const file = createRequire(path.join(DIST, "evidence", "analysis", "tree-sitter.js")).resolve("web-tree-sitter");
  return {
    name: "bundled-tree-sitter",
    setup(b) {
      b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: file }));
    },
  };
}

/** web-tree-sitter's runtime, as installed for `dist/` (see {@link bundledTreeSitter}). */
const TREE_SITTER_RUNTIME = createRequire(path.join(DIST, "evidence", "analysis", "tree-sitter.js")).resolve("web-tree-sitter/tree-sitter.wasm");

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
const version = ((await import(pathToFileURL(path.join(DIST, "version.js")).href)) as { packageVersion(): string }).packageVersion();
// Likewise the digest of the code behind a kept references answer (answerCodeVersion in reference-answers.ts).
const answers = (await import(pathToFileURL(path.join(DIST, "evidence/reference-answers.js")).href)) as { answerCodeVersion(): string };
const answerCodeVersion = answers.answerCodeVersion();

const ALL = path.join(OUT, "all.js");
const LAUNCH = path.join(OUT, "launch.cjs");
const MAIN_CJS = path.join(OUT, "main.cjs");
for (const f of readdirSync(OUT)) if (/^(chunk-[A-Z0-9]+\.js(\.map)?|query(-[a-z]+)?\.cjs)$/.test(f)) rmSync(path.join(OUT, f));
for (const f of [`${ENTRY}.map`, ALL, LAUNCH, MAIN_CJS]) rmSync(f, { force: true });
const define = { __CODECITE_FACTS_VERSION__: JSON.stringify(factsVersion), __CODECITE_ANSWER_CODE_VERSION__: JSON.stringify(answerCodeVersion) };

// Every command: ES modules, split into chunks loaded on demand (all.js and chunk-*.js).
await build({
  entryPoints: [{ in: ENTRY, out: "all" }],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunk-[hash]",
  external: EXTERNAL_PACKAGES,
  plugins: [keepModuleUrls("esm")],
  define,
  banner: { js: `${MARK}\nimport { createRequire as __codeciteRequire } from "node:module";\nconst require = __codeciteRequire(import.meta.url);` },
  logLevel: "warning",
});

// Each query command: one CommonJS file, run with a V8 code cache (src/cli/compile-cache.ts).
// Modules reached only through a dynamic import() stay lazily evaluated (esbuild wraps them).
for (const command of QUERY_BUNDLE_COMMANDS) {
  await build({
    stdin: { contents: `import { runCli } from "./cli.js";\nvoid runCli();\n`, resolveDir: OUT, sourcefile: "query-entry.js", loader: "js" },
    outfile: path.join(OUT, `query-${command}.cjs`),
    bundle: true,
    charset: "ascii",
    minifyWhitespace: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // zod (0.8 MB) serves only to word the errors of arguments that fail the quick check
    // (tools/lazy-tool.ts): it loads from node_modules (its CommonJS build) when that happens.
    // better-sqlite3's JavaScript is bundled (bundledSqliteDriver; its addon loads by path), so the
    // package it would search for its addon with (bindings) is never reached.
    // web-tree-sitter is bundled (bundledTreeSitter), its grammar packages are not.
    external: [...EXTERNAL_PACKAGES.filter((p) => p !== "better-sqlite3" && p !== "web-tree-sitter"), "bindings", "zod"],
    plugins: [fixedPackageVersion(version), bundledSqliteDriver(), bundledTreeSitter(), keepModuleUrls("cjs"), onlyCommand(command), lazyChildProcessForCommander()],
    define,
    // The file is the function expression runCachedScript would otherwise wrap the code in (its
    // `wrapped` option): V8 then compiles the file's own text instead of a joined copy of it.
    banner: { js: `${WRAPPER_START}${MARK}\nvar __codeciteUrl = require("node:url").pathToFileURL(__filename).href;` },
    footer: { js: WRAPPER_END },
    logLevel: "warning",
  });
}

copyFileSync(TREE_SITTER_RUNTIME, path.join(OUT, path.basename(TREE_SITTER_RUNTIME)));

// The code-cache loader, as CommonJS (see the module comment).
await build({
  stdin: { contents: 'export * from "./compile-cache.js";\nexport { rootSeenBefore } from "./root-seen.js";\n', resolveDir: OUT, sourcefile: "launch.js" },
  outfile: LAUNCH,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: EXTERNAL_PACKAGES,
  plugins: [keepModuleUrls("cjs")],
  banner: { js: `${MARK}\nvar __codeciteUrl = require("node:url").pathToFileURL(__filename).href;` },
  logLevel: "warning",
});

// The command line's entry (package.json "bin"): CommonJS, so that a query command never starts
// Node's ES module loader (resolving, reading and linking an ES module entry loads fs/promises,
// readline and the loader's own modules: a few ms of every query).
writeFileSync(
  MAIN_CJS,
  `#!/usr/bin/env node
${MARK}
"use strict";
// Each query command runs from its own query-<command>.cjs with a V8 code cache (compile-cache.js, loaded from launch.cjs); the others from all.js.
// A query command compiles the tree-sitter grammars' WebAssembly with V8's baseline compiler only
// (--liftoff-only, https://v8.dev/docs/wasm-compilation-pipeline): the optimizing tier-up of a
// grammar's lexer costs a one-shot command more than it saves. Set before the query bundle is
// compiled, so its code cache is made and checked under the same flags. \`doctor\` too: its grammar
// check compiles every grammar once to parse a few lines (all of them: about 8 s of CPU with tier-up).
// V8 checks a code cache against a hash of its flags, Node's own modules' embedded caches too: one
// of them loaded after the flag is set is compiled from its source instead (V8 --profile-deserialization
// prints "Cached code failed check" for each): 12 to 17 per query, about 10 ms of CPU. So the ones
// every query command loads (workspace: fs/promises; fact-cache activity: diagnostics_channel; the
// output streams; symbol, importers and refs: node:crypto, which names the fact cache's file and
// hashes file contents, warm queries too) and those search and diff load to run rg and git are loaded first, and
// node:child_process for symbol, importers and refs too when their root was never queried (src/cli/root-seen.ts: the
// query then runs ripgrep; its 5 modules compiled from source cost about 5 ms more than from the embedded cache;
// a warm query may start no process, so it never loads them); \`performance\`
// (Node's perf_hooks, ten modules) only for a timed run (CODECITE_TIMING=1, the only reader of the
// clock in a query command: src/cli/query-activity.ts, src/fact-cache/activity.ts), perf, issue 17.
// Every query command also raises V8's optimization budget 16-fold (--interrupt-budget, default 66 KiB:
// what a function's executed bytecode counts down before V8's tiering manager considers it for TurboFan;
// V8 src/flags/flag-definitions.h, listed by \`node --v8-options\`): with the default, the functions that
// read ripgrep's JSON, check the stamps of every file or extract facts get hot and TurboFan compiles them
// on a background thread while the command already finishes, work a one-shot query never uses (perf,
// issue 17, node CPU of paired runs, median difference: warm search medium about -15 ms, large about
// -110 ms; warm symbol large -27 ms, importers and refs large -17 ms, refs medium -6 ms; first query
// (empty fact cache) refs and importers medium -73 and -76 ms, refs c-cpp and large -260 ms); an \`--all\`
// search over tens of thousands of lines, or a first query over a large tree, still gets its hot loops optimized.
// refs raises it 4-fold only: a first refs query spends most of its main thread in the reference walks
// over every node of each file it parses, which TurboFan-compiled code (made on the other core) runs
// faster; at 16-fold the medium first query's main thread took about 18 ms more (15 paired runs,
// 14 slower), for the same process CPU (perf, issue 17).
// Every query command compiles WebAssembly eagerly (--no-wasm-lazy-compilation; V8's default
// compiles each function on its first call, on the thread that calls it): WebAssembly.instantiate then
// compiles all of a module's functions on V8's background threads, while the main thread goes on. A
// first symbol query on the c-cpp bench tree compiled tree-sitter-cpp's lexer (130 KB of code) on its
// first parse: eager, its main thread took about 15 ms less (paired first queries against lazy, four runs
// of 11, 11, 11 and 21 pairs: median differences -15, -20, +1 and -15 ms, lower in 9, 10, 5 and 16
// of them) for about the same process CPU (-1 to +19 ms); on the medium (Python) tree, first symbol
// and importers stayed the same. refs too, since a refs query given a file's path loads that file's
// grammar while ripgrep walks the tree (facts.ts warmUpParser): its functions are then compiled in
// that wait instead of on the first parse (medium first refs RagIndexBuilder --path …, main thread,
// three runs of 15 pairs against lazy: median differences -7, -34 and -1 ms, the 45 together -7 ms,
// lower in 30, process CPU +1 ms; c-cpp first refs acme_arena_alloc, 11 pairs: main thread +15 ms
// (spread ±250), process CPU +59 ms; at load 15-22).
const { setFlagsFromString } = require("node:v8");
const { QUERY_BUNDLE_COMMANDS, rootSeenBefore, runCachedScript } = require("./launch.cjs");
const command = process.argv[2];
if (QUERY_BUNDLE_COMMANDS.includes(command)) {
  require("node:fs/promises");
  require("node:diagnostics_channel");
  require("node:process");
  void process.stdout;
  void process.stderr;
  if (process.env.CODECITE_TIMING === "1") void performance.now();
  if (command === "search" || command === "diff") require("node:child_process");
  if (command === "symbol" || command === "importers" || command === "refs") {
    require("node:crypto");
    if (!rootSeenBefore()) require("node:child_process");
  }
  setFlagsFromString(\`--liftoff-only --no-wasm-lazy-compilation --interrupt-budget=\${command === "refs" ? 270336 : 1081344}\`);
  runCachedScript(require("node:path").join(__dirname, \`query-\${command}.cjs\`), { name: \`query-\${command}\`, wrapped: true });
} else {
  if (command === "doctor") setFlagsFromString("--liftoff-only");
  void import("./all.js");
}
`,
);

// \`node dist/cli/main.js\` (tsc's entry, as the README's MCP set-up runs it) runs the same entry.
writeFileSync(
  ENTRY,
  `#!/usr/bin/env node
${MARK}
// The same as main.cjs (package.json "bin"), which runs without Node's ES module loader.
import { createRequire } from "node:module";
createRequire(import.meta.url)("./main.cjs");
`,
);
