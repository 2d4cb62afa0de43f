/** `lang/plain-tree.ts`: the JavaScript copy of a tree answers as web-tree-sitter's `Node` API does. */
import { describe, expect, it } from "vitest";
import type { Node as SyntaxNode } from "web-tree-sitter";
import { c } from "../../src/evidence/analysis/lang/c.js";
import { cpp } from "../../src/evidence/analysis/lang/cpp.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { plainTree, type PlainNode } from "../../src/evidence/analysis/lang/plain-tree.js";
import { parseSource } from "../../src/evidence/analysis/tree-sitter.js";
import { ReferenceCollector } from "../../src/evidence/analysis/lang/reference-walk.js";

/** C++ with namespaces, templates, lambdas, `using`, strings, a non-ASCII line (UTF-16 columns), CRLF lines and leading blank lines. */
const CPP = [
  "",
  "",
  "  // leading comment",
  "#include \"a.h\"",
  "namespace acme::core {",
  "using namespace std;",
  "template <typename T, int N = 3> class Box : public Base<T> {",
  " public:",
  "  explicit Box(const T& v) : value_(v), n_{N} {}\r",
  "  T get() const { auto f = [this](int k) { return value_ + k; }; return f(0); }\r",
  "  static constexpr const char* kName = \"bo\\u00e9x\";  // é — ✓",
  " private:",
  "  T value_; int n_;",
  "};",
  "int Box<int>::count = 0;",
  "void run(Box<int>* b, int (*cb)(int)) { for (auto& x : xs) { b->get(); cb(x); } if (b == nullptr) return; }",
  "}  // namespace acme::core",
  "int broken( {",
].join("\n");

/** C with macros, a struct, a function pointer typedef and an initialiser list. */
const C = [
  "#define MAX(a, b) ((a) > (b) ? (a) : (b))",
  "typedef int (*cmp_fn)(const void *, const void *);",
  "struct pair { int a; char *s; };",
  "static struct pair table[] = { { 1, \"x\" }, { .a = 2, .s = \"ü\" } };",
  "int main(int argc, char **argv) { return MAX(argc, table[0].a) + sizeof(struct pair); }",
].join("\n");

/** Compares `copy` with `node` and everything below it; returns the number of nodes compared. */
function compare(copy: PlainNode, node: SyntaxNode, parent: PlainNode | null): number {
  expect(copy.type).toBe(node.type);
  expect(copy.isNamed).toBe(node.isNamed);
  expect(copy.parent).toBe(parent);
  const fielded = copy.fieldName !== null;
  if (copy.isNamed || fielded) {
    expect([copy.startIndex, copy.endIndex, copy.text]).toEqual([node.startIndex, node.endIndex, node.text]);
    expect([copy.startPosition, copy.endPosition]).toEqual([node.startPosition, node.endPosition]);
  } else {
    expect([copy.startIndex, copy.endIndex, copy.text]).toEqual([-1, -1, ""]);
  }
  const kids = node.children.filter((k): k is SyntaxNode => k !== null);
  expect(copy.children.map((k) => k.type)).toEqual(kids.map((k) => k.type));
  expect(copy.namedChildren.map((k) => k.type)).toEqual(kids.filter((k) => k.isNamed).map((k) => k.type));
  let count = 1;
  kids.forEach((k, i) => {
    const field = node.fieldNameForChild(i);
    expect(copy.children[i]?.fieldName ?? null).toBe(field);
    if (field !== null) {
      expect(copy.childForFieldName(field)?.startIndex).toBe(node.childForFieldName(field)?.startIndex);
      expect(copy.childrenForFieldName(field).map((x) => x.type)).toEqual(node.childrenForFieldName(field).map((x) => x?.type));
    }
    count += compare(copy.children[i] as PlainNode, k, copy);
  });
  return count;
}

/** Python with operators held under fields (`not in`: a rule aliased to an anonymous node), f-, t- and plain strings, comments and an error. */
const PY = [
  "import os  # why",
  "def f(a, *b, **k) -> int | None:",
  '    """Doc."""',
  "    if a not in b and a is not None: return a + 1",
  '    s = f"{a!r:>{k}}" + rb"\\x" + t"{b}" + F\'{os.sep}\' + "{not_code}"',
  "    x = [i for i in b if i] ; del x[0]",
  "    return -a",
  "class C(Base, metaclass=M): pass",
  "def broken(:",
].join("\n");

/**
 * Compares a copy made with `namedOnly` and `leaf` with `node`: the kept nodes (named, or held
 * under a field) answer as the Node API's, leaves have no children; returns the number compared.
 */
function compareKept(copy: PlainNode, node: SyntaxNode, leaf: (n: PlainNode) => boolean): number {
  expect([copy.type, copy.isNamed, copy.startIndex, copy.endIndex, copy.text]).toEqual([node.type, node.isNamed, node.startIndex, node.endIndex, node.text]);
  expect([copy.startPosition, copy.endPosition]).toEqual([node.startPosition, node.endPosition]);
  if (leaf(copy)) {
    expect(copy.children).toEqual([]);
    return 1;
  }
  const kids = node.children.filter((k): k is SyntaxNode => k !== null);
  const kept = kids.map((k, i) => [k, node.fieldNameForChild(i)] as const).filter(([k, field]) => k.isNamed || field !== null);
  expect(copy.children.map((k) => [k.type, k.fieldName])).toEqual(kept.map(([k, field]) => [k.type, field]));
  expect(copy.namedChildren.map((k) => k.type)).toEqual(kids.filter((k) => k.isNamed).map((k) => k.type));
  let count = 1;
  kept.forEach(([k], i) => {
    expect(copy.children[i]?.parent).toBe(copy);
    count += compareKept(copy.children[i] as PlainNode, k, leaf);
  });
  return count;
}

