/**
 * PHP: the name uses and `use` bindings of one file, for `find_references` (tree-sitter-php 0.24;
 * name resolution per the PHP manual, "Namespaces: name resolution rules",
 * https://www.php.net/manual/en/language.namespaces.rules.php), walked by `table-references.ts`.
 *
 * - **Bindings**: `use A\B\C;`, `use A\B\C as D;` and grouped `use A\{B, C as D};` bind the last
 *   part (or the alias) to class `A\B\C`, found through the composer autoload maps (`php.ts`).
 *   Classes and functions of the file's own namespace need no `use` (`sharedScope` of `php.ts`).
 *   A fully qualified or qualified class name (`\A\B\C`, `B\C` below namespace `A`) binds its last
 *   part to that class when no `use` binds it. `use function` and `use const` bind nothing here.
 * - **Variables** (`$x`) are locals of their function (or of the file) and never a definition;
 *   `$this->m`, `self::m`, `static::m`, `parent::m` resolve in the enclosing class first;
 *   `$x->m` where `$x` is a parameter typed `C` or assigned `new C` resolves in `C`, and so does
 *   `$x->m` in the body of `if ($x instanceof C)` (also under `&&`). In a chain `$x->m()->n()`,
 *   `C::make()->n()`, each call is a use of its own (`m`, `make` are called methods), and `n` a
 *   member of a receiver of unknown type (the engine's `by_name` rule). A bare name
 *   (`f()`, `X`) is never a member of the enclosing class (PHP has no implicit `$this`): it is a
 *   function, constant or class of the namespace or the global one (`@fsockopen(…)` inside a
 *   method `fsockopen` is PHP's function). A method is named only by a call: `$this->m` without
 *   one is a property (`ReferenceRules.methodsOnlyCalled`).
 * - **Uses**: function calls, `new C` (`call`), `C::m()` (`call`), `C::X`, type declarations
 *   (`type`), `extends`/`implements`/trait `use` (`inherit`). Strings (their `{$…}` parts are
 *   walked), comments and inline HTML give none.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, ReferenceRules } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { extractTableReferences, type NodeRole, type ReferenceGrammar } from "./table-references.js";
import { allChildren, namedChildren } from "./syntax.js";

const SKIP = new Set([
  "comment", "string_content", "string_value", "integer", "float", "boolean", "null", "text", "php_tag", "text_interpolation",
  "visibility_modifier", "static_modifier", "final_modifier", "abstract_modifier", "readonly_modifier", "primitive_type",
  "namespace_definition", "namespace_use_declaration", "escape_sequence", "nowdoc", "heredoc_start", "heredoc_end", "use_declaration",
]);

/** Call expressions; one as the receiver of a member access ends the path there (`path`). */
const CALLS = new Set(["member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression", "function_call_expression"]);

const CLASSES = new Set(["class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"]);
const FUNCTIONS = new Set(["method_declaration", "function_definition", "anonymous_function", "arrow_function"]);

function kids(node: SyntaxNode, ...except: (SyntaxNode | null | undefined)[]): SyntaxNode[] {
  const ids = new Set(except.filter((e): e is SyntaxNode => e !== null && e !== undefined).map((e) => e.id));
  return namedChildren(node).filter((k) => !ids.has(k.id));
}

/** `$name` for a `variable_name` node. */
function variable(node: SyntaxNode | null): string | undefined {
  return node?.type === "variable_name" ? `$${node.text.replace(/^\$/, "")}` : undefined;
}

/** The `$x instanceof C` tests that hold when `cond` is true: itself, or either side of `&&` / `and`, in parentheses too. */
function instanceTests(cond: SyntaxNode): { name: string; type: SyntaxNode }[] {
  if (cond.type === "parenthesized_expression") return namedChildren(cond).flatMap(instanceTests);
  if (cond.type !== "binary_expression") return [];
  const left = cond.childForFieldName("left");
  const right = cond.childForFieldName("right");
  const op = cond.childForFieldName("operator")?.text.toLowerCase();
  if (left === null || right === null) return [];
  if (op === "&&" || op === "and") return [...instanceTests(left), ...instanceTests(right)];
  const name = variable(left);
  return op === "instanceof" && name !== undefined && (right.type === "name" || right.type === "qualified_name") ? [{ name, type: right }] : [];
}

