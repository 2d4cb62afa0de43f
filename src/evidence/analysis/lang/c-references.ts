/**
 * C and C++: the name uses and include bindings of one file, for `find_references` (tree-sitter-c
 * 0.24 and tree-sitter-cpp 0.23, which share node names for the C part; name lookup after ISO C
 * §6.2.1 "Scopes of identifiers" and C++ [basic.lookup], simplified as below).
 *
 * - **Includes**: every `#include` that resolves to a repository file (`c-includes.ts`) makes the
 *   top-level names of that file, and of the files it includes, visible (a wildcard binding). A
 *   prototype or in-class method declaration in a header stands for its definition in the file
 *   that includes it (`ReferenceRules.separateDeclarations`).
 * - **Locals** (which hide a file-level name): parameters, variables declared in the function body,
 *   range-`for` variables, lambda parameters and template parameters, counted for the whole function.
 * - **Uses**: identifiers, `a::b::c` qualified names, `x.m`/`p->m` field expressions; `call` for
 *   the callee of a call and the type of `new T`, `type` for type positions (declared types,
 *   casts, `sizeof(T)`, template arguments, trailing return types), `inherit` for base classes, the
 *   primary template for the name of an explicit or partial specialization (`struct X<char>`:
 *   `type`), `value` else; macros used
 *   in `#if`/`#ifdef` conditions are `value` uses. Declared names, comments, strings, macro bodies
 *   (unparsed) and labels give none.
 * - **Scopes of names** (C++): inside a class or namespace (also in an out-of-line `void A::m()`),
 *   a one-part name is first a member of the enclosing class or namespace (`NameUse.selfClass`),
 *   then a name of each enclosing namespace, then of each namespace a `using namespace` names
 *   (implied parts, `NameUse.from`), then a file-level name.
 * - **Receivers**: `this->m`; `x.m`/`x->m` where `x` is a local, parameter or member declared
 *   with type `T` (`T x`, `T *x`, `auto x = new T`) resolves in `T`.
 *
 * The walk reads a JavaScript copy of the tree made with one tree cursor (`plain-tree.ts`; the
 * nodes of {@link SKIP} without their children, and only the named nodes and the anonymous ones
 * held under a field: punctuation and keywords are a third of a C/C++ tree, and the one keyword the
 * walk asks about, `using namespace`, is read from the declaration's text), not the parser's nodes:
 * each question to one of those is a call into the WASM module.
 */
import type { ImportRef, NameBinding, ReferenceFacts, ReferenceRules, UseKind } from "./language.js";
import { cFocus } from "./c-focus.js";
import { plainTree, type PlainNode } from "./plain-tree.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren } from "./syntax.js";

const MAX_DEPTH = 300;

/** Nodes never walked: literals, comments, unparsed macro bodies, labels. */
const SKIP = new Set([
  "comment", "string_literal", "raw_string_literal", "char_literal", "concatenated_string", "number_literal", "preproc_arg",
  "preproc_include", "system_lib_string", "statement_identifier", "primitive_type", "sized_type_specifier", "access_specifier",
  "true", "false", "null", "nullptr", "auto", "placeholder_type_specifier", "escape_sequence",
]);

const CLASS_SPECIFIERS = new Set(["class_specifier", "struct_specifier", "union_specifier"]);

/** Declarator wrappers between a declaration and the declared name. */
const DECLARATOR_WRAPPERS = new Set([
  "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator", "array_declarator",
  "init_declarator", "function_declarator", "abstract_pointer_declarator", "abstract_reference_declarator",
  "abstract_array_declarator", "abstract_function_declarator", "abstract_parenthesized_declarator",
]);

/** Name nodes without children: the last part of their path is themselves. */
const NAME_LEAVES = new Set(["identifier", "type_identifier", "field_identifier", "namespace_identifier", "this"]);

/**
 * The parts of a name, qualified name, template name or type as written (`a::b::f<int>` → `a b f`);
 * `type` is the node's type when the caller read it already.
 */
