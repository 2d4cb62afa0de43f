/**
 * Swift: the name uses and import bindings of one file, for `find_references` (tree-sitter-swift
 * as prebuilt by tree-sitter-wasms; modules per The Swift Programming Language, "Access Control":
 * the declarations of a module are visible in all of its files), walked by `table-references.ts`.
 *
 * - **Bindings**: `import M` makes the top-level declarations of SwiftPM target `M` visible (a
 *   wildcard); the files of the file's own target are visible without import (`sharedScope` of
 *   `swift.ts`).
 * - **Uses**: names, calls (`call`; `T(…)` of a type too), navigation `a.b.c`, types (`type`:
 *   annotations, return and parameter types, `is`/`as` types, the `T` of `extension T`), supertypes
 *   and protocols (`inherit`).
 *   Declared names, argument labels, strings (their `\(…)` parts are walked) and comments give none.
 * - **Locals**: parameters, `let`/`var` in function bodies, `for` and closure parameters, `$0`.
 * - **Members**: `self.m` and a bare `m` inside a type or an `extension T` resolve in the type first
 *   (members declared in extensions in any file are found: `ReferenceRules.membersAnywhere`);
 *   `x.m` where `x` is annotated `x: T` or bound to `T(…)` resolves in `T`; a literal initial value
 *   gives its standard type (`let s = "x"` → `String`, `1` → `Int`, `1.5` → `Double`, `true` → `Bool`).
 * - **Types from outside the repository**: `x.m` where `x` is of such a type (`n: String`) is the
 *   member `m` a repository `extension String` declares, in any file (`ReferenceRules.outsideTypeMembers`),
 *   else no use.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, ReferenceRules } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { capitalisedCallType, extractTableReferences, type NodeRole, type ReferenceGrammar } from "./table-references.js";
import { namedChildren } from "./syntax.js";

const SKIP = new Set([
  "comment", "multiline_comment", "line_string_literal_content", "string_content", "integer_literal", "real_literal", "boolean_literal",
  "import_declaration", "modifiers", "value_binding_pattern", "value_argument_label", "external_name", "type_parameters",
  "line_str_text", "multi_line_str_text", "str_escaped_char", "special_literal",
]);

/** The standard-library type a literal initial value gives a variable (`let s = "x"` is a `String`). */
const LITERAL_TYPES: Readonly<Record<string, string[]>> = {
  line_string_literal: ["String"],
  multi_line_string_literal: ["String"],
  raw_string_literal: ["String"],
  integer_literal: ["Int"],
  real_literal: ["Double"],
  boolean_literal: ["Bool"],
};

const FUNCTIONS = new Set(["function_declaration", "init_declaration", "deinit_declaration", "subscript_declaration", "protocol_function_declaration"]);

function kids(node: SyntaxNode, ...except: (SyntaxNode | null | undefined)[]): SyntaxNode[] {
  const ids = new Set(except.filter((e): e is SyntaxNode => e !== null && e !== undefined).map((e) => e.id));
  return namedChildren(node).filter((k) => !ids.has(k.id));
}

function isTypeNode(node: SyntaxNode): boolean {
  return node.type === "user_type" || node.type === "optional_type" || node.type === "array_type" || node.type === "dictionary_type" || node.type === "function_type" || node.type === "tuple_type";
}

/** The bound names of a `pattern`. */
function patternNames(node: SyntaxNode | null): string[] {
  if (node === null) return [];
  if (node.type === "simple_identifier") return [node.text];
  const bound = node.childForFieldName("bound_identifier");
  if (bound !== null) return [bound.text];
  return namedChildren(node).flatMap((k) => (k.type === "pattern" || k.type === "simple_identifier" ? patternNames(k) : []));
}