describe("plain-tree", () => {
  it("namedOnly and a leaves test: the anonymous nodes under no field are left out, the other nodes answer as the Node API's, the leaves have no children", async () => {
    const tree = await parseSource(python, PY);
    try {
      const leaf = (n: PlainNode) => n.type === "comment" || (n.type === "string" && !/^[A-Za-z]*[fFtT]/.test(n.text));
      const copy = plainTree(tree.rootNode, { namedOnly: true, leaves: leaf });
      const compared = compareKept(copy, tree.rootNode, leaf);
      expect([compared, tree.rootNode.descendantCount]).toEqual([103, 162]);
      // `not in`, `is not`, `|`, `+` and `-` are kept (held under `operators`/`operator`); `(`, `:`, `def`, `return` are not.
      const ops = copy.descendantsOfType(["comparison_operator", "binary_operator", "unary_operator"]).flatMap((n) => n.children.filter((k) => !k.isNamed).map((k) => `${k.fieldName}:${k.text}`));
      expect(ops).toEqual(["operator:|", "operators:not in", "operators:is not", "operator:+", "operator:+", "operator:+", "operator:+", "operator:+", "operator:-"]);
      expect(copy.descendantsOfType(["def", "(", ":", "return"])).toEqual([]);
      // Strings: the f-, t- and F-strings keep their interpolations; the plain, raw-bytes and doc strings are leaves.
      const strings = copy.descendantsOfType(["string"]);
      expect(strings.map((s) => [s.text.slice(0, 3), s.children.length > 0])).toEqual([
        ['"""', false], ["f\"{", true], ["rb\"", false], ["t\"{", true], ["F'{", true], ['"{n', false],
      ]);
      expect(copy.descendantsOfType(["interpolation"]).map((n) => n.text)).toEqual(["{a!r:>{k}}", "{b}", "{os.sep}"]);
    } finally {
      tree.delete();
    }
  });

  for (const [lang, source] of [[cpp, CPP], [c, C]] as const) {
    it(`${lang.id}: every node's type, named flag, children, fields, indices, positions and text equal the Node API's`, async () => {
      const tree = await parseSource(lang, source);
      try {
        const copy = plainTree(tree.rootNode);
        expect(tree.rootNode.startIndex).toBe(lang === cpp ? 4 : 0); // the copy's rows and columns start at the root's
        const compared = compare(copy, tree.rootNode, null);
        expect(compared).toBe(tree.rootNode.descendantCount);
      } finally {
        tree.delete();
      }
    });
  }

  it("leaves: the children of the named types are not copied; descendantsOfType finds the node itself and those below in document order", async () => {
    const tree = await parseSource(cpp, CPP);
    try {
      const full = plainTree(tree.rootNode);
      const cut = plainTree(tree.rootNode, new Set(["string_literal"]));
      const strings = cut.descendantsOfType(["string_literal"]);
      expect(strings.map((s) => s.text)).toEqual(['"a.h"', '"bo\\u00e9x"']);
      expect(strings.every((s) => s.children.length === 0)).toBe(true);
      expect(full.descendantsOfType(["string_literal"]).map((s) => s.children.length)).toEqual([3, 5]);
      const lambda = full.descendantsOfType(["lambda_expression"])[0] as PlainNode;
      expect(lambda.descendantsOfType(["lambda_expression", "identifier"]).map((n) => n.type === "identifier" ? n.text : n.type)).toEqual([
        "lambda_expression", "k", "value_", "k",
      ]);
    } finally {
      tree.delete();
    }
  });

  it("a collector over a copy (parentsKnown) hands out each node's own child list and reads parents from the nodes: the same uses, with their ranges, as a collector that remembers parents", async () => {
    const tree = await parseSource(cpp, CPP);
    try {
      const copy = plainTree(tree.rootNode);
      const known = new ReferenceCollector<PlainNode>({ parentsKnown: true });
      const remembering = new ReferenceCollector<PlainNode>();
      const fn = copy.descendantsOfType(["function_definition"])[0] as PlainNode;
      expect(known.children(fn)).toBe(fn.namedChildren);
      expect(remembering.children(fn)).not.toBe(fn.namedChildren);
      expect(remembering.children(fn)).toEqual(fn.namedChildren);
      // Every identifier used from both collectors: the statement ranges come from the parents.
      for (const c of [known, remembering]) for (const id of copy.descendantsOfType(["identifier"])) c.use([id.text], id, "value");
      expect(known.facts().uses).toEqual(remembering.facts().uses);
      expect(known.facts().uses.find((u) => u.path[0] === "cb")).toEqual({ path: ["cb"], line: 16, start_line: 16, end_line: 16, use: "value" });
    } finally {
      tree.delete();
    }
  });
});