function cPath(node: PlainNode, type: string = node.type): string[] | undefined {
  switch (type) {
    case "identifier":
    case "type_identifier":
    case "field_identifier":
    case "namespace_identifier":
      return [node.text];
    case "this":
      return ["this"];
    case "qualified_identifier": {
      const scope = node.childForFieldName("scope");
      const name = node.childForFieldName("name");
      if (name === null) return undefined;
      const rest = cPath(name);
      if (rest === undefined) return undefined;
      if (scope === null) return rest; // `::x`: the global x
      const head = cPath(scope);
      return head === undefined ? undefined : [...head, ...rest];
    }
    case "template_type":
    case "template_function":
    case "template_method": {
      const name = node.childForFieldName("name");
      return name === null ? undefined : cPath(name);
    }
    case "field_expression": {
      const field = node.childForFieldName("field");
      const arg = node.childForFieldName("argument");
      if (field === null || arg === null) return undefined;
      const f = cPath(field);
      if (f === undefined) return undefined;
      const obj = cPath(arg);
      return obj === undefined ? ["", ...f] : [...obj, ...f];
    }
    case "struct_specifier":
    case "union_specifier":
    case "enum_specifier":
    case "class_specifier": {
      const name = node.childForFieldName("name");
      return name === null || node.childForFieldName("body") !== null ? undefined : cPath(name);
    }
    case "destructor_name":
    case "operator_name":
      return [node.text.replace(/\s+/g, "")];
    default:
      return undefined;
  }
}

/**
 * Whether the text of `node` outside its named children holds the keyword `word` as a token of its
 * own (`namespace` of `using namespace std;`): the walk's copy of the tree leaves out anonymous
 * nodes held under no field, the keywords among them.
 */
function ownTokensHold(node: PlainNode, c: ReferenceCollector<PlainNode>, word: string): boolean {
  let own = node.text;
  for (const k of c.children(node)) own = own.slice(0, k.startIndex - node.startIndex) + " ".repeat(k.endIndex - k.startIndex) + own.slice(k.endIndex - node.startIndex);
  return new RegExp(`(?<![\\w$])${word}(?![\\w$])`).test(own);
}

/** The node of the last part of a path node (for the use's line), reached through `c` (its parents are remembered). */
function lastNode(node: PlainNode, c: ReferenceCollector<PlainNode>): PlainNode {
  for (let n = node, i = 0; i < 32; i++) {
    const next = c.field(n, "name") ?? c.field(n, "field");
    if (next === null) return n;
    n = next;
  }
  return node;
}

/** The declared name node under a declarator (through pointers, arrays, initialisers, function declarators). */
function declaredNameNode(node: PlainNode | null): PlainNode | undefined {
  for (let n = node, depth = 0; n !== null && depth < 32; depth++) {
    if (!DECLARATOR_WRAPPERS.has(n.type)) return n;
    n = n.childForFieldName("declarator") ?? namedChildren(n).find((k) => k.type.endsWith("declarator") || k.type === "identifier") ?? null;
  }
  return undefined;
}

/** The type path of a declaration's `type` node (`struct s`, `ns::T`, `T<int>`); `auto`/primitives give none. */
function typePath(type: PlainNode | null): string[] | undefined {
  return type === null ? undefined : cPath(type);
}

/** Nodes that bind local names through their `declarator` fields. */
const LOCAL_DECLARATIONS = ["parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration", "declaration", "for_range_loop", "condition_clause"];
/** Subtrees whose declarations are not the function's own: nested lambdas and local classes. */
const OWN_SCOPES = ["lambda_expression", ...CLASS_SPECIFIERS];
const OWN_SCOPE_TYPES: ReadonlySet<string> = new Set(OWN_SCOPES);
const LOCALS_AND_SCOPES = [...LOCAL_DECLARATIONS, ...OWN_SCOPES];

/**
 * Local names of a function (parameters and body declarations), not entering lambdas or local
 * classes. The declarations are found in one search of the copied tree (`descendantsOfType`), and
 * those inside a nested lambda or class are told by their index ranges.
 */
