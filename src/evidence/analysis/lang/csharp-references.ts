/**
 * C#: the name uses and `using` bindings of one file, for `find_references` (tree-sitter-c-sharp
 * 0.23 grammar; names per the C# language specification §7.6 "Namespace and type names" and §14.5
 * "Using directives"), walked by `table-references.ts` (locals, receivers, contexts as stated there).
 *
 * - **Bindings**: `using N;` makes the types of namespace `N` visible (a wildcard); so does a
 *   `global using N;` of any file of the project, in every file of it (`csharp.ts` `projectBindings`); a `using` inside a namespace (block or file-scoped) names `N` relative to the
 *   enclosing namespaces first (`using Wrappers;` in `namespace MediatR;` → `MediatR.Wrappers`,
 *   as `csharp.ts` resolves it); the file's own namespaces and each namespace enclosing them are
 *   visible too (code in `A.B` sees `A.B` and `A` without a `using`; nested blocks join their
 *   names). `using static` and alias directives bind nothing here.
 * - **Qualified names**: `A.B.T` written in code resolves through namespace `A.B`
 *   (`ReferenceRules.modulePath`).
 * - **Uses**: names in expressions, invocations (`call`), `new T()` (`call`), declared types,
 *   type arguments, casts, `is`/`as` types, `typeof`, attributes (`type`), base lists (`inherit`).
 *   Declared names, strings, comments and named-argument names give none.
 * - **Members**: `this.m`, `base.m` and a bare `m` inside a type resolve in the type first; a
 *   partial type is found at every part its namespace's files declare, so its members are looked
 *   up in each part (the base list of one part is not applied to members used in another). A
 *   member of a predefined type (`decimal.Round(…)`, `string.Join(…)`) is a member of that type,
 *   which is outside the repository, not of a receiver of unknown type. The variable of `foreach
 *   (var x in items)` over a local, parameter, field or property declared `T[]` or a generic
 *   collection of `T` (`List<T>`, `IEnumerable<T>`, … {@link COLLECTIONS}; also `new T[n]`, `new
 *   List<T>()`) is a `T`.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, ReferenceRules } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { extractTableReferences, type NodeRole, type ReferenceGrammar } from "./table-references.js";
import { allChildren, namedChildren } from "./syntax.js";

const SKIP = new Set([
  "comment", "string_literal", "verbatim_string_literal", "raw_string_literal", "character_literal", "integer_literal",
  "real_literal", "boolean_literal", "null_literal", "predefined_type", "implicit_type", "modifier", "using_directive",
  "string_content", "interpolated_verbatim_string_text", "interpolated_raw_string_text", "extern_alias_directive",
  "preprocessor_call", "preproc_region", "preproc_endregion", "preproc_pragma", "type_parameter_list", "accessor_list_empty",
]);

const TYPES = new Set(["class_declaration", "struct_declaration", "interface_declaration", "record_declaration", "record_struct_declaration", "enum_declaration"]);
const FUNCTIONS = new Set(["method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration", "conversion_operator_declaration", "local_function_statement"]);
const TYPE_ONLY = new Set(["type_argument_list", "array_type", "nullable_type", "pointer_type", "tuple_type", "ref_type", "typeof_expression", "default_expression", "sizeof_expression"]);

/**
 * Generic collections of .NET whose enumerator yields their one type argument (`System.Collections.Generic`,
 * `.ObjectModel`, `.Concurrent`, `.Immutable`, `System.Span<T>`, `IAsyncEnumerable<T>` for `await
 * foreach`: https://learn.microsoft.com/dotnet/api/system.collections.generic.ienumerable-1 lists
 * the implementers); `foreach` takes its variable's type from the enumerator's `Current` (C#
 * language specification §13.9.5 "The foreach statement"), for an array its element type.
 */
