/**
 * Ground truth for codecite's JS/TS import edges, from the TypeScript compiler API
 * (`typescript` 6.0): `ts.preProcessFile(text, readImportFiles = true, detectJavaScriptImports = true)`
 * finds the import specifiers of a file (static imports, `export … from`, `import x = require()`,
 * `require()`, `import()`), and `ts.resolveModuleName` resolves each under the compiler options of
 * the file's project: the nearest `tsconfig.json` (else `jsconfig.json`) below the root, parsed with
 * `ts.parseJsonConfigFileContent` (which follows `extends`); when that configuration does not
 * include the file but has `references`, the referenced project whose file list holds it.
 * `allowJs` is forced on (codecite resolves JavaScript files in every project); files without a
 * configuration use `module: esnext`, `moduleResolution: bundler`, `allowJs`, `resolveJsonModule`.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface TsGroundTruthImport {
  file: string;
  /** 1-based line of the specifier. */
  line: number;
  spec: string;
  /** Repository-relative file, `external` (a library or outside the root), or `unresolved`. */
  target: string;
}

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
};

interface Project {
  options: ts.CompilerOptions;
  fileNames: Set<string>;
  references: string[];
}

/**
 * Mimics a workspace install (npm/pnpm/yarn workspaces): a `node_modules/<name>` symbolic link at
 * the root for every `package.json` with a `name` among `files`, so that TypeScript can resolve
 * workspace packages by name. Writes into `root`: use it on scratch copies only.
 */
export function linkWorkspacePackages(root: string, files: readonly string[]): number {
  let n = 0;
  for (const f of files) {
    if (f !== "package.json" && !f.endsWith("/package.json")) continue;
    let name: unknown;
    try {
      name = (JSON.parse(fs.readFileSync(path.join(root, f), "utf8")) as { name?: unknown }).name;
    } catch {
      continue;
    }
    if (typeof name !== "string" || name === "" || name.includes("..")) continue;
    const link = path.join(root, "node_modules", ...name.split("/"));
    if (fs.existsSync(link)) continue;
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(root, path.dirname(f)), link, "dir");
    n++;
  }
  return n;
}

/** Runs the TypeScript ground truth over `files` (repository-relative) of `root`. */
export function tsGroundTruth(root: string, files: readonly string[]): TsGroundTruthImport[] {
  const realRoot = fs.realpathSync(root);
  const projects = new Map<string, Project | undefined>();
  const loadProject = (configPath: string): Project | undefined => {
    if (projects.has(configPath)) return projects.get(configPath);
    let project: Project | undefined;
    const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    if (read.config !== undefined) {
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
      project = {
        options: { ...parsed.options, allowJs: true },
        fileNames: new Set(parsed.fileNames.map((f) => path.resolve(f))),
        references: (parsed.projectReferences ?? []).map((r) => ts.resolveProjectReferencePath(r)),
      };
    }
    projects.set(configPath, project);
    return project;
  };
  const optionsFor = (abs: string): ts.CompilerOptions => {
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      for (const name of ["tsconfig.json", "jsconfig.json"]) {
        const candidate = path.join(dir, name);
        if (!fs.existsSync(candidate)) continue;
        const project = loadProject(candidate);
        if (project === undefined) return DEFAULT_OPTIONS;
        if (!project.fileNames.has(abs) && project.references.length > 0) {
          for (const ref of project.references) {
            const sub = fs.existsSync(ref) ? loadProject(ref) : undefined;
            if (sub?.fileNames.has(abs)) return sub.options;
          }
        }
        return project.options;
      }
      if (dir === realRoot || path.dirname(dir) === dir) return DEFAULT_OPTIONS;
    }
  };

  const out: TsGroundTruthImport[] = [];
  for (const file of files) {
    const abs = path.join(realRoot, file);
    let text: string;
    try {
      text = fs.readFileSync(abs, "utf8");
    } catch {
      continue;
    }
    const info = ts.preProcessFile(text, true, true);
    const options = optionsFor(abs);
    const source = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, false);
    for (const ref of info.importedFiles) {
      const line = source.getLineAndCharacterOfPosition(ref.pos).line + 1;
      const resolved = ts.resolveModuleName(ref.fileName, abs, options, ts.sys).resolvedModule;
      let target = "unresolved";
      if (resolved !== undefined) {
        const real = fs.realpathSync(resolved.resolvedFileName);
        const rel = path.relative(realRoot, real).split(path.sep).join("/");
        target = rel.startsWith("..") || path.isAbsolute(rel) || rel.split("/").includes("node_modules") ? "external" : rel;
      }
      out.push({ file, line, spec: ref.fileName, target });
    }
  }
  return out;
}
