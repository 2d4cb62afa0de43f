/**
 * Module resolution for JavaScript and TypeScript imports, from the repository's own files and
 * configuration only (no `node_modules`, nothing executed). Rules, in the order they are tried
 * (each has a test in `test/evidence/lang-typescript.test.ts`):
 *
 * 1. **Relative** (`./x`, `../x`, `.`, `..`): the path from the importing file's folder, probed as
 *    a file, then as a folder (rule 7). A path that leaves the repository is unresolved.
 * 2. **Subpath imports** (`#x`): the `imports` map of the nearest `package.json` that has one
 *    (Node "Subpath imports"), targets probed like package entries (rule 6).
 * 3. **`paths`** of the file's TypeScript configuration (rule 8): an exact key, else the `*`
 *    pattern with the longest prefix; each target in order, relative to `baseUrl` when set, else
 *    to the configuration file that declares `paths` (TypeScript ≥ 4.1).
 * 4. **`baseUrl`**: the specifier below `baseUrl` (after `paths` found nothing, as TypeScript does).
 * 5. **Workspace packages**: a bare specifier whose package name (`@scope/name` or `name`) is the
 *    `name` of a `package.json` in the tree (a monorepo's packages, the root package itself).
 * 6. **Package entries**: `exports` (string, condition object, subpath map with `*` patterns and
 *    legacy folder keys; conditions `types`, `typescript`, `source`, `import`, `require`, `module`,
 *    `node`, `default`, `development`: the first matching condition in the object's key order wins,
 *    nested objects included — Node's PACKAGE_TARGET_RESOLVE, not a fixed order; a later target is
 *    tried only when that one is not in the tree even after the mapping to sources below), else
 *    `types`, `typings`, `module`, `main`, else the folder's `index`. A target missing from the tree
 *    (build output is seldom committed) is mapped to sources: its first folder (`dist`, `lib`,
 *    `build`, `out`, `esm`, `cjs`, `types`) becomes `src` and its extension is probed again.
 * 7. **Probing a path** `p` (TypeScript's order): a `.js`/`.jsx`/`.mjs`/`.cjs` ending is first
 *    replaced by its TypeScript counterparts (`.ts`, `.tsx`, `.d.ts`; `.mts`, `.d.mts`; `.cts`,
 *    `.d.cts`) — ESM TypeScript writes `./x.js` for `x.ts`; then `p` itself (any file, `.json`,
 *    `.css` …); then `p` plus `.ts`, `.tsx`, `.d.ts`, `.js`, `.jsx`, `.mts`, `.cts`, `.d.mts`,
 *    `.d.cts`, `.mjs`, `.cjs`, `.json`; then the folder `p`: its `package.json` entry (rule 6)
 *    and `p/index` with the same endings. A query string (`./x.svg?raw`) is ignored.
 * 8. **Configuration**: the nearest `tsconfig.json`, else `jsconfig.json`, walking up from the
 *    file's folder; comments and trailing commas allowed (parsed with `jsonrepair`). `extends`
 *    (a string or an array, relative paths with or without `.json`, or a workspace package and an
 *    optional file inside it) is merged in order, the file's own options last; `${configDir}` is
 *    the folder of the configuration in use. A solution-style configuration (`references` and
 *    `files: []`, or an `include` that does not cover the file) hands over to the referenced
 *    configuration whose `files`/`include` cover the file.
 * 9. Anything else — a package not in the tree, a Node built-in — is **external** and keeps its
 *    specifier as the module name.
 *
 * Not done: `node_modules` contents, `typesVersions`, `rootDirs`, `moduleSuffixes`, `customConditions`,
 * `extends` from packages that are not in the tree, webpack/vite aliases.
 */
import { posix } from "node:path";
import type { ProjectView, Resolution } from "./language.js";
import { fileTree, isWithin, joinPath, memoize, parentDir } from "./project-files.js";
import { compilePathGlob, pathGlobMatches, type PathGlob } from "./path-glob.js";
import { escapeRustRegex } from "../rust-regex.js";
import { repairJson } from "../../../json-repair.js";

/** TypeScript files a JavaScript ending stands for, in TypeScript's order. */
const TS_FOR_JS: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx", ".d.ts"],
  ".mjs": [".mts", ".d.mts"],
  ".cjs": [".cts", ".d.cts"],
};

