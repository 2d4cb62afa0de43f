/**
 * Where Python modules live in a repository, worked out from file paths alone (nothing is run
 * or installed), and the path-based search of Python's import system over that layout.
 *
 * Rules (each has its own test in `test/evidence/lang-python.test.ts`):
 *
 * 1. **Packages** are folders holding `__init__.py` (or a stub-only `__init__.pyi`). A file in a
 *    package is named from the top of its `__init__.py` chain: `src/pkg/sub/m.py` with
 *    `src/pkg/__init__.py` and `src/pkg/sub/__init__.py` is `pkg.sub.m` (grimp, pydeps).
 * 2. **Import roots** (the `sys.path` entries we assume), in this order of preference for one file:
 *    a. the file's own folder when that folder is not a package — the folder of a script is
 *       `sys.path[0]` (Python docs, "sys.path initialization");
 *    b. every root that contains the file, deepest first;
 *    c. every other root, by path.
 *    The roots are: the repository root; the parent of every top-level package (a package whose
 *    parent is not one), so several roots in one repository work (`services/a/app`,
 *    `services/b/app`); and every `src/` or `lib/` folder that holds Python files and is neither a
 *    package nor inside one (the `src/` and `lib/` layouts, with or without `__init__.py` — PEP 420
 *    namespace packages).
 * 3. **Search** follows `importlib`'s `PathFinder`/`FileFinder` (importlib/_bootstrap_external.py):
 *    in each root, a package folder (`name/__init__.py`) beats a module file (`name.py`, then a
 *    stub-only `name.pyi`), which beats a plain folder; a plain folder is remembered as a namespace
 *    portion (PEP 420) and used only when no root has a package or module of that name; the
 *    submodules of a package are searched in the package's folder(s) the same way.
 * 4. **A file's own module name** (for relative imports and for `Evidence.name`): the package chain
 *    of rule 1, else the path below the deepest root that contains it. Names whose parts are not
 *    identifiers (`my-scripts/x.py`) cannot be imported and have no name.
 */
import { foldersOf, isWithin, memoize, parentDir } from "./project-files.js";
import type { ProjectView } from "./language.js";

/** File endings of Python source and stub files. */
const PYTHON_EXTENSIONS: readonly string[] = [".py", ".pyi"];

/** Whether a path ends in one of {@link PYTHON_EXTENSIONS}. */
function isPythonFile(path: string): boolean {
  return path.endsWith(".py") || path.endsWith(".pyi");
}

/** Folder names taken as import roots when they hold Python files (`src/`, `lib/` layouts). */
const ROOT_FOLDER_NAMES = new Set(["src", "lib"]);

const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;

/** True when every dotted part of `name` is a Python identifier. */
export function isDottedName(name: string): boolean {
  return name !== "" && name.split(".").every((p) => IDENTIFIER.test(p));
}

/** `importlib.util.resolve_name`: `..x` in package `a.b.c` → `a.b.x`; `undefined` above the top. */
export function resolveRelativeName(name: string, pkg: string): string | undefined {
  const level = name.length - name.replace(/^\.+/, "").length;
  const rest = name.slice(level);
  const parts = pkg === "" ? [] : pkg.split(".");
  if (parts.length < level) return undefined;
  const base = parts.slice(0, parts.length - (level - 1));
  return [...base, ...(rest ? rest.split(".") : [])].join(".");
}

/** A module, package or namespace package found by {@link PythonLayout.findIn}. */
export interface FoundModule {
  kind: "module" | "package" | "namespace";
  /** The module file, or the package's `__init__.py`; absent for a namespace package. */
  file?: string;
  /** Folders searched for submodules (a package's folder; a namespace package's portions). */
  dirs: string[];
}

/** The result of searching a dotted name part by part. */
export interface FoundChain {
  /** One entry per part found, in order; shorter than the name when a part was not found. */
  found: FoundModule[];
}

/** Python module layout of one repository (see the module comment). Build with {@link pythonLayout}. */
export class PythonLayout {
  /** Whether a path is a file of the view (any kind; {@link isSource} adds the ending). */
  private readonly has: (path: string) => boolean;
  private readonly dirs: ReadonlySet<string>;
  /** Folders that hold Python files, directly or below. */
  private readonly pyDirs = new Set<string>();
  /** The import roots, `''` first, then by path. */
  readonly roots: readonly string[];
  /** {@link searchPath} per folder (the layout never changes once built). */
  private readonly searchPaths = new Map<string, string[]>();

