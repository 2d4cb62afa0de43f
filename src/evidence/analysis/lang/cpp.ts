/**
 * C++: definitions (`c-family.ts`: classes, methods in class and out of line, namespaces,
 * templates, operators, plus everything C has) and `#include` edges (`c-includes.ts`) with the
 * tree-sitter-cpp 0.23 grammar. Handles C++ sources and every header ending, `.h` included (the
 * C++ grammar parses C declarations too; universal-ctags maps `.h` to C++ likewise).
 */
import type { LanguageSpec } from "./language.js";
import { cFamilySpec } from "./c.js";

/** The C++ language module (importer family `c`, shared with C). */
export const cpp: LanguageSpec = cFamilySpec({
  id: "cpp",
  extensions: [".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  wasm: "tree-sitter-cpp/tree-sitter-cpp.wasm",
  sample: '#include <vector>\n\nnamespace a {\nclass B {\n public:\n  int m() const { return 1; }\n};\n}  // namespace a\n',
});