/** Endings tried after an extensionless path, in order. */
const PROBE_EXTENSIONS: readonly string[] = [
  ".ts",
  ".tsx",
  ".d.ts",
  ".js",
  ".jsx",
  ".mts",
  ".cts",
  ".d.mts",
  ".d.cts",
  ".mjs",
  ".cjs",
  ".json",
];

/** Package export/import conditions we follow, in no particular order (the package's key order decides). */
const CONDITIONS = new Set(["types", "typescript", "source", "import", "require", "module", "node", "default", "development"]);
const NO_CONDITIONS: ReadonlySet<string> = new Set();

/** First folders of build output that are mapped to `src` when the target is not in the tree. */
const BUILD_DIRS = new Set(["dist", "lib", "build", "out", "esm", "cjs", "types"]);

const ENTRY_FIELDS = ["types", "typings", "module", "main"] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Parses JSON with comments and trailing commas (tsconfig style, read in one pass by
 * {@link jsoncToJson}, at any size); other damage is repaired (`json-repair.ts`) in text up to
 * `MAX_REPAIR_CHARS`; `undefined` when hopeless.
 */
export function parseJsonc(text: string): Json | undefined {
  for (const attempt of [() => text, () => jsoncToJson(text), () => repairJson(text)]) {
    try {
      const json = attempt();
      if (json !== undefined) return JSON.parse(json) as Json;
    } catch {
      // the next attempt
    }
  }
  return undefined;
}

/**
 * JSONC (JSON with comments, https://code.visualstudio.com/docs/languages/json#_json-with-comments,
 * the form of `tsconfig.json`) as JSON text: each `//` and `/* … *\/` comment outside strings
 * becomes a blank, and a comma followed (after blanks and comments) by `}` or `]` is dropped.
 * One pass over the text; `undefined` for an unclosed string or comment.
 */
function jsoncToJson(text: string): string | undefined {
  const out: string[] = [];
  let from = 0;
  /** The index in `out` of a comma that only blanks and comments followed, else -1. */
  let comma = -1;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      if (j >= text.length) return undefined;
      comma = -1;
      i = j + 1;
      continue;
    }
    let skip = -1;
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const e = text.indexOf("\n", i);
      skip = e < 0 ? text.length : e;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const e = text.indexOf("*/", i + 2);
      if (e < 0) return undefined;
      skip = e + 2;
    }
    if (skip >= 0) {
      out.push(text.slice(from, i), " ");
      from = i = skip;
      continue;
    }
    if (c === 44) {
      out.push(text.slice(from, i), ",");
      comma = out.length - 1;
      from = i + 1;
    } else if ((c === 125 || c === 93) && comma >= 0) {
      out[comma] = " ";
      comma = -1;
    } else if (c !== 32 && c !== 9 && c !== 10 && c !== 13) comma = -1;
    i++;
  }
  out.push(text.slice(from));
  return out.join("");
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isRelative(spec: string): boolean {
  return spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../");
}

/** `@scope/name/sub` → `["@scope/name", "./sub"]`; `name` → `["name", "."]`. */
function splitPackageSpecifier(spec: string): [string, string] | undefined {
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  if (parts.length < n || parts.slice(0, n).some((p) => p === "")) return undefined;
  const name = parts.slice(0, n).join("/");
  const rest = parts.slice(n).join("/");
  return [name, rest === "" ? "." : `./${rest}`];
}

/** The targets of a package `exports`/`imports` entry, in order (conditions in the entry's key order). */
function conditionTargets(
  entry: Json | undefined,
  star: string | undefined,
  out: string[],
  conditions: ReadonlySet<string>,
  depth = 0,
): void {
  if (entry === undefined || entry === null || depth > 10) return;
  if (typeof entry === "string") {
    out.push(star === undefined ? entry : entry.split("*").join(star));
  } else if (Array.isArray(entry)) {
    for (const e of entry) conditionTargets(e, star, out, conditions, depth + 1);
  } else if (isObject(entry)) {
    for (const [key, value] of Object.entries(entry)) {
      if (CONDITIONS.has(key) || conditions.has(key)) conditionTargets(value, star, out, conditions, depth + 1);
    }
  }
}

