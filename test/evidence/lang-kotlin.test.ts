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
      { name: "toOrderId", kind: "function", container: "String", extension: true, start_line: 32, end_line: 32 },
      { name: "second", kind: "variable", container: "List", extension: true, start_line: 34, end_line: 34 },
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

  it("a primary constructor with `actual` after a visibility modifier, or on the line after the class's name, keeps the class's members", async () => {
    // square/okio's ByteString.kt (Kotlin Multiplatform): every member of the class was lost.
    const top = "actual open class ByteString\ninternal actual constructor(\n  internal actual val data: ByteArray,\n) : Comparable<ByteString> {\n  actual open fun utf8(): String = \"\"\n}\n";
    expect((await factsOf(kotlin, top)).symbols).toEqual([
      { name: "ByteString", kind: "class", start_line: 1, end_line: 6 },
      { name: "data", kind: "variable", container: "ByteString", start_line: 3, end_line: 3 },
      { name: "utf8", kind: "method", container: "ByteString", start_line: 5, end_line: 5 },
    ]);
    const prepared = joinKotlinConstructors(top);
    expect(prepared.length).toBe(top.length);
    expect(prepared.split("\n")[1]).toBe("                constructor(");
    const sameLine = "class A internal actual constructor(val x: Int) {\n  fun f() = 1\n}\n";
    expect((await factsOf(kotlin, sameLine)).symbols.map((s) => `${s.container ?? ""}.${s.name}`)).toEqual([".A", "A.x", "A.f"]);
    const nested = "class O {\n  class A\n  internal actual constructor(val x: Int) {\n    fun f() = 1\n  }\n  fun g() = 2\n}\n";
    expect((await factsOf(kotlin, nested)).symbols.map((s) => `${s.container ?? ""}.${s.name}`)).toEqual([".O", "O.A", "O.A.x", "O.A.f", "O.g"]);
  });

  it("`get(x)` ending a statement's line is a call, not a getter (a getter takes no parameters): the functions after it keep their class", async () => {
    // square/okio's jvmMain ByteString.kt: `val copy = ByteArray(remaining())` ⏎ `get(copy)` lost the companion's members.
    const src = "class B {\n  companion object {\n    fun ByteBuffer.toB(): B {\n      val copy = ByteArray(remaining())\n      get(copy)\n      return B()\n    }\n\n    fun of(n: Int) = B()\n  }\n  val size: Int\n    get() = 1\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.container ?? ""}.${s.name} ${s.start_line}-${s.end_line}`)).toEqual([
      ".B 1-13",
      "B.Companion 2-10",
      "ByteBuffer.toB 3-7",
      "B.of 9-9",
      "B.size 11-12",
    ]);
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

  it("a `when` branch with a guard (`is T if cond ->`, also over lines) keeps the rest of the file", async () => {
    // JetBrains/Exposed 1be6647 ColumnType.kt and InstantColumnType.kt (Kotlin 2.1 guard conditions): the grammar lost the whole file.
    const src = [
      "class AutoInc(val seq: String?) {",
      "    fun sqlType(t: Any): String = when (t) {",
      "        is IntType if seq != null -> \"SERIAL\"",
      "        is LongType if (",
      "            seq != null &&",
      "                t.big",
      "            ) -> \"BIGSERIAL\"",
      "        else -> \"x\"",
      "    }",
      "    fun after() = 1",
      "}",
      "class Next",
      "",
    ].join("\n");
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["AutoInc:1", "seq:1", "sqlType:2", "after:10", "Next:12"]);
    const prepared = joinKotlinConstructors(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n").slice(2, 4)).toEqual(["        is IntType ,  seq != null -> \"SERIAL\"", "        is LongType ,  ("]);
  });

  it("an annotated accessor of a property without a type keeps the rest of the class", async () => {
    // Exposed's VendorDialect.kt: `protected val identifierManager` ⏎ `@OptIn(InternalApi::class)` ⏎ `get() = …`.
    const src = "abstract class VendorDialect {\n    protected val identifierManager\n        @OptIn(InternalApi::class)\n        get() = current()\n\n    abstract class NameProvider\n    fun name() = 1\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}:${s.container ?? ""}`)).toEqual([
      "VendorDialect:1:",
      "identifierManager:2:VendorDialect",
      "NameProvider:6:VendorDialect",
      "name:7:VendorDialect",
    ]);
    const prepared = joinKotlinConstructors(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n").slice(1, 4)).toEqual(["    @OptIn(InternalApi::class) protected val identifierManager", "       ", "        get() = current()"]);
  });

  it("`where` as a receiver or an assigned name at the start of a statement keeps the file; constraint clauses and named arguments are left alone", async () => {
    // Exposed's Query.kt (`where?.let { … }`, `where = predicate` in `fun where(…)`) and FunctionProvider.kt.
    const src = [
      "open class Query {",
      "    var where: Op? = null",
      "    fun where(predicate: Op): Query {",
      "        check()",
      "        where?.let { error(it) }",
      "        where = predicate",
      "        return this",
      "    }",
      "    fun <T> first(): T",
      "        where T : Any = f(",
      "        where = 1,",
      "    )",
      "    fun last() = 2",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["Query:1", "where:2", "where:3", "first:9", "last:13"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.slice(4, 6)).toEqual(["      (where)?.let { error(it) }", "      (where) = predicate"]);
    expect(prepared.slice(9, 11)).toEqual(["        where T : Any = f(", "        where = 1,"]);
  });

  it("a modifier keyword used as a name starting a statement (`inline = true`, `open?.let`) keeps the class; declarations and named arguments are left alone", async () => {
    // ajalt/clikt's MordantHelpFormatter.kt: `definitionList { … inline = true … }` lost every member after it.
    const src = [
      "class Formatter {",
      "    fun usage() = definitionList {",
      "        inline = true",
      "        open?.let { f(it) }",
      "        private.x = 2",
      "        entry(",
      "            inline = false,",
      "        )",
      "    }",
      "    private inline fun wrapped() = 1",
      "    fun last() = 2",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["Formatter:1", "usage:2", "wrapped:10", "last:11"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.slice(2, 5)).toEqual(["      `inline` = true", "      `open`?.let { f(it) }", "      `private`.x = 2"]);
    expect(prepared.slice(6, 10)).toEqual(["            inline = false,", "        )", "    }", "    private inline fun wrapped() = 1"]);
  });

  it("an infix call of a function named `get` (`insert { } get T.id`) keeps the file; getters and `private get` are left alone", async () => {
    // Exposed's tests: `val id = BlobTable.insert { … } get (BlobTable.id)` read as the property's getter.
    const src = "class T {\n    fun test() {\n        val id1 = table.insert { } get table.id\n        val id2 = table.insert {\n        } get (table.id)\n    }\n    var x = 1\n        private get\n    val y: Int get() = 1\n    fun last() = 2\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["T:1", "test:2", "x:7", "y:9", "last:10"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect([prepared[2], prepared[4], prepared[7], prepared[8]]).toEqual([
      "        val id1 = table.insert { }`get`table.id",
      "        }`get`(table.id)",
      "        private get",
      "    val y: Int get() = 1",
    ]);
  });

  it("a multi-dollar string (`$$\"${spring.x}\"`, `$$$\"\"\"…\"\"\"`) keeps the file; it is read as a plain string whose interpolations keep one `$`", async () => {
    // Exposed's ExposedAutoConfiguration.kt and JsonColumnTests.kt (Kotlin 2.2).
    const src = 'class C {\n    @Value($$"${spring.show-sql:false}")\n    private var showSql: Boolean = false\n    fun f() = $$"?(@ == $team) $$name" to "a $$\\"b\\" $y"\n    val raw = $$$"""${\'$\'} $$${y}"""\n    fun last() = 2\n}\n';
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["C:1", "showSql:2", "f:4", "raw:5", "last:6"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.slice(1, 5)).toEqual([
      '    @Value(  " {spring.show-sql:false}")',
      "    private var showSql: Boolean = false",
      '    fun f() =   "?(@ ==  team)  $name" to "a $$\\"b\\" $y"',
      '    val raw =    """ {\' \'}   ${y}"""',
    ]);
  });

  it("context parameters before a declaration and in a function type are blanked; a `context(x) { }` call is left alone", async () => {
    // Exposed's MavenProjectGeneration.kt (Kotlin 2.2 context parameters).
    const src = "class P {\n    context(_: VerificationScope)\n    fun check() = 1\n    context(a: A, b: B) private val x: Int get() = 1\n    fun configure(block: context(Scope) P.() -> Unit) {\n        context(Scope()) {\n            block()\n        }\n    }\n    fun last() = 2\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["P:1", "check:3", "x:4", "configure:5", "last:10"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect([prepared[1], prepared[3], prepared[4], prepared[5]]).toEqual([
      " ".repeat(33),
      `${" ".repeat(23)} private val x: Int get() = 1`,
      `    fun configure(block: ${" ".repeat(15)}P.() -> Unit) {`,
      "        context(Scope()) {",
    ]);
  });

  it("the standard library's `suspend { … }` (also with a call on the next line) keeps the file; `suspend fun` is left alone", async () => {
    // Exposed's TransactionCoroutineContextTests.kt: `suspend {` ⏎ … ⏎ `}` ⏎ `.startCoroutine(…)`.
    const src = "class T {\n    suspend fun run() {\n        suspend {\n            work()\n        }\n            .startCoroutine(c)\n        val s = suspend  { 1 }\n    }\n    fun last() = 2\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["T:1", "run:2", "last:9"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect([prepared[1], prepared[2], prepared[6]]).toEqual(["    suspend fun run() {", "       `suspend`{", "        val s =`suspend` { 1 }"]);
  });

  it("a file-level declaration whose annotations are followed by other modifiers, then a misread one (`public annotation class`), keeps the file", async () => {
    // arrow's Saga.kt and AutoCloseScope.kt: `@Target(…)` ⏎ `@RequiresOptIn` ⏎ `public annotation class X` lost every declaration of the file.
    const src = "package p\n\n@Target(AnnotationTarget.CLASS)\n@RequiresOptIn\npublic annotation class SagaImplementation\n\n@SubclassOptInRequired(SagaImplementation::class)\npublic interface SagaScope {\n  public fun bind(): Int\n}\n\n@A\n@B\ninternal data class D(val x: Int)\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["SagaImplementation:3", "SagaScope:7", "bind:9", "D:12", "x:14"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.length).toBe(src.split("\n").length);
    expect(prepared.slice(2, 5)).toEqual(["annotation @Target(AnnotationTarget.CLASS)", "@RequiresOptIn", "public class SagaImplementation"]);
    expect(prepared.slice(11, 14)).toEqual(["data @A", "@B", "internal class D(val x: Int)"]);
  });

  it("`suspend context(S)` starting a function type (a parameter's or a type alias's) is blanked after `suspend`", async () => {
    // arrow's resource/context/Resource.kt and arrow-raise-ktor-server's respondOrRaise.kt lost the rest of the file.
    const src = "package p\n\npublic fun <A> resource(block: suspend context(ResourceScope) () -> A): Resource<A> = block\n\npublic typealias H<T> = suspend context(Raise<R>) RoutingContext.(T) -> R\n\nfun last() = 2\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["resource:3", "H:5", "last:7"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect([prepared[2], prepared[4]]).toEqual([
      `public fun <A> resource(block: suspend ${" ".repeat(23)}() -> A): Resource<A> = block`,
      `public typealias H<T> = suspend ${" ".repeat(18)}RoutingContext.(T) -> R`,
    ]);
  });

  it("a trailing comma in type parameter and type argument lists (`fun <` ⏎ `T : A,` ⏎ `> R.f(`, `Map<A, B,>`) keeps the file; other commas are left alone", async () => {
    // arrow's suspendapp-ktor KtorServer.kt: from the second such list on, every declaration of the file was lost.
    const src = "package p\n\npublic suspend fun <\n  TE : A,\n  TC : B,\n  > R.server(f: Int, g: Int,): Int = 1\n\npublic fun <T : A,> R.other(): Int = 1\n\nval m: Map<A, B,> = mapOf(1 to 2)\n\nclass C<T : A,>(x: Int)\n\nfun last() = 2\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["server:3", "other:8", "m:10", "C:12", "last:14"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect([prepared[4], prepared[5], prepared[7], prepared[9]]).toEqual(["  TC : B ", "  > R.server(f: Int, g: Int,): Int = 1", "public fun <T : A > R.other(): Int = 1", "val m: Map<A, B > = mapOf(1 to 2)"]);
  });

  it("the `all` use-site target (`@all:JsonSetter(…)`) keeps the file; it is read as the plain annotation", async () => {
    // arrow's arrow-core-jackson DataHelpers.kt lost the nested enum and every declaration after it.
    const src = "package p\n\ndata class MapContainer<V>(@all:JsonSetter(contentNulls = Nulls.AS_EMPTY) val value: Map<Key, V>) {\n  enum class Key { First, Second }\n}\n\nfun <V> arbMapContainer(): Int = 1\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["MapContainer:3", "value:3", "Key:4", "First:4", "Second:4", "arbMapContainer:7"]);
    expect(joinKotlinConstructors(src).split("\n")[2]).toBe("data class MapContainer<V>(    @JsonSetter(contentNulls = Nulls.AS_EMPTY) val value: Map<Key, V>) {");
  });

  it("a call of a local named `set`/`get` starting a statement with more after it keeps the class; accessors are left alone", async () => {
    // arrow's AtomicIntTest.kt: `val set = { … }` ⏎ `set() shouldBe update()` was read as a setter and the class lost its later members.
    const src = "class T {\n  fun a() = run {\n    check { x ->\n      val set = {\n        1\n      }\n      set() shouldBe update()\n      get(x).also { }\n    }\n  }\n  var v: Int = 0\n    get() = field\n    set(value) { field = value }\n  val w: Int\n    get(): Int = 1\n  fun last() = 1\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.name}:${s.start_line}`)).toEqual(["T:1", "a:2", "v:11", "w:14", "last:16"]);
    const prepared = joinKotlinConstructors(src).split("\n");
    expect(prepared.slice(6, 8)).toEqual(["    `set`() shouldBe update()", "    `get`(x).also { }"]);
    expect(prepared.slice(11, 13)).toEqual(["    get() = field", "    set(value) { field = value }"]);
    expect(prepared[14]).toBe("    get(): Int = 1");
  });

  it("a file-level `class U {` / `interface U {` after two annotations, with a declaration after it, is read as the type with its members", async () => {
    // Exposed 1be6647 samples/exposed-spring/.../UserService.kt (`@Component` ⏎ `@Transactional` ⏎ `class UserService {`): read as annotated names
    // applied to a lambda, without an error; the class and its methods were lost.
    const src = "@Component\n@Transactional\nclass UserService {\n    fun find(id: Int) = 1\n    val size = 2\n}\n\n@A @B open class Other {\n    fun g() = 1\n}\n\n@A\n@B\ninterface Api {\n    fun call(): Int\n}\n\ndata class Request(val name: String)\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}-${s.end_line}${s.container ? ` in ${s.container}` : ""}`)).toEqual([
      "class UserService:1-6",
      "method find:4-4 in UserService",
      "variable size:5-5 in UserService",
      "class Other:8-10",
      "method g:9-9 in Other",
      "interface Api:12-16",
      "method call:15-15 in Api",
      "class Request:18-18",
      "variable name:18-18 in Request",
    ]);
  });

  it("a file-level bodiless `private class U` after annotations, with a declaration after it, is read as the class", async () => {
    // Exposed 1be6647 samples/springboot3-exposed-r2dbc/.../Application.kt: `@ImportRuntimeHints(…)` ⏎ `@SpringBootApplication` ⏎
    // `@EnableConfigurationProperties(…)` ⏎ `private class Application`, read as annotated names without an error; the class was lost.
    const src = "package a\n\n@ImportRuntimeHints(value = [R::class])\n@SpringBootApplication\n@EnableConfigurationProperties(value = [E::class])\nprivate class Application\n\ninternal suspend fun main(args: Array<String>): Unit = coroutineScope {\n    run(args)\n}\n";
    expect((await factsOf(kotlin, src)).symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}-${s.end_line}`)).toEqual(["class Application:3-6", "function main:8-10"]);
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

  it("an extension's receiver with nested type arguments is no declaration of the receiver's name; the function is", async () => {
    // arrow's RaiseAccumulate.kt (`fun <E, A> Raise<NonEmptyList<E>>.zipOrAccumulate`) was listed as declaring `Raise`.
    const view = memoryProject({
      "x/Acc.kt": "package a.b\npublic inline fun <E, A> Raise<NonEmptyList<E>>.zipOr(a: A) = 1\nfun <T : Comparable<T>> Map<K, List<Pair<A, B>>>.sortedish() = 2\nval <S, A> KProperty1<S, List<A>>.every: Int get() = 1\n",
      "x/Raise.kt": "package a.b\ninterface Raise<in E>\n",
    });
    const res = async (s: string) => (await kotlin.resolve({ specifier: s, start_line: 1, end_line: 1 }, "m.kt", view)).files;
    expect(await res("a.b.Raise")).toEqual(["x/Raise.kt"]);
    expect(await res("a.b.zipOr")).toEqual(["x/Acc.kt"]);
    expect(await res("a.b.sortedish")).toEqual(["x/Acc.kt"]);
    expect(await res("a.b.every")).toEqual(["x/Acc.kt"]);
    expect(await res("a.b.Map")).toEqual([]);
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
