/**
 * The lexical reader of `lang/c-focus.ts`: which parts of a C/C++ text a query for some names
 * parses, where it gives up, and which other names those parts give every definition of.
 */
import { describe, expect, it } from "vitest";
import { cFocus } from "../../src/evidence/analysis/lang/c-focus.js";

/** The texts of the ranges `cFocus` gives. */
function parts(text: string, names: string[]): string[] | undefined {
  return cFocus(text, names)?.ranges.map((r) => text.slice(r.start, r.end));
}

describe("cFocus: the top-level items that write a name, with their context", () => {
  it("keeps the function that writes the name, not the others", () => {
    const text = "static int helper(int x) {\n  return x;\n}\n\nint run(void) {\n  return alloc(1);\n}\n\nint other(void) { return 2; }\n";
    expect(parts(text, ["alloc"])).toEqual(["int run(void) {\n  return alloc(1);\n}"]);
  });

  it("keeps a class or enum body up to its `;`, and a declaration list", () => {
    const text = "struct S {\n  int alloc;\n}\n;\nint a, b = alloc;\nenum E { X = 1 } e;\n";
    expect(parts(text, ["alloc"])).toEqual(["struct S {\n  int alloc;\n}\n;", "int a, b = alloc;"]);
  });

  it("keeps every namespace head and closing brace, every conditional's lines, every `using` directive", () => {
    const text = [
      "#ifndef A_H",
      "#define A_H",
      "namespace acme {",
      "namespace {",
      "int Twice(int x) { using namespace std; return x * 2; }",
      "}  // namespace",
      "int Run() { return alloc(1); }",
      "}  // namespace acme",
      "#endif",
      "",
    ].join("\n");
    expect(parts(text, ["alloc"])).toEqual([
      "#ifndef A_H\n",
      "namespace acme {",
      "namespace {",
      "using namespace std;",
      "}",
      "int Run() { return alloc(1); }",
      "}",
      "#endif\n",
    ]);
  });

  it("is not misled by braces and quotes in comments, strings, characters, raw strings and numbers", () => {
    const text = [
      "/* } { */",
      'const char *s = "} {";',
      "const char c = '{';",
      'const char *r = R"x( } " { )x";',
      "long n = 1'000'000;",
      "// }",
      "int f() { return alloc(n); }",
      "",
    ].join("\n");
    expect(parts(text, ["alloc"])).toEqual(["int f() { return alloc(n); }"]);
  });

  it("takes a directive that writes the name as an item of its own", () => {
    expect(parts("#define ALLOC_MAX 4\nint x;\n", ["ALLOC_MAX"])).toEqual(["#define ALLOC_MAX 4\n"]);
  });

  it("gives nothing for a text without the name as a word", () => {
    expect(parts("int alloc_all(void);\n", ["alloc"])).toEqual([]);
  });

  it("gives up where it cannot tell the items", () => {
    // `extern "C" {` opened inside a conditional and closed in another.
    expect(cFocus('#ifdef __cplusplus\nextern "C" {\n#endif\nint alloc(void);\n#ifdef __cplusplus\n}\n#endif\n', ["alloc"])).toBeUndefined();
    // A conditional whose branches open a brace each.
    expect(cFocus("int f(int x) {\n#ifdef A\n  if (x) {\n#else\n  if (!x) {\n#endif\n    return alloc(x);\n  }\n  return 0;\n}\n", ["alloc"])).toBeUndefined();
    expect(cFocus("int f() { return alloc(1); }\n}\n", ["alloc"])).toBeUndefined();
    expect(cFocus("int f() { return alloc(1); }\n/* open", ["alloc"])).toBeUndefined();
    expect(cFocus('const char *s = "open\nint f() { return alloc(1); }\n', ["alloc"])).toBeUndefined();
  });
});

describe("cFocus: which other names the ranges define whole", () => {
  const text = [
    "#include <vector>",
    "#define LIMIT 4",
    "namespace shop {",
    "struct Box { int n; };",
    "int Box_size(const std::vector<int>& v) { std::vector<int> w; return alloc(v.size()); }",
    "Box::Box() {}",
    "// Helper is mentioned here only",
    "int Helper() { return LIMIT; }",
    "}",
    "",
  ].join("\n");
  const focus = cFocus(text, ["alloc"]);

  it("covers the names asked about and names written only in the ranges, comments, directives or as qualifiers", () => {
    expect(focus?.covers("alloc")).toBe(true);
    expect(focus?.covers("shop")).toBe(true); // namespace head (kept) only
    expect(focus?.covers("vector")).toBe(true); // an #include, a qualifier's name, the kept function
  });

  it("does not cover a name defined outside the ranges or by a #define", () => {
    expect(focus?.covers("Helper")).toBe(false);
    expect(focus?.covers("LIMIT")).toBe(false);
    // `Box::Box()` defines a constructor named Box; the struct's body is outside the ranges too.
    expect(focus?.covers("Box")).toBe(false);
    expect(focus?.covers("Box", true)).toBe(false);
  });

  it("for class bodies, passes over names in function bodies and before `(`", () => {
    const cls = cFocus("struct Other { int m; };\nint Use() { Other o; return alloc(o.m); }\nint Make(Other x);\n", ["alloc"]);
    expect(cls?.covers("Other", true)).toBe(false); // its body is not kept
    const uses = cFocus("int Use() { Thing t; return alloc(t.m); }\nint g() { Thing u; return 0; }\nint Make(Thing x);\n", ["alloc"]);
    expect(uses?.covers("Thing", true)).toBe(true);
    expect(uses?.covers("Thing")).toBe(false); // `Make(Thing x)`: a declaration's text, not parsed
  });
});