/**
 * Targets of `subpath` (`.`, `./x`, `#x`) in an `exports` or `imports` map (Node's
 * PACKAGE_EXPORTS_RESOLVE / PACKAGE_IMPORTS_RESOLVE, with our condition set plus `extraConditions`,
 * e.g. tsconfig `customConditions`).
 */
export function mapTargets(map: Json | undefined, subpath: string, extraConditions: ReadonlySet<string> = NO_CONDITIONS): string[] {
  if (map === undefined || map === null) return [];
  let entries: { [key: string]: Json };
  if (typeof map === "string" || Array.isArray(map) || (isObject(map) && !Object.keys(map).some((k) => k.startsWith(".") || k.startsWith("#")))) {
    entries = { ".": map };
  } else if (isObject(map)) {
    entries = map;
  } else {
    return [];
  }
  const out: string[] = [];
  const exact = entries[subpath];
  if (exact !== undefined && !subpath.includes("*")) {
    conditionTargets(exact, undefined, out, extraConditions);
    return out;
  }
  let best: { key: string; prefix: string; suffix: string } | undefined;
  for (const key of Object.keys(entries)) {
    const star = key.indexOf("*");
    if (star < 0 || key.indexOf("*", star + 1) >= 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix) || subpath.length < key.length) continue;
    if (best === undefined || prefix.length > best.prefix.length || (prefix.length === best.prefix.length && key.length > best.key.length)) {
      best = { key, prefix, suffix };
    }
  }
  if (best !== undefined) {
    const star = subpath.slice(best.prefix.length, subpath.length - best.suffix.length);
    conditionTargets(entries[best.key], star, out, extraConditions);
    return out;
  }
  const folderKeys = Object.keys(entries)
    .filter((k) => k.endsWith("/") && subpath.startsWith(k))
    .sort((a, b) => b.length - a.length);
  const folder = folderKeys[0];
  if (folder !== undefined) {
    const targets: string[] = [];
    conditionTargets(entries[folder], undefined, targets, extraConditions);
    for (const t of targets) out.push(t + subpath.slice(folder.length));
  }
  return out;
}

/** The effective module-resolution options of one TypeScript/JavaScript configuration. */
export interface EffectiveConfig {
  /** Repository-relative path of the configuration file in use. */
  path: string;
  /** `baseUrl` as a repository-relative folder. */
  baseUrl?: string;
  /** `paths` patterns in declaration order. */
  paths?: [string, string[]][];
  /** Folder that `paths` targets are relative to. */
  pathsBase?: string;
  /** `customConditions`: extra package `exports`/`imports` conditions. */
  customConditions?: string[];
}

interface RawConfig {
  customConditions?: string[];
  baseUrl?: string;
  paths?: [string, string[]][];
  pathsBase?: string;
  files?: string[];
  include?: string[];
  references?: string[];
}

/** How many wildcard patterns of one configuration's `include` are used (real ones hold a few dozen). */
const MAX_INCLUDE_GLOBS = 1000;

/** The resolver of one project view; build with {@link jsResolver}. */
export class JsResolver {
  private readonly dirs: ReadonlySet<string>;
  private readonly rawConfigs = new Map<string, Promise<RawConfig | undefined>>();
  private readonly dirConfigs = new Map<string, Promise<string | undefined>>();
  private readonly fileConfigs = new Map<string, Promise<EffectiveConfig | undefined>>();
  private readonly jsonCache = new Map<string, Promise<Json | undefined>>();
  /** The `files`/`include` lists of each merged configuration, compiled by {@link covers}. */
  private readonly coverage = new WeakMap<RawConfig, { files: ReadonlySet<string>; plain: ReadonlySet<string>; globs: readonly PathGlob[] }>();
  private packagesByName: Promise<Map<string, string>> | undefined;

  constructor(private readonly project: ProjectView) {
    this.dirs = fileTree(project).dirs;
  }

  private readJson(path: string): Promise<Json | undefined> {
    let p = this.jsonCache.get(path);
    if (p === undefined) {
      p = this.project.has(path)
        ? this.project.readText(path).then((t) => (t === undefined ? undefined : parseJsonc(t)))
        : Promise.resolve(undefined);
      this.jsonCache.set(path, p);
    }
    return p;
  }

