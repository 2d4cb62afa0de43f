/**
 * TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts`) and TSX (`.tsx`) with the two grammars of
 * tree-sitter-typescript 0.23. Extraction is shared with JavaScript (`js-family.ts`); resolution
 * follows `js-resolve.ts` (tsconfig `paths`/`baseUrl`/`extends`, ESM `.js` → `.ts`, `index` files,
 * workspace packages' `exports`/`main`).
 */
import type { LanguageSpec } from "./language.js";
import { extractJsFamily } from "./js-family.js";
import { jsImporterHints, jsImporterNameHints, jsResolver } from "./js-resolve.js";
import { extractJsReferences } from "./js-references.js";

/** Functions every JS-family language module shares. */
export const jsFamilyParts = {
  family: "js",
  extract: (root) => extractJsFamily(root),
  resolve: (ref, fromFile, project) =>
    ref.flags?.includes("unresolved")
      ? Promise.resolve({ files: [], module: ref.specifier, external: false, unresolved: true })
      : jsResolver(project).resolve(ref.specifier, fromFile),
  importerHints: jsImporterHints,
  importerNameHints: jsImporterNameHints,
  references: { extract: (root) => extractJsReferences(root), constructorName: "constructor" },
} satisfies Partial<LanguageSpec>;

/** TypeScript (`.ts`, `.mts`, `.cts`, declaration files). */
export const typescript: LanguageSpec = {
  id: "typescript",
  extensions: [".ts", ".mts", ".cts"],
  wasm: "tree-sitter-typescript/tree-sitter-typescript.wasm",
  sample: "import type { A } from './a.js';\nexport interface I { x: number }\n",
  ...jsFamilyParts,
};

/** TSX (`.tsx`). */
export const tsx: LanguageSpec = {
  id: "tsx",
  extensions: [".tsx"],
  wasm: "tree-sitter-typescript/tree-sitter-tsx.wasm",
  sample: "export const App = () => <div className=\"x\">hi</div>;\n",
  ...jsFamilyParts,
};