function functionLocals(fn: PlainNode): Set<string> {
  const out = new Set<string>();
  // One search for both kinds (in document order): each call walks the whole function in the parser.
  const found = fn.descendantsOfType(LOCALS_AND_SCOPES).filter((n): n is PlainNode => n !== null && n.id !== fn.id);
  const nested: (readonly [number, number])[] = [];
  const declarations: PlainNode[] = [];
  for (const n of found) {
    if (OWN_SCOPE_TYPES.has(n.type)) nested.push([n.startIndex, n.endIndex]);
    else declarations.push(n);
  }
  const inNested = (n: PlainNode) => nested.some(([a, b]) => n.startIndex >= a && n.endIndex <= b);
  for (const n of declarations) {
    if (inNested(n)) continue;
    for (const d of n.childrenForFieldName("declarator")) {
      const name = declaredNameNode(d);
      if (name?.type === "identifier") out.add(name.text);
    }
  }
  return out;
}

/** The bindings of a file's includes: a wildcard for each `#include` written with a file name (not through a macro). */
function includeBindings(includes: readonly ImportRef[]): NameBinding[] {
  const out: NameBinding[] = [];
  for (const ref of includes) if (!ref.flags?.includes("unresolved")) out.push({ local: "*", specifier: ref.specifier, member: "*", line: ref.start_line });
  return out;
}

