/**
 * Kotlin: the name uses and import bindings of one file, for `find_references`
 * (@tree-sitter-grammars/tree-sitter-kotlin 1.1 grammar; packages and imports per
 * https://kotlinlang.org/docs/packages.html), walked by `table-references.ts` (locals, receivers,
 * contexts as stated there).
 *
 * - **Bindings**: `import a.b.C` binds `C` (or its `as` alias) to the top-level declaration `C` of
 *   package `a.b` (a nested `a.b.C.D` to member `D` of `C`); `import a.b.*` is a wildcard. The
 *   declarations of the file's own package are visible without import (`sharedScope` of
 *   `kotlin.ts`). A fully qualified `a.b.C` in code resolves through package `a.b`. The path
 *   before an imported member or nested type (`import a.C.m`, `import a.C.Companion.m`, `import
 *   a.C.Inner`, `import a.C.*`) is an `import` use of `C` too.
 * - **Companions**: `kotlin.ts` files a companion's members under the enclosing class; the
 *   companion (`C.Companion`, or `C.Factory` for `companion object Factory`) is a class whose base
 *   is `C` (a {@link ClassFact}), so `C.Factory.make()` and `import a.C.Factory.make` reach them.
 * - **Uses**: names, calls (`call`; `C(…)` of a class too), navigation `a.b.c`, types (`type`:
 *   declared types, type arguments, `is`/`as` types, annotations, also those of properties and
 *   parameters), supertypes (`inherit`),
 *   imports (`import`). Declared names, strings (their `${…}` templates are walked), comments and
 *   labels give none.
 * - **Locals**: function and constructor parameters, `val`/`var` in bodies, `for` variables, lambda
 *   parameters and the implicit `it`.
 * - **Type aliases**: `typealias A<…> = C<…>` is a class whose base is `C` (a {@link ClassFact}),
 *   so `A.m()` reaches `C`'s members and its companion's.
 * - **Members**: `this.m` and a bare `m` inside a class resolve in the class first (companion
 *   members belong to the class, as `kotlin.ts` reports them); `x.m` where `x` is declared `x: C`
 *   or bound to `C(…)` resolves in `C`.
 * - **Receivers of lambdas**: inside the trailing lambda of `with(x) {…}`, `x.run {…}` and
 *   `x.apply {…}` a bare name is first a member of `x` (`NodeRole` `call.receiver` of
 *   `table-references.ts`).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ClassFact, ReferenceFacts, ReferenceRules } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { capitalisedCallType, extractTableReferences, type NodeRole, type ReferenceGrammar } from "./table-references.js";
import { allChildren, namedChildren } from "./syntax.js";

const SKIP = new Set([
  "line_comment", "block_comment", "string_content", "number_literal", "character_literal", "package_header", "import",
  "label", "escape_sequence", "visibility_modifier", "inheritance_modifier", "member_modifier", "function_modifier",
  "property_modifier", "class_modifier", "parameter_modifier", "platform_modifier", "variance_modifier", "reification_modifier",
  "type_parameters", "type_constraints", "file_annotation", "shebang_line",
]);

const CLASSES = new Set(["class_declaration", "object_declaration", "companion_object"]);
const FUNCTIONS = new Set(["function_declaration", "secondary_constructor", "getter", "setter", "anonymous_function"]);
const TYPE_ONLY = new Set(["type_arguments", "type_projection", "nullable_type", "function_type", "parenthesized_type", "type_constraint"]);

function kids(node: SyntaxNode, ...except: (SyntaxNode | null | undefined)[]): SyntaxNode[] {
  const ids = new Set(except.filter((e): e is SyntaxNode => e !== null && e !== undefined).map((e) => e.id));
  return namedChildren(node).filter((k) => !ids.has(k.id));
}

/** A declared type of a parameter or variable (the child that is a type node). */
function declaredType(node: SyntaxNode): SyntaxNode | null {
  return namedChildren(node).find((k) => k.type === "user_type" || k.type === "nullable_type" || k.type === "function_type") ?? null;
}

/** The names a `variable_declaration` or `multi_variable_declaration` declares. */
function variableNames(node: SyntaxNode): string[] {
  if (node.type === "variable_declaration") return namedChildren(node).filter((k) => k.type === "identifier").slice(0, 1).map((k) => k.text);
  if (node.type === "multi_variable_declaration") return namedChildren(node).flatMap(variableNames);
  return [];
}