const grammar: ReferenceGrammar = {
  classify(node): NodeRole | undefined {
    if (SKIP.has(node.type)) return { role: "skip" };
    if (CLASSES.has(node.type)) {
      const name = node.childForFieldName("name");
      const body = node.childForFieldName("body");
      const bases = namedChildren(node)
        .filter((k) => k.type === "base_clause" || k.type === "class_interface_clause")
        .flatMap((k) => namedChildren(k));
      // Traits a class uses (`use T;` in its body) are bases too.
      for (const u of body === null ? [] : namedChildren(body)) if (u.type === "use_declaration") bases.push(...namedChildren(u).filter((k) => k.type === "name" || k.type === "qualified_name"));
      const types = namedChildren(node).filter((k) => k.type === "attribute_list");
      return { role: "class", name: name?.text, bases, types, body: body === null ? [] : [body] };
    }
    if (FUNCTIONS.has(node.type)) {
      const name = node.childForFieldName("name");
      const list = node.childForFieldName("parameters");
      const params = (list === null ? [] : namedChildren(list)).map((p) => {
        const n = p.childForFieldName("name");
        const type = p.childForFieldName("type");
        return { name: variable(n), type, rest: kids(p, n, type).filter((k) => !SKIP.has(k.type)) };
      });
      // A closure's `use ($a, &$b)` names variables of the enclosing function.
      for (const u of namedChildren(node).filter((k) => k.type === "anonymous_function_use_clause")) {
        for (const v of namedChildren(u)) {
          const n = variable(v.type === "by_ref" ? (namedChildren(v)[0] ?? null) : v);
          if (n !== undefined) params.push({ name: n, type: null, rest: [] });
        }
      }
      const ret = node.childForFieldName("return_type");
      const body = node.childForFieldName("body");
      const types = [...(ret === null ? [] : [ret]), ...namedChildren(node).filter((k) => k.type === "attribute_list")];
      return { role: "function", name: node.type === "anonymous_function" || node.type === "arrow_function" ? undefined : name?.text, params, types, body: body === null ? [] : [body] };
    }
    switch (node.type) {
      case "assignment_expression": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        const v = variable(left);
        if (v === undefined || right === null) return undefined;
        return { role: "variable", names: [v], type: null, values: [right] };
      }
      case "property_declaration": {
        const type = node.childForFieldName("type");
        const values = namedChildren(node)
          .filter((k) => k.type === "property_element")
          .flatMap((e) => kids(e, e.childForFieldName("name")));
        return { role: "parts", types: type === null ? [] : [type], values: [...values, ...namedChildren(node).filter((k) => k.type === "attribute_list")] };
      }
      case "const_declaration":
        return { role: "parts", values: namedChildren(node).filter((k) => k.type === "const_element").flatMap((e) => namedChildren(e).slice(1)) };
      case "enum_case":
        return { role: "parts", values: kids(node, node.childForFieldName("name")) };
      case "foreach_statement":
      case "catch_clause": {
        const names: string[] = [];
        const body = node.childForFieldName("body");
        for (const k of namedChildren(node)) if (k.id !== body?.id) for (const v of [k, ...namedChildren(k)]) if (v.type === "variable_name") names.push(variable(v) as string);
        const type = node.type === "catch_clause" ? node.childForFieldName("type") : null;
        return { role: "variable", names, type, values: kids(node, type).filter((k) => k.type !== "variable_name") };
      }
      case "if_statement": {
        // `if ($x instanceof C …)`: `$x` is a `C` in the body (also under `&&`/`and`).
        const cond = node.childForFieldName("condition");
        const body = node.childForFieldName("body");
        const narrowed = cond === null ? [] : instanceTests(cond);
        if (narrowed.length === 0 || cond === null || body === null) return undefined;
        return { role: "narrow", condition: [cond], narrowed, body: [body], rest: kids(node, cond, body) };
      }
      case "function_call_expression": {
        const fn = node.childForFieldName("function");
        return fn === null ? undefined : { role: "call", callee: fn, rest: kids(node, fn) };
      }
      case "member_call_expression":
      case "nullsafe_member_call_expression":
      case "scoped_call_expression": {
        const args = node.childForFieldName("arguments");
        return { role: "call", callee: node, rest: args === null ? [] : [args] };
      }
      case "object_creation_expression": {
        const type = namedChildren(node).find((k) => k.type === "name" || k.type === "qualified_name");
        return type === undefined ? undefined : { role: "new", type, rest: kids(node, type) };
      }
      case "name":
      case "qualified_name":
      case "variable_name":
      case "member_access_expression":
      case "nullsafe_member_access_expression":
      case "class_constant_access_expression":
      case "scoped_property_access_expression":
      case "named_type":
        return { role: "path" };
      case "argument": {
        const name = node.childForFieldName("name");
        return name === null ? undefined : { role: "parts", values: kids(node, name) };
      }
      case "attribute": {
        const [name, ...rest] = namedChildren(node);
        return { role: "parts", types: name === undefined ? [] : [name], values: rest };
      }
      case "optional_type":
      case "union_type":
      case "intersection_type":
        return { role: "type", nodes: namedChildren(node) };
      default:
        return undefined;
    }
  },

  path(node) {
    switch (node.type) {
      case "name":
        return [node.text];
      case "qualified_name": {
        const last = namedChildren(node).filter((k) => k.type === "name").pop();
        return last === undefined ? undefined : [last.text];
      }
      case "named_type": {
        const inner = namedChildren(node)[0];
        return inner === undefined ? undefined : grammar.path(inner);
      }
      case "relative_scope":
        return ["this"];
      case "variable_name":
        return node.text === "$this" ? ["this"] : [variable(node) as string];
      case "member_call_expression":
      case "nullsafe_member_call_expression":
      case "member_access_expression":
      case "nullsafe_member_access_expression":
      case "scoped_call_expression":
      case "class_constant_access_expression":
      case "scoped_property_access_expression": {
        const kidsOf = namedChildren(node);
        const obj = node.childForFieldName("object") ?? node.childForFieldName("scope") ?? kidsOf[0] ?? null;
        const name = node.childForFieldName("name") ?? (node.type === "class_constant_access_expression" ? (kidsOf[1] ?? null) : null);
        if (name === null || (name.type !== "name" && name.type !== "variable_name")) return undefined;
        const last = name.type === "variable_name" ? name.text.replace(/^\$/, "") : name.text;
        // A call's result (`$a->m()->n()`, `C::make()->n()`) is no path part: the call is walked as its
        // own use, so `m` and `make` are called methods, and `n` is a member of a receiver of unknown type.
        const head = obj === null || CALLS.has(obj.type) ? undefined : grammar.path(obj);
        return head === undefined ? ["", last] : [...head, last];
      }
      default:
        return undefined;
    }
  },

  lastPart(node) {
    if (node.type === "class_constant_access_expression") return namedChildren(node)[1] ?? node;
    if (node.type === "qualified_name") return namedChildren(node).filter((k) => k.type === "name").pop() ?? node;
    return node.childForFieldName("name") ?? node;
  },

  isType: (node) => node.type === "named_type",

  valueType(node) {
    const value = node.type === "parenthesized_expression" ? (namedChildren(node)[0] ?? node) : node;
    if (value.type !== "object_creation_expression") return undefined;
    const t = namedChildren(value).find((k) => k.type === "name" || k.type === "qualified_name");
    return t === undefined ? undefined : grammar.path(t);
  },

  noImplicitSelf: true,
};