  /**
   * @param project the files of the tree (`files`, any order) and a membership test over them (`has`).
   * @param dirs every folder that holds a file, directly or below (`foldersOf`).
   */
  constructor(project: Pick<ProjectView, "files" | "has">, dirs: ReadonlySet<string>) {
    this.has = project.has;
    this.dirs = dirs;
    // A folder's ancestors are walked once per run of its files (adjacent in a sorted list).
    let last: string | undefined;
    for (const f of project.files) {
      if (!isPythonFile(f)) continue;
      const dir = parentDir(f);
      if (dir === last) continue;
      last = dir;
      for (let d = dir; ; d = parentDir(d)) {
        if (this.pyDirs.has(d)) break;
        this.pyDirs.add(d);
        if (d === "") break;
      }
    }
    const roots = new Set<string>([""]);
    for (const d of this.pyDirs) {
      if (d === "") continue;
      const parent = parentDir(d);
      if (this.isPackage(d) && !this.isPackage(parent)) roots.add(parent);
      const base = d.slice(d.lastIndexOf("/") + 1);
      if (ROOT_FOLDER_NAMES.has(base) && !this.isPackage(d) && !this.isPackage(parent)) roots.add(d);
    }
    this.roots = [...roots].sort((a, b) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0));
  }

  /** True for a repository-relative Python source or stub file. */
  isSource(path: string): boolean {
    return isPythonFile(path) && this.has(path);
  }

  /** The `__init__.py` (else `__init__.pyi`) of a folder, when it is a package. The root is never a package. */
  initOf(dir: string): string | undefined {
    if (dir === "") return undefined;
    for (const ext of PYTHON_EXTENSIONS) {
      const f = `${dir}/__init__${ext}`;
      if (this.has(f)) return f;
    }
    return undefined;
  }

  isPackage(dir: string): boolean {
    return this.initOf(dir) !== undefined;
  }

  /** The highest folder of the `__init__.py` chain that holds `dir`, or `undefined` when `dir` is not a package. */
  topPackage(dir: string): string | undefined {
    if (!this.isPackage(dir)) return undefined;
    let top = dir;
    while (this.isPackage(parentDir(top))) top = parentDir(top);
    return top;
  }

  /** Roots that contain `dir` (or are it), deepest first. */
  private enclosingRoots(dir: string): string[] {
    return this.roots.filter((r) => isWithin(dir, r)).sort((a, b) => b.length - a.length);
  }

  /** The `sys.path` assumed for code in `file` (rule 2), without duplicates. */
  searchPath(file: string): readonly string[] {
    const dir = parentDir(file);
    const known = this.searchPaths.get(dir);
    if (known !== undefined) return known;
    const out: string[] = [];
    const add = (d: string) => {
      if (!out.includes(d)) out.push(d);
    };
    if (!this.isPackage(dir)) add(dir);
    for (const r of this.enclosingRoots(dir)) add(r);
    for (const r of this.roots) add(r);
    this.searchPaths.set(dir, out);
    return out;
  }

  /** Dotted name of `file` relative to folder `base` (`__init__` names the package), if importable. */
  private nameBelow(file: string, base: string): string | undefined {
    const rel = base === "" ? file : file.slice(base.length + 1);
    const parts = rel.split("/");
    const last = parts.pop() as string;
    const stem = last.slice(0, last.lastIndexOf("."));
    if (stem !== "__init__") parts.push(stem);
    const name = parts.join(".");
    return isDottedName(name) ? name : undefined;
  }

  /** The module name of `file` (rule 4), or `undefined` when it cannot be imported by name. */
  moduleName(file: string): string | undefined {
    const dir = parentDir(file);
    const top = this.topPackage(dir);
    if (top !== undefined) return this.nameBelow(file, parentDir(top));
    const root = this.enclosingRoots(dir)[0] ?? "";
    return this.nameBelow(file, root);
  }

  /**
   * Every name under which `file` can be imported: its module name, the names below each root that
   * contains it, and, outside packages, its bare stem (imported by a script next to it).
   */
  moduleNames(file: string): string[] {
    const names = new Set<string>();
    const own = this.moduleName(file);
    if (own !== undefined) names.add(own);
    const dir = parentDir(file);
    if (this.topPackage(dir) === undefined) {
      for (const r of this.enclosingRoots(dir)) {
        const n = this.nameBelow(file, r);
        if (n !== undefined) names.add(n);
      }
      const n = this.nameBelow(file, dir);
      if (n !== undefined) names.add(n);
    }
    return [...names];
  }

  /** The package that relative imports in `file` start from (`pkg` for `pkg/m.py` and `pkg/__init__.py`). */
  packageOf(file: string): string | undefined {
    const name = this.moduleName(file);
    if (name === undefined) return undefined;
    if (/\/__init__\.pyi?$/.test(file)) return name;
    const i = name.lastIndexOf(".");
    return i < 0 ? "" : name.slice(0, i);
  }

  /**
   * Finds one name part in the given folders (rule 3, one `FileFinder` step per folder):
   * package, then module file, then namespace portion.
   */
  findIn(locations: readonly string[], part: string): FoundModule | undefined {
    const portions: string[] = [];
    for (const loc of locations) {
      const base = loc === "" ? part : `${loc}/${part}`;
      const init = this.initOf(base);
      if (init !== undefined) return { kind: "package", file: init, dirs: [base] };
      for (const ext of PYTHON_EXTENSIONS) {
        if (this.has(base + ext)) return { kind: "module", file: base + ext, dirs: [] };
      }
      if (this.dirs.has(base)) portions.push(base);
    }
    return portions.length > 0 ? { kind: "namespace", dirs: portions } : undefined;
  }

  /** Searches a dotted name part by part, starting in `locations` (rule 3). */
  findChain(parts: readonly string[], locations: readonly string[]): FoundChain {
    const found: FoundModule[] = [];
    let locs = locations;
    for (const part of parts) {
      const m = this.findIn(locs, part);
      if (m === undefined) break;
      found.push(m);
      if (m.kind === "module") break;
      locs = m.dirs;
    }
    return { found };
  }

  /** The package found at folder `dir` itself (for `from . import x`). */
  packageAt(dir: string): FoundModule {
    const init = this.initOf(dir);
    return init !== undefined ? { kind: "package", file: init, dirs: [dir] } : { kind: "namespace", dirs: [dir] };
  }
}

/** The {@link PythonLayout} of a project view, built once per view. */
export function pythonLayout(project: ProjectView): PythonLayout {
  return memoize(project, "python-layout", () => new PythonLayout(project, foldersOf(project)));
}