/** Scope functions whose lambda receives a value as `this` (Kotlin "Scope functions": `with`, `run`, `apply`). */
const RECEIVER_SCOPE = new Set(["run", "apply"]);

/**
 * The value a call's trailing lambda receives as `this`, from the callee: `x` of `with(x)` and of
 * `x.run`, `x.apply`; `undefined` for any other callee.
 */
function scopeReceiver(callee: SyntaxNode): SyntaxNode | undefined {
  if (callee.type === "call_expression") {
    const [name, args] = namedChildren(callee);
    const passed = args?.type === "value_arguments" ? namedChildren(args) : [];
    if (name?.type !== "identifier" || name.text !== "with" || passed.length !== 1) return undefined;
    return namedChildren(passed[0] as SyntaxNode)[0];
  }
  if (callee.type !== "navigation_expression") return undefined;
  const parts = namedChildren(callee);
  const last = parts[parts.length - 1];
  return parts.length === 2 && last?.type === "identifier" && RECEIVER_SCOPE.has(last.text) ? parts[0] : undefined;
}

function stripNullable(type: SyntaxNode | null): SyntaxNode | null {
  return type?.type === "nullable_type" ? (namedChildren(type)[0] ?? null) : type;
}

const grammar: ReferenceGrammar = {
  classify(node): NodeRole | undefined {
    if (SKIP.has(node.type)) return { role: "skip" };
    if (CLASSES.has(node.type)) {
      const name = node.childForFieldName("name");
      const specs = namedChildren(node).filter((k) => k.type === "delegation_specifiers").flatMap((d) => namedChildren(d));
      const bases: SyntaxNode[] = [];
      const args: SyntaxNode[] = [];
      for (const spec of specs) {
        for (const k of namedChildren(spec)) {
          if (k.type === "constructor_invocation") {
            const [t, ...rest] = namedChildren(k);
            if (t !== undefined) bases.push(t);
            args.push(...rest);
          } else if (k.type === "user_type") bases.push(k);
          else args.push(k);
        }
      }
      const types = namedChildren(node).filter((k) => k.type === "modifiers");
      const body = [...namedChildren(node).filter((k) => k.type === "class_body" || k.type === "enum_class_body" || k.type === "primary_constructor"), ...args];
      // A companion object's members belong to the enclosing class.
      return { role: "class", name: node.type === "companion_object" ? undefined : name?.text, bases, types, body };
    }
    if (FUNCTIONS.has(node.type)) {
      const name = node.childForFieldName("name");
      const params = namedChildren(node)
        .filter((k) => k.type === "function_value_parameters" || k.type === "parameter" || k.type === "parameter_with_optional_type")
        .flatMap((k) => (k.type === "function_value_parameters" ? namedChildren(k) : [k]))
        .filter((p) => p.type === "parameter" || p.type === "parameter_with_optional_type")
        .map((p) => {
          const id = namedChildren(p).find((k) => k.type === "identifier");
          const type = declaredType(p);
          return { name: id?.text, type: stripNullable(type), rest: kids(p, id, type) };
        });
      const defaults = namedChildren(node).filter((k) => k.type === "function_value_parameters").flatMap((k) => namedChildren(k).filter((d) => d.type !== "parameter"));
      const body = [...namedChildren(node).filter((k) => k.type === "function_body" || k.type === "block" || k.type === "constructor_delegation_call"), ...defaults];
      const types = namedChildren(node).filter((k) => k.type === "user_type" || k.type === "nullable_type" || k.type === "function_type" || k.type === "modifiers");
      const named = name !== null && name.text !== "" && node.type === "function_declaration" ? name.text : node.type === "secondary_constructor" ? "constructor" : undefined;
      return { role: "function", name: named, params, types, body };
    }
    switch (node.type) {
      case "anonymous_initializer":
        return { role: "function", name: undefined, params: [], types: [], body: namedChildren(node) };
      case "lambda_literal": {
        const params = namedChildren(node).find((k) => k.type === "lambda_parameters");
        const names = params === undefined ? ["it"] : namedChildren(params).flatMap(variableNames);
        return { role: "lambda", params: names, body: kids(node, params) };
      }
      case "property_declaration": {
        const decl = namedChildren(node).find((k) => k.type === "variable_declaration" || k.type === "multi_variable_declaration");
        const type = decl === undefined ? null : stripNullable(declaredType(decl));
        return { role: "variable", names: decl === undefined ? [] : variableNames(decl), type, values: kids(node, decl).filter((k) => k.type !== "type_parameters") };
      }
      case "class_parameter": {
        const id = namedChildren(node).find((k) => k.type === "identifier");
        const type = declaredType(node);
        return { role: "variable", names: id === undefined ? [] : [id.text], type: stripNullable(type), values: kids(node, id, type) };
      }
      case "for_statement": {
        const decl = namedChildren(node).find((k) => k.type === "variable_declaration" || k.type === "multi_variable_declaration");
        const type = decl === undefined ? null : stripNullable(declaredType(decl));
        return { role: "variable", names: decl === undefined ? [] : variableNames(decl), type, values: kids(node, decl) };
      }
      case "catch_block": {
        const id = namedChildren(node).find((k) => k.type === "identifier");
        const type = declaredType(node);
        return { role: "variable", names: id === undefined ? [] : [id.text], type, values: kids(node, id, type) };
      }
      case "call_expression": {
        const [callee, ...rest] = namedChildren(node);
        if (callee === undefined) return undefined;
        const receiver = rest.some((k) => k.type === "annotated_lambda") ? scopeReceiver(callee) : undefined;
        return receiver === undefined ? { role: "call", callee, rest } : { role: "call", callee, rest, receiver };
      }
      case "constructor_invocation": {
        const [type, ...rest] = namedChildren(node);
        return type === undefined ? undefined : { role: "new", type, rest };
      }
      case "identifier":
      case "navigation_expression":
      case "user_type":
      case "this_expression":
      case "super_expression":
        return { role: "path" };
      case "annotation": {
        const inv = namedChildren(node).find((k) => k.type === "constructor_invocation");
        if (inv === undefined) return { role: "type", nodes: namedChildren(node) };
        const [type, ...rest] = namedChildren(inv);
        return { role: "parts", types: type === undefined ? [] : [type], values: rest };
      }
      case "type_alias":
        return { role: "parts", types: kids(node, node.childForFieldName("type")).filter((k) => k.type !== "type_parameters" && k.type !== "modifiers"), values: [] };
      case "enum_entry":
        return { role: "parts", values: kids(node, namedChildren(node).find((k) => k.type === "identifier")) };
      case "value_argument": {
        // A named argument `name = value`: the name is the parameter's.
        const [first, ...rest] = namedChildren(node);
        const named = first?.type === "identifier" && rest.length > 0 && allChildren(node).some((k) => k.type === "=");
        return named ? { role: "parts", values: rest } : undefined;
      }
      case "is_expression":
      case "as_expression": {
        const right = node.childForFieldName("right") ?? namedChildren(node).find((k) => k.type === "user_type" || k.type === "nullable_type") ?? null;
        return { role: "parts", types: right === null ? [] : [right], values: kids(node, right) };
      }
      default:
        return TYPE_ONLY.has(node.type) ? { role: "type", nodes: namedChildren(node) } : undefined;
    }
  },

  path(node) {
    switch (node.type) {
      case "identifier":
        return [node.text.replace(/`/g, "")];
      case "this_expression":
      case "super_expression":
        return ["this"];
      case "user_type": {
        const ids = namedChildren(node).filter((k) => k.type === "identifier");
        return ids.length === 0 ? undefined : ids.map((k) => k.text.replace(/`/g, ""));
      }
      case "navigation_expression": {
        const parts = namedChildren(node);
        const last = parts[parts.length - 1];
        if (parts.length < 2 || last === undefined || last.type !== "identifier") return undefined;
        const head = grammar.path(parts[0] as SyntaxNode);
        return head === undefined ? ["", last.text] : [...head, last.text];
      }
      default:
        return undefined;
    }
  },

  lastPart(node) {
    if (node.type === "navigation_expression" || node.type === "user_type") {
      const ids = namedChildren(node).filter((k) => k.type === "identifier");
      return ids[ids.length - 1] ?? node;
    }
    return node;
  },

  isType: (node) => node.type === "user_type",

  valueType: (value) => capitalisedCallType(value, grammar.path),

  typeArguments(node) {
    return node.type === "user_type" ? namedChildren(node).filter((k) => k.type === "type_arguments") : [];
  },
};