interface Ctx {
  use: UseKind;
  depth: number;
  /** Enclosing namespaces and classes, outermost first (for a method written `A::m`, with `A`). */
  chain: string[];
  /** True when the innermost entry of `chain` is a class (members are found by bare name). */
  inClass: boolean;
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-c or tree-sitter-cpp `translation_unit` (see the module comment), whose includes are `includes`. */
function extractCReferences(root: PlainNode, includes: readonly ImportRef[]): ReferenceFacts {
  const c = new ReferenceCollector<PlainNode>({ parentsKnown: true });
  c.bindings.push(...includeBindings(includes));
  /** `using namespace a::b;` paths seen so far (file order, file-wide after their line). */
  const usingNamespaces: string[][] = [];
  /** `using a::b::X;` → `X` ↦ `["a", "b", "X"]`. */
  const usingNames = new Map<string, string[]>();

  /** Scopes a name written in `ctx` may be looked up in besides the file level: enclosing namespaces (innermost first), `using namespace` ones. */
  const lookupPrefixes = (ctx: Ctx, skipInnermost: boolean): string[][] => {
    const out: string[][] = [];
    for (let k = ctx.chain.length - (skipInnermost ? 1 : 0); k >= 1; k--) out.push(ctx.chain.slice(0, k));
    for (const u of usingNamespaces) out.push(u);
    return out;
  };

  /** A use `x.m` on a receiver declared with type `type`, also with the type read in each lookup scope. */
  const typedUse = (path: string[], last: PlainNode, ctx: Ctx, use: UseKind, type: string[]) => {
    c.use(path, last, use, { receiverType: type });
    for (const p of lookupPrefixes(ctx, false)) c.use(path, last, use, { receiverType: [...p, ...type] });
  };

  const pathUse = (path: string[], last: PlainNode, ctx: Ctx, use: UseKind) => {
    const head = path[0] as string;
    if (head === "this") {
      if (path.length > 1) c.use(path, last, use, ctx.chain.length > 0 ? { selfClass: ctx.chain.join(".") } : {});
      return;
    }
    if (head === "") {
      c.use(path, last, use);
      return;
    }
    const type = path.length > 1 ? c.typeOf(head) : undefined;
    if (c.isLocal(head) || type !== undefined) {
      if (path.length === 1) return;
      if (type !== undefined) typedUse(path, last, ctx, use, type);
      else c.use(["", ...path.slice(1)], last, use);
      return;
    }
    const extra = ctx.chain.length > 0 && path.length === 1 ? { selfClass: ctx.chain.join(".") } : {};
    c.use(path, last, use, extra);
    // Names of enclosing namespaces and of `using` directives, tried as implied prefixes.
    const prefixes = lookupPrefixes(ctx, path.length === 1 && ctx.inClass);
    const named = usingNames.get(head);
    if (named !== undefined) prefixes.push(named.slice(0, -1));
    for (const p of prefixes) c.use([...p, ...path], last, use, { from: p.length });
  };

  /** A use of the path `node` writes; `type` is the node's type when the caller read it already. */
  const usePath = (node: PlainNode, ctx: Ctx, use: UseKind, type: string = node.type): boolean => {
    const path = cPath(node, type);
    if (path === undefined) return false;
    pathUse(path, NAME_LEAVES.has(type) ? node : lastNode(node, c), ctx, use);
    return true;
  };

  const walkChildren = (node: PlainNode, ctx: Ctx, use: UseKind = ctx.use) => {
    const kids = c.children(node);
    if (kids.length === 0) return;
    // One context for all the children (contexts are never changed once made).
    const inner: Ctx = { ...ctx, use, depth: ctx.depth + 1 };
    for (const k of kids) walk(k, inner);
  };

  /** A declarator: the declared name is skipped; sizes, default values and parameter types are walked. */
  const walkDeclarator = (d: PlainNode, ctx: Ctx, local: boolean, type: string[] | undefined): void => {
    const name = declaredNameNode(d);
    if (local && name?.type === "identifier" && type !== undefined) c.bindType(name.text, type);
    const stack: PlainNode[] = [d];
    for (let steps = 0; stack.length > 0 && steps < 1000; steps++) {
      const n = stack.pop() as PlainNode;
      if (n.id === name?.id) {
        // A qualified declared name (`int A::count = 0;`) names its scope.
        if (n.type === "qualified_identifier") {
          const scope = c.field(n, "scope");
          if (scope !== null) usePath(scope, ctx, "type");
        }
        continue;
      }
      if (DECLARATOR_WRAPPERS.has(n.type)) {
        for (const k of c.children(n)) {
          if (k.type === "parameter_list") walkParams(c.children(k), ctx, false);
          else if (n.type === "init_declarator" && k.id === c.field(n, "value")?.id) walk(k, { ...ctx, use: "value", depth: ctx.depth + 1 });
          else stack.push(k);
        }
      } else walk(n, { ...ctx, use: "value", depth: ctx.depth + 1 });
    }
  };

  const walkParams = (params: readonly PlainNode[], ctx: Ctx, bind: boolean) => {
    for (const p of params) {
      const type = c.field(p, "type");
      if (type !== null) walk(type, { ...ctx, use: "type", depth: ctx.depth + 1 });
      const d = c.field(p, "declarator");
      const tp = typePath(type);
      if (d !== null) walkDeclarator(d, ctx, bind, tp);
      const dflt = c.field(p, "default_value");
      if (dflt !== null) walk(dflt, { ...ctx, use: "value", depth: ctx.depth + 1 });
    }
  };

  const walkClass = (node: PlainNode, ctx: Ctx) => {
    const nameNode = c.field(node, "name");
    const body = c.field(node, "body");
    const namePath = nameNode === null ? undefined : cPath(nameNode);
    const name = namePath?.[namePath.length - 1];
    const chain = name !== undefined && !c.inFunction ? [...ctx.chain, ...(namePath ?? [])] : ctx.chain;
    const bases: string[][] = [];
    for (const k of c.children(node)) {
      if (k.type !== "base_class_clause") continue;
      for (const b of c.children(k)) {
        const p = cPath(b);
        // The base as written, then as read in each enclosing namespace (`class C : public Shape` in `namespace geo`).
        if (p !== undefined) for (const prefix of [[], ...lookupPrefixes(ctx, false)]) bases.push([...prefix, ...p]);
        walk(b, { ...ctx, use: "inherit", depth: ctx.depth + 1 });
      }
    }
    // An explicit or partial specialization (`template <> struct is_code_unit<char>`) names the primary template; its arguments are types.
    if (nameNode?.type === "template_type") {
      usePath(nameNode, ctx, "type");
      walkTemplateArgs(nameNode, { ...ctx, depth: ctx.depth + 1 });
    }
    if (name !== undefined && !c.inFunction) c.classes.push({ name: chain.join("."), bases });
    if (body === null) return;
    if (name !== undefined && !c.inFunction) c.pushContext(chain.join("."));
    const scope = c.pushScope("block");
    for (const f of c.children(body)) {
      if (f.type !== "field_declaration") continue;
      const tp = typePath(c.field(f, "type"));
      if (tp === undefined) continue;
      for (const d of c.fields(f, "declarator")) {
        const n = declaredNameNode(d);
        if (n?.type === "field_identifier" || n?.type === "identifier") scope.types.set(n.text, tp);
      }
    }
    walkChildren(body, { ...ctx, chain, inClass: name !== undefined });
    c.popScope();
    if (name !== undefined && !c.inFunction) c.popContext();
  };

  const walkFunction = (node: PlainNode, ctx: Ctx) => {
    const type = c.field(node, "type");
    if (type !== null) walk(type, { ...ctx, use: "type", depth: ctx.depth + 1 });
    const declarator = c.field(node, "declarator");
    let fnDecl: PlainNode | null = declarator;
    for (let i = 0; fnDecl !== null && fnDecl.type !== "function_declarator" && i < 16; i++) fnDecl = c.field(fnDecl, "declarator");
    const nameNode = fnDecl === null ? null : c.field(fnDecl, "declarator");
    const namePath = nameNode === null ? undefined : cPath(nameNode);
    let chain = ctx.chain;
    let qualified: string | undefined;
    if (namePath !== undefined && !c.inFunction) {
      chain = [...ctx.chain, ...namePath.slice(0, -1)];
      qualified = [...chain, namePath[namePath.length - 1] as string].join(".");
      if (nameNode?.type === "qualified_identifier") {
        const scope = c.field(nameNode, "scope");
        if (scope !== null) usePath(scope, ctx, "type");
      }
    }
    if (qualified !== undefined) c.pushContext(qualified);
    const inner: Ctx = { ...ctx, chain, inClass: chain.length > 0, depth: ctx.depth + 1 };
    c.pushScope("function", functionLocals(node));
    const params = fnDecl === null ? null : c.field(fnDecl, "parameters");
    if (params) walkParams(c.children(params), inner, true);
    // The rest of the declarator: a trailing return type (`-> concat<L, R>`, `-> decltype(f<T>(x))`), `noexcept(…)`, `requires …`.
    for (const k of fnDecl === null ? [] : c.children(fnDecl)) if (k.id !== params?.id && k.id !== nameNode?.id) walk(k, { ...inner, use: "value" });
    for (const k of c.children(node)) {
      if (k.id === type?.id || k.id === declarator?.id) continue;
      walk(k, { ...inner, use: "value" });
    }
    c.popScope();
    if (qualified !== undefined) c.popContext();
  };

  const walkDeclaration = (node: PlainNode, ctx: Ctx) => {
    const type = c.field(node, "type");
    const tp = typePath(type);
    if (type !== null) walk(type, { ...ctx, use: "type", depth: ctx.depth + 1 });
    let autoNew: string[] | undefined;
    for (const d of c.fields(node, "declarator")) {
      const value = d.type === "init_declarator" ? c.field(d, "value") : null;
      if (value?.type === "new_expression") autoNew = typePath(c.field(value, "type"));
      walkDeclarator(d, ctx, c.inFunction, tp ?? autoNew);
    }
    for (const k of c.children(node)) {
      if (k.id === type?.id || c.fields(node, "declarator").some((d) => d.id === k.id)) continue;
      walk(k, { ...ctx, use: "value", depth: ctx.depth + 1 });
    }
  };

  const walk = (node: PlainNode, ctx: Ctx): void => {
    // The node's type is read once (each read is a call into the parser).
    const nodeType = node.type;
    if (ctx.depth > MAX_DEPTH || SKIP.has(nodeType)) return;
    // Names, most of the nodes walked, are used at once; the other kinds make the context one level down when they need it.
    if (nodeType === "identifier" || nodeType === "type_identifier" || nodeType === "namespace_identifier") {
      usePath(node, ctx, nodeType === "type_identifier" && ctx.use === "value" ? "type" : ctx.use, nodeType);
      return;
    }
    let below: Ctx | undefined;
    const deeper = (): Ctx => (below ??= { ...ctx, depth: ctx.depth + 1 });
    if (CLASS_SPECIFIERS.has(nodeType) && c.field(node, "body") !== null) {
      walkClass(node, deeper());
      return;
    }
    switch (nodeType) {
      case "function_definition":
        walkFunction(node, deeper());
        return;
      case "declaration":
      case "field_declaration":
        walkDeclaration(node, deeper());
        return;
      case "parameter_declaration":
      case "optional_parameter_declaration":
        walkParams([node], deeper(), false);
        return;
      case "type_definition": {
        const type = c.field(node, "type");
        if (type !== null) walk(type, { ...deeper(), use: "type" });
        for (const d of c.fields(node, "declarator")) walkDeclarator(d, deeper(), false, undefined);
        return;
      }
      case "namespace_definition": {
        const nameNode = c.field(node, "name");
        const path = nameNode === null ? [] : nameNode.text.split("::").map((s) => s.trim()).filter((s) => s !== "");
        const body = c.field(node, "body");
        if (body !== null) walkChildren(body, { ...deeper(), chain: [...ctx.chain, ...path], inClass: false });
        return;
      }
      case "enum_specifier": {
        const name = c.field(node, "name");
        const body = c.field(node, "body");
        if (body === null) {
          if (name !== null) usePath(name, ctx, "type");
          return;
        }
        for (const e of c.children(body)) {
          const v = c.field(e, "value");
          if (v !== null) walk(v, { ...deeper(), use: "value" });
        }
        return;
      }
      case "function_declarator": {
        // Outside a declaration only in a region the parser gave up on (`EXPORT(type) f(args);`): the name is declared.
        const params = c.field(node, "parameters");
        if (params !== null) walkParams(c.children(params), deeper(), false);
        return;
      }
      case "enumerator":
      case "preproc_params":
      case "namespace_alias_definition":
        return;
      case "preproc_def":
      case "preproc_function_def":
        return;
      case "preproc_ifdef": {
        const name = c.field(node, "name");
        if (name !== null) usePath(name, ctx, "value");
        for (const k of c.children(node)) if (k.id !== name?.id) walk(k, deeper());
        return;
      }
      case "using_declaration": {
        const target = c.children(node).find((k) => k.type === "qualified_identifier" || k.type === "identifier");
        const path = target === undefined ? undefined : cPath(target);
        if (path === undefined || target === undefined) return;
        if (ownTokensHold(node, c, "namespace")) {
          usingNamespaces.push(path);
          usePath(target, ctx, "import");
        } else {
          usingNames.set(path[path.length - 1] as string, path);
          c.use(path, lastNode(target, c), "import");
        }
        return;
      }
      case "alias_declaration": {
        const type = c.field(node, "type");
        if (type !== null) walk(type, { ...deeper(), use: "type" });
        return;
      }
      case "template_declaration": {
        const params = c.field(node, "parameters");
        const names: string[] = [];
        const list = params ? c.children(params) : [];
        for (const p of list) {
          const typed = p.type === "parameter_declaration" || p.type === "optional_parameter_declaration";
          const declarator = typed ? c.field(p, "declarator") : null;
          const n = typed ? (declarator === null ? null : declaredNameNode(declarator)) : (c.field(p, "name") ?? c.children(p).find((k) => k.type === "type_identifier" || k.type === "identifier"));
          if (n !== undefined && n !== null) names.push(n.text);
        }
        c.pushScope("block", names);
        for (const p of list) {
          // A non-type parameter (`std::size_t N`, fmt's `FMT_ENABLE_IF(is_code_unit<T>::value)`): its type, declarator and default as a function parameter's.
          if (p.type === "parameter_declaration" || p.type === "optional_parameter_declaration") {
            walkParams([p], deeper(), false);
            continue;
          }
          const dflt = c.field(p, "default_type") ?? c.field(p, "default_value");
          if (dflt !== null) walk(dflt, { ...deeper(), use: "type" });
        }
        for (const k of c.children(node)) if (k.id !== params?.id) walk(k, deeper());
        c.popScope();
        return;
      }
      case "lambda_expression": {
        c.pushScope("function", functionLocals(node));
        const decl = c.field(node, "declarator");
        const params = decl === null ? null : c.field(decl, "parameters");
        if (params) walkParams(c.children(params), deeper(), true);
        const body = c.field(node, "body");
        if (body !== null) walk(body, { ...deeper(), use: "value" });
        c.popScope();
        return;
      }
      case "call_expression": {
        const fn = c.field(node, "function");
        if (fn !== null && !usePath(fn, ctx, "call")) walk(fn, { ...deeper(), use: "value" });
        else if (fn?.type === "field_expression") walkReceiver(fn, deeper());
        if (fn !== null && (fn.type === "template_function" || fn.type === "qualified_identifier" || fn.type === "field_expression")) walkTemplateArgs(fn, deeper());
        const args = c.field(node, "arguments");
        if (args !== null) walk(args, { ...deeper(), use: "value" });
        return;
      }
      case "new_expression": {
        const type = c.field(node, "type");
        if (type !== null && !usePath(type, ctx, "call")) walk(type, { ...deeper(), use: "type" });
        if (type !== null) walkTemplateArgs(type, deeper());
        for (const k of c.children(node)) if (k.id !== type?.id) walk(k, { ...deeper(), use: "value" });
        return;
      }
      case "field_expression": {
        if (usePath(node, ctx, ctx.use, nodeType)) {
          walkReceiver(node, deeper());
          return;
        }
        walkChildren(node, ctx, "value");
        return;
      }
      case "qualified_identifier":
      case "template_type":
      case "template_function":
        if (!usePath(node, ctx, nodeType === "template_type" && ctx.use === "value" ? "type" : ctx.use, nodeType)) walkChildren(node, ctx);
        walkTemplateArgs(node, deeper());
        return;
      case "struct_specifier":
      case "union_specifier":
      case "class_specifier": {
        const name = c.field(node, "name");
        if (name !== null) usePath(name, ctx, ctx.use === "inherit" ? "inherit" : "type");
        return;
      }
      case "type_descriptor":
      case "template_argument_list":
        walkChildren(node, ctx, "type");
        return;
      case "cast_expression": {
        const type = c.field(node, "type");
        if (type !== null) walk(type, { ...deeper(), use: "type" });
        const value = c.field(node, "value");
        if (value !== null) walk(value, { ...deeper(), use: "value" });
        return;
      }
      case "field_initializer": {
        // `: member_(x)` in a constructor: the member is the class's own.
        const kids = c.children(node);
        const member = kids[0];
        if (member !== undefined && (member.type === "field_identifier" || member.type === "identifier")) c.use(["this", member.text], member, "value", ctx.chain.length > 0 ? { selfClass: ctx.chain.join(".") } : {});
        else if (member !== undefined) walk(member, { ...deeper(), use: "call" });
        for (const k of kids.slice(1)) walk(k, { ...deeper(), use: "value" });
        return;
      }
      default:
        walkChildren(node, ctx, ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value");
    }
  };

  /** The object of a field expression that is no path (`f().x`, `a[i]->x`), walked for its own uses. */
  const walkReceiver = (node: PlainNode, ctx: Ctx) => {
    const arg = c.field(node, "argument");
    if (arg !== null && cPath(arg) === undefined) walk(arg, { ...ctx, use: "value" });
  };

  /** The template arguments inside a (qualified) template name: type uses. */
  const walkTemplateArgs = (node: PlainNode, ctx: Ctx) => {
    for (let n: PlainNode | null = node, i = 0; n !== null && i < 32; i++) {
      const args = c.field(n, "arguments");
      if (args !== null && args.type === "template_argument_list") {
        walk(args, { ...ctx, use: "type" });
        return;
      }
      n = c.field(n, "name") ?? c.field(n, "field");
    }
  };

  walkChildren(root, { use: "value", depth: 0, chain: [], inClass: false });
  return c.facts();
}

/** The reference rules of C and C++ (`c.ts`, `cpp.ts`): includes as wildcards (read from the imports too), members of a class in any file, declarations in headers. */
export const C_REFERENCE_RULES: ReferenceRules = {
  // The includes are the file's imports (`c.ts` reads them with the same `cIncludes` of the same text).
  extract: (root, _source, facts) => extractCReferences(plainTree(root, { leaves: SKIP, namedOnly: true }), facts.imports),
  focus: cFocus,
  membersAnywhere: true,
  separateDeclarations: true,
  namespacePaths: true,
  importBindings: includeBindings,
};
