/**
 * JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`) with tree-sitter-javascript 0.25 (JSX included).
 * Extraction is shared with TypeScript (`js-family.ts`), resolution too (`js-resolve.ts`; a
 * `jsconfig.json` is read like a `tsconfig.json`).
 */
import type { LanguageSpec } from "./language.js";
import { jsFamilyParts } from "./typescript.js";

/** JavaScript, with JSX. */
export const javascript: LanguageSpec = {
  id: "javascript",
  extensions: [".js", ".jsx", ".mjs", ".cjs"],
  wasm: "tree-sitter-javascript/tree-sitter-javascript.wasm",
  sample: "const x = require('./x');\nexport function f() { return <a />; }\n",
  ...jsFamilyParts,
};