/** Extracts {@link ReferenceFacts} from a Kotlin `source_file` (see the module comment). */
function extractKotlinReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();
  for (const node of namedChildren(root)) {
    if (node.type !== "import") continue;
    const children = allChildren(node);
    const name = children.find((k) => k.type === "qualified_identifier" || k.type === "identifier");
    if (name === undefined) continue;
    const written = name.type === "identifier" ? [name.text] : namedChildren(name).map((k) => k.text.replace(/`/g, ""));
    // `import a.C.Companion.m`: the members of an unnamed companion (called `Companion`, Kotlin
    // reference "Companion objects") are the enclosing class's (`kotlin.ts`), so the path skips it.
    const parts = written.filter((p, i) => p !== "Companion" || i === 0 || i === written.length - 1);
    const line = node.startPosition.row + 1;
    const nodes = name.type === "identifier" ? [name] : namedChildren(name);
    if (children.some((k) => k.type === "*")) {
      c.bindings.push({ local: "*", specifier: `${parts.join(".")}.*`, member: "*", line });
      // `import a.C.*` names class `C` (or package `a.C`: then the path names no definition).
      if (parts.length > 1) c.use(parts, nodes[nodes.length - 1] as SyntaxNode, "import");
      continue;
    }
    const last = parts[parts.length - 1] as string;
    const as = children.findIndex((k) => k.type === "as");
    const alias = as >= 0 ? children[as + 1]?.text : undefined;
    const lastNode = nodes[nodes.length - 1] as SyntaxNode;
    if (parts.length > 1) c.bind({ local: alias ?? last, specifier: `${parts.slice(0, -1).join(".")}.*`, member: last, line }, lastNode);
    // `import a.C.m`, `import a.C.Companion.m`, `import a.C.Inner`: the path before the imported name
    // names class `C` too (a package `a.b` of `import a.b.f` names no definition).
    if (parts.length > 2) c.use(parts.slice(0, -1), nodes[written.lastIndexOf(parts[parts.length - 2] as string, written.length - 2)] ?? lastNode, "import");
  }
  companionClasses(root, [], c.classes);
  aliasClasses(root, c.classes);
  return extractTableReferences(root, grammar, c);
}

/**
 * Adds a {@link ClassFact} for each top-level `typealias A<…> = C<…>` whose aliased type is a
 * class type (`user_type`; a function or nullable type names no class): `A` whose only base is
 * `C`, so a member reached through the alias (`A.m()`, a companion member `Iso.make()` with
 * `typealias Iso<S, A> = PIso<S, S, A, A>`) is looked up in `C`. Kotlin spec, "Type alias": the
 * alias is another name for its type (https://kotlinlang.org/spec/declarations.html#type-alias).
 * tree-sitter-kotlin gives the alias's name as the node's `type` field.
 */
function aliasClasses(root: SyntaxNode, out: ClassFact[]): void {
  for (const k of namedChildren(root)) {
    if (k.type !== "type_alias") continue;
    const name = k.childForFieldName("type")?.text.replace(/`/g, "");
    const aliased = namedChildren(k).filter((x) => x.type === "user_type").pop();
    const base = aliased === undefined ? undefined : grammar.path(aliased);
    if (name !== undefined && base !== undefined) out.push({ name, bases: [base] });
  }
}