  /** `name` → package folder, for every `package.json` in the tree with a `name` (shallowest wins). */
  packages(): Promise<Map<string, string>> {
    this.packagesByName ??= (async () => {
      const manifests = this.project.files
        .filter((f) => f === "package.json" || f.endsWith("/package.json"))
        .sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
      const out = new Map<string, string>();
      for (const m of manifests) {
        const pj = await this.readJson(m);
        if (isObject(pj) && typeof pj.name === "string" && pj.name !== "" && !out.has(pj.name)) out.set(pj.name, parentDir(m));
      }
      return out;
    })();
    return this.packagesByName;
  }

  /**
   * The static parts of every `paths` key of every tsconfig/jsconfig in the tree and of every `#`
   * key of every `package.json` `imports` map (`@/*` → `@/`), for the text prefilter.
   */
  async aliasKeys(): Promise<string[]> {
    const keys = new Set<string>();
    for (const f of this.project.files) {
      const base = f.slice(f.lastIndexOf("/") + 1);
      if (/^(tsconfig|jsconfig)(\..*)?\.json$/.test(base)) {
        const json = await this.readJson(f);
        const paths = isObject(json) && isObject(json.compilerOptions) ? json.compilerOptions.paths : undefined;
        if (isObject(paths)) for (const k of Object.keys(paths)) keys.add(k.split("*")[0] as string);
      } else if (base === "package.json") {
        const json = await this.readJson(f);
        if (isObject(json) && isObject(json.imports)) for (const k of Object.keys(json.imports)) keys.add(k.split("*")[0] as string);
      }
    }
    keys.delete("");
    return [...keys];
  }

  // ---- probing (rule 7) ----

  /** A file for path `p` (no folder lookup), per rule 7. */
  probeFile(p: string): string | undefined {
    const has = (f: string) => this.project.has(f);
    const dot = p.lastIndexOf(".");
    const ext = dot > p.lastIndexOf("/") ? p.slice(dot) : "";
    const ts = TS_FOR_JS[ext];
    if (ts !== undefined) {
      const base = p.slice(0, -ext.length);
      for (const e of ts) if (has(base + e)) return base + e;
    }
    if (p !== "" && has(p)) return p;
    for (const e of PROBE_EXTENSIONS) if (has(p + e)) return p + e;
    return undefined;
  }

  /** A file for path `p`: file first, then the folder's package entry and `index`. */
  async probe(p: string, depth = 0): Promise<string | undefined> {
    return this.probeFile(p) ?? (await this.probeFolder(p, depth));
  }

  private async probeFolder(dir: string, depth: number): Promise<string | undefined> {
    if (!this.dirs.has(dir) || depth > 4) return undefined;
    const manifest = joinPath(dir, "package.json");
    if (manifest !== undefined && this.project.has(manifest)) {
      const pj = await this.readJson(manifest);
      if (isObject(pj)) {
        for (const field of ENTRY_FIELDS) {
          const v = pj[field];
          if (typeof v !== "string") continue;
          const f = await this.probeEntry(dir, v, depth + 1);
          if (f !== undefined) return f;
        }
      }
    }
    for (const e of PROBE_EXTENSIONS) {
      const f = joinPath(dir, `index${e}`);
      if (f !== undefined && this.project.has(f)) return f;
    }
    return undefined;
  }

  /** A package entry target (`./dist/index.js`) inside package folder `dir` (rule 6, with the source mapping). */
  private async probeEntry(dir: string, target: string, depth: number): Promise<string | undefined> {
    const p = joinPath(dir, target);
    if (p === undefined || !isWithin(p, dir)) return undefined;
    const direct = this.probeFile(p);
    if (direct !== undefined) return direct;
    const inner = dir === "" ? p : p.slice(dir.length + 1);
    const parts = inner.split("/");
    if (parts.length > 1 && BUILD_DIRS.has(parts[0] as string)) {
      const stripped = ["src", ...parts.slice(1)].join("/").replace(/(\.d)?\.(ts|mts|cts|js|mjs|cjs|jsx|tsx)$/, "");
      const mapped = joinPath(dir, stripped);
      if (mapped !== undefined) {
        const f = this.probeFile(mapped) ?? (await this.probeFolder(mapped, depth + 1));
        if (f !== undefined) return f;
      }
    }
    return p !== dir ? this.probeFolder(p, depth + 1) : undefined;
  }