const COLLECTIONS = new Set([
  "IEnumerable", "ICollection", "IList", "IReadOnlyCollection", "IReadOnlyList", "ISet", "IReadOnlySet", "List", "HashSet",
  "SortedSet", "LinkedList", "Queue", "Stack", "Collection", "ReadOnlyCollection", "ObservableCollection", "ConcurrentBag",
  "ConcurrentQueue", "ConcurrentStack", "BlockingCollection", "ImmutableArray", "ImmutableList", "ImmutableHashSet",
  "ImmutableSortedSet", "ImmutableQueue", "ImmutableStack", "IImmutableList", "IImmutableSet", "Span", "ReadOnlySpan",
  "Memory", "ReadOnlyMemory", "IAsyncEnumerable",
]);

function kids(node: SyntaxNode, ...except: (SyntaxNode | null | undefined)[]): SyntaxNode[] {
  const ids = new Set(except.filter((e): e is SyntaxNode => e !== null && e !== undefined).map((e) => e.id));
  return namedChildren(node).filter((k) => !ids.has(k.id));
}

function paramsOf(list: SyntaxNode | null): { name: string | undefined; type: SyntaxNode | null; rest: SyntaxNode[] }[] {
  if (list === null) return [];
  return namedChildren(list)
    .filter((p) => p.type === "parameter")
    .map((p) => {
      const name = p.childForFieldName("name");
      const type = p.childForFieldName("type");
      return { name: name?.text, type, rest: kids(p, name, type).filter((k) => k.type !== "modifier" && k.type !== "attribute_list") };
    });
}

