/** Kotlin (`lang/kotlin.ts`): one test per rule. */
import { renderForModel } from "../../src/evidence/advice.js";
import { describe, expect, it } from "vitest";
import { kotlin, KOTLIN_BLIND_SPOT_NOTE } from "../../src/evidence/analysis/lang/kotlin.js";
import { joinKotlinConstructors } from "../../src/evidence/analysis/lang/kotlin-prepare.js";
import { definitionsOf, factsOf, fixtureProject, importersOf, memoryProject, resolvedImports, symbolsIn } from "./lang-test-kit.js";

const { root, project } = fixtureProject("kotlin-project");
const MODEL = "core/src/main/kotlin/com/shop/model";
const MAIN = "app/src/main/kotlin/com/shop/app/Main.kt";

describe("kotlin: definitions", () => {
  it("classes, companion members (container: the class), inner and enum classes, interfaces, objects, type aliases, extension functions and properties", async () => {
    expect(await symbolsIn(kotlin, project, `${MODEL}/Order.kt`)).toEqual([
      { name: "Order", kind: "class", start_line: 6, end_line: 20 },
      // `val id` of the primary constructor
      { name: "id", kind: "variable", container: "Order", start_line: 7, end_line: 7 },
      { name: "created", kind: "variable", container: "Order", start_line: 8, end_line: 8 },
      { name: "total", kind: "method", container: "Order", start_line: 10, end_line: 10 },
      // an unnamed companion object is `Companion`
      { name: "Companion", kind: "class", container: "Order", start_line: 12, end_line: 15 },
      { name: "MAX_LINES", kind: "constant", container: "Order", start_line: 13, end_line: 13 },
      { name: "empty", kind: "method", container: "Order", start_line: 14, end_line: 14 },
      { name: "Line", kind: "class", container: "Order", start_line: 17, end_line: 17 },
      { name: "Status", kind: "enum", container: "Order", start_line: 19, end_line: 19 },
      { name: "NEW", kind: "constant", container: "Order.Status", start_line: 19, end_line: 19 },
      { name: "PAID", kind: "constant", container: "Order.Status", start_line: 19, end_line: 19 },
      { name: "Store", kind: "interface", start_line: 22, end_line: 24 },
      { name: "find", kind: "method", container: "Store", start_line: 23, end_line: 23 },
      { name: "Registry", kind: "class", start_line: 26, end_line: 28 },
      { name: "stores", kind: "variable", container: "Registry", start_line: 27, end_line: 27 },
      { name: "OrderId", kind: "type", start_line: 30, end_line: 30 },
      { name: "toOrderId", kind: "function", container: "String", start_line: 32, end_line: 32 },
      { name: "second", kind: "variable", container: "List", start_line: 34, end_line: 34 },
    ]);
  });

  it("find_symbol: an extension function by name and as `Receiver.name`", async () => {
    const expected = [`${MODEL}/Extensions.kt:3-3 Order.describe function | fun Order.describe(): String = id`];
    expect((await definitionsOf(root, "describe")).records).toEqual(expected);
    expect((await definitionsOf(root, "Order.describe")).records).toEqual(expected);
  });

  it("`val`/`var` parameters of a primary constructor are properties of the class; plain parameters are not", async () => {
    const facts = await factsOf(kotlin, 'data class P(val x: Int, private var y: String = "", z: Int) {\n  val w = 1\n}\nclass Q private constructor(@Ann val a: Int)\n');
    expect(facts.symbols).toEqual([
      { name: "P", kind: "class", start_line: 1, end_line: 3 },
      { name: "x", kind: "variable", container: "P", start_line: 1, end_line: 1 },
      { name: "y", kind: "variable", container: "P", start_line: 1, end_line: 1 },
      { name: "w", kind: "variable", container: "P", start_line: 2, end_line: 2 },
      { name: "Q", kind: "class", start_line: 4, end_line: 4 },
      { name: "a", kind: "variable", container: "Q", start_line: 4, end_line: 4 },
    ]);
  });

  it("a nested class whose primary constructor starts on the next line keeps the rest of the enclosing class", async () => {
    const src = "class Spec {\n  fun a() = 1\n\n  class Builder\n  internal constructor(internal val name: String) :\n    Base<Builder> {\n    fun build(): Spec = Spec()\n  }\n\n  fun b() = 2\n}\n";
    expect((await factsOf(kotlin, src)).symbols).toEqual([
      { name: "Spec", kind: "class", start_line: 1, end_line: 11 },
      { name: "a", kind: "method", container: "Spec", start_line: 2, end_line: 2 },
      { name: "Builder", kind: "class", container: "Spec", start_line: 4, end_line: 8 },
      { name: "name", kind: "variable", container: "Spec.Builder", start_line: 5, end_line: 5 },
      { name: "build", kind: "method", container: "Spec.Builder", start_line: 7, end_line: 7 },
      { name: "b", kind: "method", container: "Spec", start_line: 10, end_line: 10 },
    ]);
    // Same length and line count; the line break moves after the constructor's `(`.
    const prepared = joinKotlinConstructors(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n")[3]).toBe("  class Builder          constructor(");
  });

  it("a class after two annotation lines whose primary constructor has a visibility modifier is kept", async () => {
    // koin's KoinApplication.kt: the grammar read the class as an annotated expression.
    const src = "@OptIn(KoinInternalApi::class)\n@KoinApplicationDslMarker\nopen class KoinApplication protected constructor() {\n    val koin = Koin()\n    fun modules() {}\n}\n";
    expect((await factsOf(kotlin, src)).symbols).toEqual([
      { name: "KoinApplication", kind: "class", start_line: 1, end_line: 6 },
      { name: "koin", kind: "variable", container: "KoinApplication", start_line: 4, end_line: 4 },
      { name: "modules", kind: "method", container: "KoinApplication", start_line: 5, end_line: 5 },
    ]);
    expect(joinKotlinConstructors(src).split("\n")[2]).toBe("open class KoinApplication           constructor() {");
    // A secondary constructor's modifier is left alone.
    const secondary = "class A {\n  private constructor(x: Int) : this()\n}\n";
    expect(joinKotlinConstructors(secondary)).toBe(secondary);
  });

  it("a file-level declaration whose annotations are followed by a modifier keyword (annotation, expect, enum, data) is kept; an indented companion is left alone", async () => {
    // koin fff5291's Markers.kt (`@DslMarker` / `annotation class KoinDslMarker`) and KoinPlatformCoroutinesTools.kt
    // (`@KoinInternalApi` / `expect object …`): the grammar read each as an annotated expression and lost it.
    const src = [
      "package a",
      "",
      "@DslMarker",
      "annotation class KoinDslMarker",
      "",
      "@KoinInternalApi",
      "expect object Tools {",
      "    fun dispatcher(): Int",
      "}",
      "",
      '@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION) @Suppress("x")',
      "enum class Level { DEBUG }",
      "",
      "@Serializable",
      "data class Point(val x: Int)",
      "",
      "class Holder {",
      "    @ThreadLocal",
      "    companion object {",
      "        val shared = 1",
      "    }",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(kotlin, src)).symbols).toEqual([
      { name: "KoinDslMarker", kind: "class", start_line: 3, end_line: 4 },
      { name: "Tools", kind: "class", start_line: 6, end_line: 9 },
      { name: "dispatcher", kind: "method", container: "Tools", start_line: 8, end_line: 8 },
      { name: "Level", kind: "enum", start_line: 11, end_line: 12 },
      { name: "DEBUG", kind: "constant", container: "Level", start_line: 12, end_line: 12 },
      { name: "Point", kind: "class", start_line: 14, end_line: 15 },
      { name: "x", kind: "variable", container: "Point", start_line: 15, end_line: 15 },
      { name: "Holder", kind: "class", start_line: 17, end_line: 22 },
      { name: "Companion", kind: "class", container: "Holder", start_line: 18, end_line: 21 },
      { name: "shared", kind: "variable", container: "Holder", start_line: 20, end_line: 20 },
    ]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.length).toBe(src.split("\n").length);
    expect([prepared[2], prepared[3], prepared[18]]).toEqual(["annotation @DslMarker", "class KoinDslMarker", "    companion object {"]);
  });

  it("definitions inside a region the parser could not read are still found", async () => {
    // The grammar's automatic-semicolon scanner fails on this one-line companion body.
    const facts = await factsOf(kotlin, "class A {\n  constructor(x: Int) {}\n  companion object Factory { fun make() = A(1) }\n  inner class B\n}\n");
    expect(facts.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(["A", "make"]));
  });
});

describe("kotlin: imports", () => {
  it("a class, a nested class (longest prefix), a top-level function, an alias, a wildcard; libraries stay external", async () => {
    const r = (line: number, specifier: string, module: string, files: string[], alias?: string) => ({
      file: MAIN, line, end: line, specifier, module, files, external: files.length === 0, ...(alias !== undefined ? { alias } : {}),
    });
    expect(await resolvedImports(kotlin, project, MAIN)).toEqual([
      r(3, "com.shop.model.Order", "com.shop.model.Order", [`${MODEL}/Order.kt`]),
      r(4, "com.shop.model.Order.Status", "com.shop.model.Order", [`${MODEL}/Order.kt`]),
      r(5, "com.shop.model.describe", "com.shop.model.describe", [`${MODEL}/Extensions.kt`]),
      r(6, "com.shop.model.Registry", "com.shop.model.Registry", [`${MODEL}/Order.kt`], "Reg"),
      r(7, "com.shop.model.*", "com.shop.model", [`${MODEL}/Extensions.kt`, `${MODEL}/Order.kt`]),
      r(8, "kotlinx.coroutines.launch", "kotlinx.coroutines.launch", []),
    ]);
  });

  it("packages come from the package header, not the folder; declarations in comments do not count", async () => {
    const view = memoryProject({ "x/Any.kt": "package a.b\n// class Hidden\nclass Shown\nfun f() {\n  val local = 1\n}\n" });
    const res = (s: string) => kotlin.resolve({ specifier: s, start_line: 1, end_line: 1 }, "m.kt", view);
    expect(await res("a.b.Shown")).toEqual({ files: ["x/Any.kt"], module: "a.b.Shown", external: false });
    expect(await res("a.b.Hidden")).toEqual({ files: [], module: "a.b.Hidden", external: true });
    expect(await res("a.b.local")).toEqual({ files: [], module: "a.b.local", external: true });
  });

  it("find_importers: by file (the note names the same-package blind spot) and by qualified name (its file)", async () => {
    const byFile = await importersOf(root, `${MODEL}/Extensions.kt`);
    expect(byFile.records).toEqual([
      `${MAIN}:5-5 com.shop.model.describe | import com.shop.model.describe`,
      `${MAIN}:7-7 com.shop.model | import com.shop.model.*`,
    ]);
    expect(byFile.note).toContain(renderForModel(KOTLIN_BLIND_SPOT_NOTE));
    // A name targets its file: Registry lives in Order.kt, so Order's importers are listed too.
    expect((await importersOf(root, "com.shop.model.Registry")).records).toEqual([
      `${MAIN}:3-3 com.shop.model.Order | import com.shop.model.Order`,
      `${MAIN}:4-4 com.shop.model.Order | import com.shop.model.Order.Status`,
      `${MAIN}:6-6 com.shop.model.Registry alias=Reg | import com.shop.model.Registry as Reg`,
      `${MAIN}:7-7 com.shop.model | import com.shop.model.*`,
    ]);
  });
});