  // ---- configuration (rule 8) ----

  /**
   * The configuration `path` merged with its `extends` chain, for a file whose governing
   * configuration is in `leafDir`; one computation per pair, shared by concurrent callers.
   */
  private loadRaw(path: string, leafDir: string): Promise<RawConfig | undefined> {
    const key = `${path}\0${leafDir}`;
    let p = this.rawConfigs.get(key);
    if (p === undefined) {
      p = this.mergeChain(path, leafDir, new Map(), []);
      this.rawConfigs.set(key, p);
    }
    return p;
  }

  /**
   * One step of {@link loadRaw}'s walk down the `extends` chain. A repository's `extends` may form
   * a cycle (`a.json` → `b.json` → `a.json`, which TypeScript reports as error TS18000): the walk
   * awaits only file reads, never another merge in progress, so a cycle cannot leave two merges
   * waiting for each other (before, the second use of `a.json` awaited the first one's shared
   * promise, which waited for it: the query never ended). A configuration met again on the way
   * down (`stack`), or more than 10 levels deep, adds nothing; `done` holds the merges finished in
   * this walk, so a diamond of array `extends` is merged once per configuration.
   */
  private async mergeChain(
    path: string,
    leafDir: string,
    done: Map<string, RawConfig | undefined>,
    stack: readonly string[],
  ): Promise<RawConfig | undefined> {
    if (done.has(path)) return done.get(path);
    if (stack.includes(path) || stack.length > 10) return undefined;
    const raw = await this.readRaw(path, leafDir, done, [...stack, path]);
    done.set(path, raw);
    return raw;
  }

  private async readRaw(
    path: string,
    leafDir: string,
    done: Map<string, RawConfig | undefined>,
    stack: readonly string[],
  ): Promise<RawConfig | undefined> {
    const json = await this.readJson(path);
    if (!isObject(json)) return undefined;
    const dir = parentDir(path);
    // `${configDir}` (TypeScript 5.5) is the folder of the configuration in use; values are made
    // relative to this file's folder, like every other path in it.
    const sub = (v: string) => {
      if (!v.includes("${configDir}")) return v;
      const target = joinPath(v.split("${configDir}").join(leafDir === "" ? "." : leafDir)) ?? "";
      const rel = posix.relative(dir === "" ? "." : dir, target === "" ? "." : target);
      return rel === "" ? "." : rel;
    };
    const merged: RawConfig = {};
    const ext = json.extends;
    const bases = typeof ext === "string" ? [ext] : Array.isArray(ext) ? ext.filter((e): e is string => typeof e === "string") : [];
    for (const b of bases) {
      const basePath = await this.resolveExtends(sub(b), dir);
      if (basePath === undefined) continue;
      const base = await this.mergeChain(basePath, leafDir, done, stack);
      if (base !== undefined) Object.assign(merged, base);
    }
    const co = json.compilerOptions;
    if (isObject(co)) {
      if (typeof co.baseUrl === "string") {
        const b = sub(co.baseUrl);
        const abs = b.startsWith("/") ? undefined : joinPath(dir, b);
        if (abs !== undefined) merged.baseUrl = abs;
      }
      if (Array.isArray(co.customConditions)) {
        merged.customConditions = co.customConditions.filter((c): c is string => typeof c === "string");
      }
      if (isObject(co.paths)) {
        const paths: [string, string[]][] = [];
        for (const [k, v] of Object.entries(co.paths)) {
          if (Array.isArray(v)) paths.push([k, v.filter((t): t is string => typeof t === "string").map(sub)]);
        }
        merged.paths = paths;
        merged.pathsBase = dir;
      }
    }
    const list = (v: Json | undefined) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").map(sub) : undefined);
    const resolveList = (v: string[] | undefined) =>
      v?.map((x) => joinPath(dir, x)).filter((x): x is string => x !== undefined);
    const files = resolveList(list(json.files));
    const include = resolveList(list(json.include));
    // `files` and `include` are inherited from `extends` unless the file sets its own (TypeScript handbook, tsconfig `extends`).
    if (files !== undefined) merged.files = files;
    if (include !== undefined) merged.include = include;
    if (Array.isArray(json.references)) {
      const refs: string[] = [];
      for (const r of json.references) {
        if (isObject(r) && typeof r.path === "string") {
          const p = joinPath(dir, sub(r.path));
          if (p === undefined) continue;
          refs.push(p.endsWith(".json") ? p : (joinPath(p, "tsconfig.json") ?? p));
        }
      }
      merged.references = refs;
    } else {
      delete merged.references;
    }
    return merged;
  }