const grammar: ReferenceGrammar = {
  classify(node): NodeRole | undefined {
    if (SKIP.has(node.type)) return { role: "skip" };
    if (TYPES.has(node.type)) {
      const name = node.childForFieldName("name");
      const bases = namedChildren(node).filter((k) => k.type === "base_list").flatMap((b) => namedChildren(b));
      const types = namedChildren(node).filter((k) => k.type === "attribute_list" || k.type === "type_parameter_constraints_clause");
      const body = namedChildren(node).filter((k) => k.type === "declaration_list" || k.type === "enum_member_declaration_list" || k.type === "parameter_list");
      return { role: "class", name: name?.text, bases, types, body };
    }
    if (FUNCTIONS.has(node.type)) {
      const name = node.childForFieldName("name");
      const params = node.childForFieldName("parameters");
      const body = namedChildren(node).filter((k) => k.type === "block" || k.type === "arrow_expression_clause" || k.type === "constructor_initializer");
      const types = kids(node, name, params, ...body).filter((k) => k.type !== "modifier" && k.type !== "type_parameter_list");
      return { role: "function", name: node.type === "local_function_statement" ? undefined : name?.text, params: paramsOf(params), types, body };
    }
    switch (node.type) {
      case "namespace_declaration":
      case "file_scoped_namespace_declaration":
        return { role: "parts", values: kids(node, node.childForFieldName("name")) };
      case "lambda_expression":
      case "anonymous_method_expression": {
        const params = node.childForFieldName("parameters") ?? namedChildren(node).find((k) => k.type === "parameter_list" || k.type === "implicit_parameter") ?? null;
        const names = params === null ? [] : params.type === "implicit_parameter" || params.type === "identifier" ? [params.text] : paramsOf(params).map((p) => p.name ?? "");
        const types = params === null || params.type !== "parameter_list" ? [] : paramsOf(params).flatMap((p) => (p.type === null ? [] : [p.type]));
        return { role: "lambda", params: names, body: [...types, ...kids(node, params)] };
      }
      case "variable_declaration": {
        const type = node.childForFieldName("type");
        const decls = namedChildren(node).filter((k) => k.type === "variable_declarator");
        return { role: "variable", names: decls.map((d) => d.childForFieldName("name")?.text ?? ""), type, values: decls.flatMap((d) => kids(d, d.childForFieldName("name"))) };
      }
      case "property_declaration":
      case "event_declaration": {
        const name = node.childForFieldName("name");
        const type = node.childForFieldName("type");
        return { role: "variable", names: [name?.text ?? ""], type, values: kids(node, name, type).filter((k) => k.type !== "modifier") };
      }
      case "parameter": {
        const name = node.childForFieldName("name");
        const type = node.childForFieldName("type");
        return { role: "variable", names: [name?.text ?? ""], type, values: kids(node, name, type).filter((k) => k.type !== "modifier") };
      }
      case "foreach_statement": {
        const left = node.childForFieldName("left");
        const type = node.childForFieldName("type");
        const right = node.childForFieldName("right");
        const out: NodeRole = { role: "variable", names: left?.type === "identifier" ? [left.text] : [], type: type?.type === "implicit_type" ? null : type, values: kids(node, left, type) };
        return right === null ? out : { ...out, elementOf: right };
      }
      case "declaration_pattern":
      case "catch_declaration": {
        const name = node.childForFieldName("name");
        const type = node.childForFieldName("type");
        return { role: "variable", names: name === null ? [] : [name.text], type, values: [] };
      }
      case "invocation_expression": {
        const fn = node.childForFieldName("function");
        return fn === null ? undefined : { role: "call", callee: fn, rest: kids(node, fn) };
      }
      case "object_creation_expression": {
        const type = node.childForFieldName("type");
        return type === null ? undefined : { role: "new", type, rest: kids(node, type) };
      }
      case "identifier":
      case "member_access_expression":
      case "qualified_name":
      case "generic_name":
      case "this_expression":
        return { role: "path" };
      case "attribute": {
        const name = node.childForFieldName("name");
        return { role: "parts", types: name === null ? [] : [name], values: kids(node, name) };
      }
      case "cast_expression":
      case "as_expression":
      case "is_expression": {
        const type = node.childForFieldName("type") ?? node.childForFieldName("right");
        return { role: "parts", types: type === null ? [] : [type], values: kids(node, type) };
      }
      case "enum_member_declaration":
      case "argument":
      case "labeled_statement":
      case "goto_statement":
        return { role: "parts", values: kids(node, node.childForFieldName("name")).filter((k) => node.type !== "goto_statement" && !(node.type === "labeled_statement" && k.type === "identifier")) };
      case "name_colon":
        return { role: "skip" };
      default:
        return TYPE_ONLY.has(node.type) ? { role: "type", nodes: namedChildren(node) } : undefined;
    }
  },

  path(node) {
    switch (node.type) {
      case "identifier":
        return [node.text.replace(/^@/, "")];
      case "this_expression":
        return ["this"];
      case "generic_name":
        return [namedChildren(node)[0]?.text ?? node.text];
      case "qualified_name": {
        const q = node.childForFieldName("qualifier");
        const n = node.childForFieldName("name");
        const head = q === null ? undefined : grammar.path(q);
        const tail = n === null ? undefined : grammar.path(n);
        return head === undefined || tail === undefined ? undefined : [...head, ...tail];
      }
      case "member_access_expression": {
        const n = node.childForFieldName("name");
        const tail = n === null ? undefined : grammar.path(n);
        if (tail === undefined) return undefined;
        const e = node.childForFieldName("expression");
        if (e === null) {
          const first = allChildren(node)[0];
          return first?.type === "this" || first?.type === "base" ? ["this", ...tail] : ["", ...tail];
        }
        // `this.m`, `base.m`: the grammar gives the keyword as the `expression` field (an unnamed `this`/`base` node).
        if (e.type === "base_expression" || e.type === "this" || e.type === "base") return ["this", ...tail];
        const head = grammar.path(e);
        return head === undefined ? ["", ...tail] : [...head, ...tail];
      }
      default:
        return undefined;
    }
  },

  lastPart(node) {
    if (node.type === "member_access_expression" || node.type === "qualified_name") {
      const n = node.childForFieldName("name");
      return n === null ? node : grammar.lastPart(n);
    }
    return node;
  },

  valueType(value) {
    // A predefined type written as a receiver (`decimal.Round(…)`, `string.Join(…)`) is that type,
    // which lies outside the repository: its members are not the target's.
    if (value.type === "predefined_type") return [value.text];
    if (value.type !== "object_creation_expression") return undefined;
    const t = value.childForFieldName("type");
    return t === null ? undefined : grammar.path(t);
  },

  elementType(type) {
    switch (type.type) {
      case "array_type": {
        const element = type.childForFieldName("type");
        return element === null ? undefined : grammar.path(element);
      }
      case "nullable_type":
      case "array_creation_expression":
      case "object_creation_expression": {
        const inner = type.type === "nullable_type" ? namedChildren(type)[0] : type.childForFieldName("type");
        return inner === undefined || inner === null ? undefined : grammar.elementType?.(inner);
      }
      case "qualified_name": {
        const name = type.childForFieldName("name");
        return name === null ? undefined : grammar.elementType?.(name);
      }
      case "generic_name": {
        const [name, args] = namedChildren(type);
        const list = args?.type === "type_argument_list" ? namedChildren(args) : [];
        return name !== undefined && COLLECTIONS.has(name.text) && list.length === 1 ? grammar.path(list[0] as SyntaxNode) : undefined;
      }
      default:
        return undefined;
    }
  },

  typeArguments(node) {
    const out: SyntaxNode[] = [];
    for (let n: SyntaxNode | null = node, i = 0; n !== null && i < 32; i++) {
      if (n.type === "generic_name") out.push(...namedChildren(n).filter((k) => k.type === "type_argument_list"));
      n = n.type === "member_access_expression" || n.type === "qualified_name" ? n.childForFieldName("name") : null;
    }
    return out;
  },
};