const grammar: ReferenceGrammar = {
  classify(node): NodeRole | undefined {
    if (SKIP.has(node.type)) return { role: "skip" };
    if (node.type === "class_declaration" || node.type === "protocol_declaration") {
      const nameNode = node.childForFieldName("name");
      // `extension T` is written as a class declaration whose name is a type: its members are T's
      // (`extension A.B` → `A.B`, as `swift.ts` names their container), and T is a `type` use.
      const extension = node.childForFieldName("declaration_kind")?.text === "extension";
      const path = nameNode === null ? undefined : grammar.path(nameNode);
      const name = nameNode === null ? undefined : extension && path !== undefined ? path.join(".") : (path?.pop() ?? nameNode.text);
      const bases = namedChildren(node).filter((k) => k.type === "inheritance_specifier").flatMap((k) => namedChildren(k));
      const body = namedChildren(node).filter((k) => k.type === "class_body" || k.type === "enum_class_body" || k.type === "protocol_body");
      const types = namedChildren(node).filter((k) => k.type === "type_constraints" || k.type === "attribute");
      if (extension && nameNode !== null) types.unshift(nameNode);
      return { role: "class", name, bases, types, body };
    }
    if (FUNCTIONS.has(node.type)) {
      const name = node.childForFieldName("name");
      const params = namedChildren(node)
        .filter((k) => k.type === "parameter")
        .map((p) => {
          const ids = p.childrenForFieldName("name").filter((k): k is SyntaxNode => k !== null);
          const id = ids.find((k) => k.type === "simple_identifier");
          const type = ids.find((k) => isTypeNode(k)) ?? null;
          return { name: id?.text, type: type?.type === "optional_type" ? (type.childForFieldName("wrapped") ?? type) : type, rest: [] };
        });
      const defaults = namedChildren(node).filter((k) => k.type !== "parameter" && k.type !== "function_body" && !isTypeNode(k) && k.id !== name?.id && !SKIP.has(k.type) && k.type !== "attribute");
      const types = namedChildren(node).filter((k) => isTypeNode(k) && k.id !== name?.id);
      const body = [...namedChildren(node).filter((k) => k.type === "function_body"), ...defaults];
      const fname = node.type === "init_declaration" ? "init" : name?.type === "simple_identifier" ? name.text : undefined;
      return { role: "function", name: fname, params, types, body };
    }
    switch (node.type) {
      case "lambda_literal": {
        const type = node.childForFieldName("type");
        const names = type === null ? ["$0", "$1", "$2"] : namedChildren(type).flatMap((t) => (t.type === "lambda_function_type_parameters" ? namedChildren(t) : [])).map((p) => p.childForFieldName("name")?.text ?? namedChildren(p)[0]?.text ?? "");
        return { role: "lambda", params: names, body: kids(node, type) };
      }
      case "property_declaration": {
        const names = node.childrenForFieldName("name").flatMap((n) => patternNames(n));
        const annotation = namedChildren(node).find((k) => k.type === "type_annotation");
        let type = annotation?.childForFieldName("name") ?? null;
        if (type?.type === "optional_type") type = type.childForFieldName("wrapped") ?? type;
        const values = kids(node, annotation, ...node.childrenForFieldName("name"));
        return { role: "variable", names, type, values: annotation === undefined ? values : [...values] };
      }
      case "for_statement": {
        const item = node.childForFieldName("item");
        return { role: "variable", names: patternNames(item), type: null, values: kids(node, item) };
      }
      case "call_expression": {
        const [callee, ...rest] = namedChildren(node);
        return callee === undefined ? undefined : { role: "call", callee, rest };
      }
      case "simple_identifier":
      case "navigation_expression":
      case "user_type":
      case "self_expression":
      case "super_expression":
        return { role: "path" };
      case "type_annotation":
      case "optional_type":
      case "array_type":
      case "dictionary_type":
      case "type_arguments":
        return { role: "type", nodes: namedChildren(node) };
      case "value_argument": {
        const v = node.childForFieldName("value");
        return v === null ? undefined : { role: "parts", values: [v] };
      }
      case "enum_entry":
        return { role: "parts", values: namedChildren(node).filter((k) => k.type !== "simple_identifier") };
      case "typealias_declaration": {
        const name = node.childForFieldName("name");
        return { role: "parts", types: kids(node, name), values: [] };
      }
      default:
        return undefined;
    }
  },

  path(node) {
    switch (node.type) {
      case "simple_identifier":
        return [node.text.replace(/`/g, "")];
      case "self_expression":
      case "super_expression":
        return ["this"];
      case "user_type": {
        const ids = namedChildren(node).filter((k) => k.type === "type_identifier");
        return ids.length === 0 ? undefined : ids.map((k) => k.text);
      }
      case "navigation_expression": {
        const target = node.childForFieldName("target");
        const suffix = node.childForFieldName("suffix");
        const name = suffix?.childForFieldName("suffix");
        if (name === null || name === undefined || name.type !== "simple_identifier") return undefined;
        const head = target === null ? undefined : grammar.path(target);
        return head === undefined ? ["", name.text] : [...head, name.text];
      }
      default:
        return undefined;
    }
  },

  lastPart(node) {
    if (node.type === "navigation_expression") return node.childForFieldName("suffix")?.childForFieldName("suffix") ?? node;
    if (node.type === "user_type") return namedChildren(node).filter((k) => k.type === "type_identifier").pop() ?? node;
    return node;
  },

  isType: (node) => node.type === "user_type",

  valueType: (value) => LITERAL_TYPES[value.type] ?? capitalisedCallType(value, grammar.path),

  typeArguments(node) {
    return node.type === "user_type" ? namedChildren(node).filter((k) => k.type === "type_arguments") : [];
  },
};

/** Extracts {@link ReferenceFacts} from a Swift `source_file` (see the module comment). */
function extractSwiftReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();
  for (const node of namedChildren(root)) {
    if (node.type !== "import_declaration") continue;
    const id = namedChildren(node).find((k) => k.type === "identifier");
    const module = id === undefined ? undefined : namedChildren(id)[0]?.text;
    if (module !== undefined) c.bindings.push({ local: "*", specifier: module, member: "*", line: node.startPosition.row + 1 });
  }
  return extractTableReferences(root, grammar, c);
}

/** The reference rules of Swift (`swift.ts` adds the files of the same target as `sharedScope`). */
export const SWIFT_REFERENCE_RULES: ReferenceRules = {
  extract: (root) => extractSwiftReferences(root),
  membersAnywhere: true,
  outsideTypeMembers: true,
};