  private async resolveExtends(spec: string, dir: string): Promise<string | undefined> {
    const tryFile = (p: string | undefined) => {
      if (p === undefined) return undefined;
      if (this.project.has(p)) return p;
      if (!p.endsWith(".json") && this.project.has(`${p}.json`)) return `${p}.json`;
      return undefined;
    };
    if (isRelative(spec)) return tryFile(joinPath(dir, spec));
    if (spec.startsWith("/")) return undefined;
    const split = splitPackageSpecifier(spec);
    if (split === undefined) return undefined;
    const pkgDir = (await this.packages()).get(split[0]);
    if (pkgDir === undefined) return undefined;
    if (split[1] !== ".") return tryFile(joinPath(pkgDir, split[1]));
    const pj = await this.readJson(joinPath(pkgDir, "package.json") ?? "package.json");
    if (isObject(pj) && typeof pj.tsconfig === "string") {
      const f = tryFile(joinPath(pkgDir, pj.tsconfig));
      if (f !== undefined) return f;
    }
    return tryFile(joinPath(pkgDir, "tsconfig.json"));
  }

  private nearestConfig(dir: string): Promise<string | undefined> {
    let p = this.dirConfigs.get(dir);
    if (p === undefined) {
      p = (async () => {
        for (const name of ["tsconfig.json", "jsconfig.json"]) {
          const f = joinPath(dir, name);
          if (f !== undefined && this.project.has(f)) return f;
        }
        return dir === "" ? undefined : this.nearestConfig(parentDir(dir));
      })();
      this.dirConfigs.set(dir, p);
    }
    return p;
  }

  /**
   * Whether `raw`'s `files`/`include` (or, with neither, everything below `configDir`) cover
   * `file`. Each configuration's lists are compiled once into sets and globs, so each file costs
   * a set lookup per folder above it and one glob run per pattern with a wildcard; a repository's
   * configuration may hold a megabyte of patterns, so only the first {@link MAX_INCLUDE_GLOBS}
   * patterns with a wildcard are used.
   */
  private covers(raw: RawConfig, file: string, configDir: string): boolean {
    let cover = this.coverage.get(raw);
    if (cover === undefined) {
      const include = raw.include ?? (raw.files === undefined ? [configDir === "" ? "**/*" : `${configDir}/**/*`] : []);
      const plain = new Set<string>();
      const globs: PathGlob[] = [];
      for (const pattern of include) {
        if (!/[*?]/.test(pattern)) plain.add(pattern);
        else if (globs.length < MAX_INCLUDE_GLOBS) globs.push(compilePathGlob(pattern));
      }
      cover = { files: new Set(raw.files), plain, globs };
      this.coverage.set(raw, cover);
    }
    if (cover.files.has(file) || cover.plain.has("")) return true;
    for (let d = file; d !== ""; d = parentDir(d)) if (cover.plain.has(d)) return true;
    return cover.globs.some((glob) => pathGlobMatches(glob, file));
  }


  /** The configuration that governs `file` (rule 8), or `undefined` when there is none. */
  configFor(file: string): Promise<EffectiveConfig | undefined> {
    const dir = parentDir(file);
    let p = this.fileConfigs.get(file);
    if (p === undefined) {
      p = (async () => {
        const path = await this.nearestConfig(dir);
        if (path === undefined) return undefined;
        let usedPath = path;
        let raw = await this.loadRaw(path, parentDir(path));
        if (raw === undefined) return { path };
        if (raw.references && raw.references.length > 0 && !this.covers(raw, file, parentDir(path))) {
          for (const ref of raw.references) {
            const r = await this.loadRaw(ref, parentDir(ref));
            if (r !== undefined && this.covers(r, file, parentDir(ref))) {
              raw = r;
              usedPath = ref;
              break;
            }
          }
        }
        const out: EffectiveConfig = { path: usedPath };
        if (raw.baseUrl !== undefined) out.baseUrl = raw.baseUrl;
        if (raw.customConditions !== undefined) out.customConditions = raw.customConditions;
        if (raw.paths !== undefined) {
          out.paths = raw.paths;
          out.pathsBase = raw.baseUrl ?? raw.pathsBase ?? parentDir(usedPath);
        }
        return out;
      })();
      this.fileConfigs.set(file, p);
    }
    return p;
  }