/** Extracts {@link ReferenceFacts} from a tree-sitter-c-sharp `compilation_unit` (see the module comment). */
function extractCsharpReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();
  const namespaces = new Set<string>();
  // Each node with the namespace parts around its children; a file-scoped namespace extends them for the nodes after it.
  const stack: { node: SyntaxNode; spaces: string[] }[] = [{ node: root, spaces: [] }];
  for (let steps = 0; stack.length > 0 && steps < 10_000; steps++) {
    const { node: n, spaces } = stack.pop() as { node: SyntaxNode; spaces: string[] };
    let here = spaces;
    for (const k of namedChildren(n)) {
      if (k.type === "using_directive") {
        const all = allChildren(k);
        if (k.childForFieldName("name") !== null || all.some((x) => x.type === "static")) continue;
        const target = namedChildren(k).find((x) => x.type === "qualified_name" || x.type === "identifier");
        const path = target === undefined ? undefined : grammar.path(target);
        // A using inside a namespace is read relative to it first (`csharp.ts` resolves `ImportRef.scope`).
        if (path !== undefined) c.bindings.push({ local: "*", specifier: path.join("."), member: "*", line: k.startPosition.row + 1, ...(here.length > 0 ? { scope: [...here] } : {}) });
      } else if (k.type === "namespace_declaration" || k.type === "file_scoped_namespace_declaration") {
        const name = k.childForFieldName("name");
        const path = name === null ? undefined : grammar.path(name);
        const inner = path === undefined ? here : [...here, ...path];
        for (let i = inner.length; i >= 1; i--) namespaces.add(inner.slice(0, i).join("."));
        if (k.type === "file_scoped_namespace_declaration") here = inner;
        const body = k.childForFieldName("body");
        if (body !== null) stack.push({ node: body, spaces: inner });
      }
    }
  }
  for (const ns of namespaces) c.bindings.push({ local: "*", specifier: ns, member: "*", line: 1 });
  return extractTableReferences(root, grammar, c);
}

/** The reference rules of C# (`csharp.ts`). */
export const CSHARP_REFERENCE_RULES: ReferenceRules = {
  extract: (root) => extractCsharpReferences(root),
  modulePath: (parts) => (parts.length > 0 ? parts.join(".") : undefined),
};