/**
 * Adds a {@link ClassFact} for each companion object under `node` (`classes` are the enclosing
 * class names): `C.Companion` (unnamed) or `C.Factory` (`companion object Factory`), whose only
 * base is `C`. `kotlin.ts` files a companion's members under the enclosing class, so a member
 * reached through the companion's name (`C.Factory.make()`, `import a.C.Factory.make`) is looked
 * up in `C`.
 */
function companionClasses(node: SyntaxNode, chain: readonly string[], out: ClassFact[]): void {
  for (const k of namedChildren(node)) {
    if (k.type === "companion_object") {
      if (chain.length > 0) out.push({ name: [...chain, k.childForFieldName("name")?.text ?? "Companion"].join("."), bases: [[...chain]] });
    } else if (k.type === "class_declaration" || k.type === "object_declaration") {
      const name = k.childForFieldName("name")?.text;
      if (name !== undefined) companionClasses(k, [...chain, name], out);
      continue;
    }
    if (!FUNCTIONS.has(k.type)) companionClasses(k, chain, out);
  }
}

/** The reference rules of Kotlin (`kotlin.ts` adds the same-package files as `sharedScope`). */
export const KOTLIN_REFERENCE_RULES: ReferenceRules = {
  extract: (root) => extractKotlinReferences(root),
  modulePath: (parts) => (parts.length > 0 ? `${parts.join(".")}.*` : undefined),
  moduleIsDeclaration: true,
  membersAnywhere: true,
};