  // ---- resolution ----

  private async resolvePackage(spec: string, depth: number, conditions: ReadonlySet<string>): Promise<string | undefined | null> {
    const split = splitPackageSpecifier(spec);
    if (split === undefined) return null;
    const dir = (await this.packages()).get(split[0]);
    if (dir === undefined) return null;
    const [, subpath] = split;
    const pj = await this.readJson(joinPath(dir, "package.json") ?? "package.json");
    if (isObject(pj) && pj.exports !== undefined && pj.exports !== null) {
      for (const t of mapTargets(pj.exports, subpath, conditions)) {
        const f = await this.probeEntry(dir, t, depth);
        if (f !== undefined) return f;
      }
    }
    if (subpath === ".") return this.probeFolder(dir, depth);
    const p = joinPath(dir, subpath);
    if (p === undefined) return undefined;
    return (await this.probe(p, depth)) ?? (await this.probeEntry(dir, `./dist/${subpath.slice(2)}`, depth));
  }

  private async resolveSubpathImport(spec: string, fromFile: string, depth: number): Promise<string | undefined> {
    for (let d = parentDir(fromFile); ; d = parentDir(d)) {
      const manifest = joinPath(d, "package.json");
      if (manifest !== undefined && this.project.has(manifest)) {
        const pj = await this.readJson(manifest);
        if (isObject(pj) && pj.imports !== undefined) {
          const conditions = new Set((await this.configFor(fromFile))?.customConditions ?? []);
          for (const t of mapTargets(pj.imports, spec, conditions)) {
            const f = isRelative(t) ? await this.probeEntry(d, t, depth) : (await this.resolveBare(t, fromFile, depth + 1)) ?? undefined;
            if (f !== undefined) return f;
          }
          return undefined;
        }
      }
      if (d === "") return undefined;
    }
  }

  /** A bare specifier through `paths`, `baseUrl` and workspace packages; `null` when it is not ours. */
  private async resolveBare(spec: string, fromFile: string, depth: number): Promise<string | undefined | null> {
    if (depth > 5) return undefined;
    const config = await this.configFor(fromFile);
    if (config?.paths !== undefined && config.pathsBase !== undefined) {
      const targets = matchPaths(config.paths, spec);
      if (targets !== undefined) {
        for (const t of targets) {
          const p = joinPath(config.pathsBase, t);
          const f = p === undefined ? undefined : await this.probe(p, depth);
          if (f !== undefined) return f;
        }
      }
    }
    if (config?.baseUrl !== undefined) {
      const p = joinPath(config.baseUrl, spec);
      const f = p === undefined ? undefined : await this.probe(p, depth);
      if (f !== undefined) return f;
    }
    return this.resolvePackage(spec, depth, new Set(config?.customConditions ?? []));
  }

  /** Resolves `specifier` written in `fromFile` (see the module comment). */
  async resolve(specifier: string, fromFile: string): Promise<Resolution> {
    const spec = specifier.replace(/\?.*$/, "");
    const unresolved: Resolution = { files: [], module: specifier, external: false, unresolved: true };
    const hit = (f: string | undefined | null): Resolution | undefined =>
      f === undefined || f === null ? undefined : { files: [f], module: f, external: false };
    if (spec === "") return unresolved;
    const fromDir = parentDir(fromFile);
    if (isRelative(spec)) {
      const p = joinPath(fromDir, spec);
      return (p === undefined ? undefined : hit(await this.probe(p))) ?? unresolved;
    }
    if (spec.startsWith("/") || /^[a-zA-Z]:[\\/]/.test(spec) || spec.includes("\\")) return unresolved;
    if (spec.startsWith("#")) return hit(await this.resolveSubpathImport(spec, fromFile, 0)) ?? unresolved;
    if (/^[a-z][a-z0-9+.-]*:/i.test(spec) && !spec.startsWith("@")) return { files: [], module: specifier, external: true };
    const f = await this.resolveBare(spec, fromFile, 0);
    if (f === null) return { files: [], module: specifier, external: true };
    return hit(f) ?? unresolved;
  }
}