/** The fully qualified name (without leading `\`) of the namespace_name / qualified_name / name `node`. */
function written(node: SyntaxNode): string {
  return node.text.replace(/\s+/g, "").replace(/^\\/, "");
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-php `program` (see the module comment). */
function extractPhpReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();
  let namespace = "";
  const bound = new Set<string>();
  for (const node of namedChildren(root)) {
    if (node.type === "namespace_definition") {
      const name = node.childForFieldName("name");
      namespace = name === null ? "" : written(name);
    }
    if (node.type !== "namespace_use_declaration") continue;
    if (allChildren(node).some((k) => k.type === "function" || k.type === "const")) continue;
    const group = node.childForFieldName("body");
    const prefixNode = group === null ? undefined : namedChildren(node).find((k) => k.type === "namespace_name");
    const prefix = prefixNode === undefined ? "" : `${written(prefixNode)}\\`;
    const clauses = group === null ? namedChildren(node).filter((k) => k.type === "namespace_use_clause") : namedChildren(group).filter((k) => k.type === "namespace_use_clause");
    for (const clause of clauses) {
      const target = namedChildren(clause).find((k) => k.type === "qualified_name" || k.type === "name");
      if (target === undefined) continue;
      const fqn = `${prefix}${written(target)}`;
      const alias = clause.childForFieldName("alias")?.text;
      const last = fqn.slice(fqn.lastIndexOf("\\") + 1);
      bound.add(alias ?? last);
      c.bind({ local: alias ?? last, specifier: fqn, line: node.startPosition.row + 1 }, grammar.lastPart(target));
    }
  }
  // Qualified class names written in code (`\A\B\C`, `B\C`) bind their last part.
  const stack: SyntaxNode[] = [root];
  for (let steps = 0; stack.length > 0 && steps < 500_000; steps++) {
    const n = stack.pop() as SyntaxNode;
    if (n.type === "qualified_name" && n.parent?.type !== "namespace_use_clause" && n.parent?.type !== "namespace_use_declaration") {
      const text = written(n);
      const last = text.slice(text.lastIndexOf("\\") + 1);
      const fqn = n.text.trim().startsWith("\\") || namespace === "" ? text : `${namespace}\\${text}`;
      if (!bound.has(last)) {
        bound.add(last);
        c.bindings.push({ local: last, specifier: fqn, line: n.startPosition.row + 1 });
      }
      continue;
    }
    if (SKIP.has(n.type) && n.type !== "namespace_definition") continue;
    for (const k of namedChildren(n)) stack.push(k);
  }
  return extractTableReferences(root, grammar, c);
}

/** The reference rules of PHP (`php.ts` adds the same-namespace files as `sharedScope`). */
export const PHP_REFERENCE_RULES: ReferenceRules = {
  extract: (root) => extractPhpReferences(root),
  moduleIsDeclaration: true,
  // A method is named only by a call (`$this->m()`, `C::m()`, `$this->m(...)`); `$this->m` is a property.
  methodsOnlyCalled: true,
};