/** Regex (Rust syntax) for specifiers made only of dots and slashes (`"."`, `'../'`, `"../.."`), which reach an `index` file without naming it. */
const DOTS_ONLY_SPECIFIER = String.raw`['"\x60]\.\.?(/\.\.)*/?['"\x60]`;
/** Regex (Rust syntax) for `import(`/`require(` with a non-literal argument, whose static prefix may point at a file. */
const NON_LITERAL_CALL = String.raw`(import|require)\s*\(\s*[^'"\s)]`;

/**
 * Text that every JS/TS file importing `file` contains (see `LanguageSpec.importerHints`): the file's
 * stem; for an `index` file its folder's name and dots-only specifiers; the name of the workspace
 * package holding it; every `paths` key of every configuration in the tree (aliases may name
 * anything); every `#` subpath-import key; and non-literal `import(`/`require(` calls.
 */
export async function jsImporterHints(file: string, project: ProjectView): Promise<{ literals: string[]; patterns: string[] }> {
  const resolver = jsResolver(project);
  const base = file.slice(file.lastIndexOf("/") + 1);
  const stem = base.replace(/(\.d)?\.[^.]+$/, "");
  const literals = new Set<string>([stem]);
  const patterns = [NON_LITERAL_CALL];
  if (stem === "index") {
    const dir = parentDir(file);
    if (dir !== "") literals.add(dir.slice(dir.lastIndexOf("/") + 1));
    patterns.push(DOTS_ONLY_SPECIFIER);
  }
  for (const [name, dir] of await resolver.packages()) if (isWithin(file, dir)) literals.add(name);
  for (const key of await resolver.aliasKeys()) literals.add(key);
  return { literals: [...literals].filter((l) => l !== ""), patterns };
}

/**
 * Text that every JS/TS file importing the module `query` by name must contain (see
 * `LanguageSpec.importerNameHints`). A specifier that leaves the tree is its own module name
 * (`JsResolver.resolve`), and `find_importers` matches it when it is the query or, with
 * `includeSubmodules`, starts with the query and a separator; a specifier equal to the query also
 * leads to the files it reaches. Either way a string literal starts with the query: `"session"`,
 * `'lodash/fp'`. With `includeSubmodules` a file of the tree below a folder named like the query
 * matches however it is imported, so the query's last part, anywhere, is the hint then.
 */
export function jsImporterNameHints(query: string, word: string, includeSubmodules: boolean): { literals: string[]; patterns?: string[] } {
  if (includeSubmodules) return { literals: [word] };
  return { literals: [], patterns: [String.raw`['"\x60]${escapeRustRegex(query)}(?:['"\x60./]|::)`] };
}

/** tsconfig `paths` matching (TypeScript's `matchPatternOrExact`): exact key, else the longest-prefix `*` pattern. */
export function matchPaths(paths: readonly [string, string[]][], spec: string): string[] | undefined {
  for (const [key, targets] of paths) if (!key.includes("*") && key === spec) return targets;
  let best: { prefix: string; star: string; targets: string[] } | undefined;
  for (const [key, targets] of paths) {
    const i = key.indexOf("*");
    if (i < 0) continue;
    const prefix = key.slice(0, i);
    const suffix = key.slice(i + 1);
    if (spec.length >= prefix.length + suffix.length && spec.startsWith(prefix) && spec.endsWith(suffix)) {
      if (best === undefined || prefix.length > best.prefix.length) {
        best = { prefix, star: spec.slice(prefix.length, spec.length - suffix.length), targets };
      }
    }
  }
  if (best === undefined) return undefined;
  const star = best.star;
  return best.targets.map((t) => t.split("*").join(star));
}

/** The {@link JsResolver} of a project view, built once per view. */
export function jsResolver(project: ProjectView): JsResolver {
  return memoize(project, "js-resolver", () => new JsResolver(project));
}
