/** Swift (`lang/swift.ts`): one test per rule. */
import { describe, expect, it } from "vitest";
import { swift } from "../../src/evidence/analysis/lang/swift.js";
import { prepareSwift } from "../../src/evidence/analysis/lang/swift-prepare.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { definitionsOf, factsOf, fixtureProject, importersOf, memoryProject, resolvedImports, scratchDir, symbolsIn } from "./lang-test-kit.js";

const { root, project } = fixtureProject("swift-project");
const GEO = ["Sources/Geometry/Point+Shape.swift", "Sources/Geometry/Point.swift"];

describe("swift: definitions", () => {
  it("structs, classes, actors, enums (cases), protocols (requirements), init, subscript, var/let per name, typealias, functions; ranges from attributes", async () => {
    expect(await symbolsIn(swift, project, "Sources/Geometry/Point.swift")).toEqual([
      { name: "Point", kind: "struct", start_line: 4, end_line: 21 },
      { name: "x", kind: "variable", container: "Point", start_line: 6, end_line: 6 },
      { name: "y", kind: "constant", container: "Point", start_line: 7, end_line: 7 },
      { name: "z", kind: "constant", container: "Point", start_line: 7, end_line: 7 },
      { name: "origin", kind: "constant", container: "Point", start_line: 8, end_line: 8 },
      { name: "init", kind: "method", container: "Point", start_line: 10, end_line: 14 },
      { name: "length", kind: "method", container: "Point", start_line: 16, end_line: 16 },
      { name: "subscript", kind: "method", container: "Point", start_line: 18, end_line: 18 },
      { name: "Axis", kind: "enum", container: "Point", start_line: 20, end_line: 20 },
      { name: "x", kind: "constant", container: "Point.Axis", start_line: 20, end_line: 20 },
      { name: "y", kind: "constant", container: "Point.Axis", start_line: 20, end_line: 20 },
      { name: "Shape", kind: "interface", start_line: 23, end_line: 26 },
      { name: "area", kind: "method", container: "Shape", start_line: 24, end_line: 24 },
      { name: "name", kind: "variable", container: "Shape", start_line: 25, end_line: 25 },
      { name: "Circle", kind: "class", start_line: 28, end_line: 31 },
      { name: "area", kind: "method", container: "Circle", start_line: 29, end_line: 29 },
      { name: "name", kind: "variable", container: "Circle", start_line: 30, end_line: 30 },
      { name: "Counter", kind: "class", start_line: 33, end_line: 35 },
      { name: "next", kind: "method", container: "Counter", start_line: 34, end_line: 34 },
      { name: "Vector", kind: "type", start_line: 37, end_line: 37 },
      { name: "distance", kind: "function", start_line: 39, end_line: 39 },
    ]);
  });

  it("`nonisolated(unsafe)` (Swift 5.10) keeps the declaration and the type around it", async () => {
    // Alamofire 7595cbc Source/Core/Protected.swift: `private nonisolated(unsafe) var value: Value` lost the class Protected.
    const src = "final class Protected<Value> {\n    private nonisolated(unsafe) var value: Value\n    init(_ value: Value) { self.value = value }\n    func read() {}\n}\nnonisolated( unsafe ) var shared = 1\nnonisolated func f() {}\n";
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}${s.container ? ` in ${s.container}` : ""}`)).toEqual([
      "class Protected:1",
      "variable value:2 in Protected",
      "method init:3 in Protected",
      "method read:4 in Protected",
      "variable shared:6",
      "function f:7",
    ]);
    const prepared = prepareSwift(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n")[5]).toBe("nonisolated           var shared = 1");
  });

  it("a suppressed conformance (~Copyable) and the access modifier `package` keep the type and its members", async () => {
    // apple/swift-collections f425dff Sources/BasicContainers/RigidSet/RigidSet.swift: `struct RigidSet<Element: Hashable & ~Copyable>: ~Copyable`
    // with `package init()` lost RigidSet's members (filed at top level or not at all).
    const src =
      "public struct RigidSet<Element: Hashable & ~Copyable>: ~Copyable {\n  package typealias Bucket = Int\n  package var count: Int = 0\n  package init() {}\n  func member(at i: Int) -> Int { i }\n}\nextension RigidSet where Element: ~Copyable {\n  package mutating func clear() {}\n}\nlet package = Package(name: \"x\")\nlet bits = ~mask\n";
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}${s.container ? ` in ${s.container}` : ""}`)).toEqual([
      "struct RigidSet:1",
      "type Bucket:2 in RigidSet",
      "variable count:3 in RigidSet",
      "method init:4 in RigidSet",
      "method member:5 in RigidSet",
      "method clear:8 in RigidSet",
      "constant package:10",
      "constant bits:11",
    ]);
    const prepared = prepareSwift(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n")[0]).toBe("public struct RigidSet<Element: Hashable &  Copyable>:  Copyable {");
    expect(prepared.split("\n").slice(9, 11)).toEqual(['let package = Package(name: "x")', "let bits = ~mask"]);
  });

  it("`__shared`/`__owned`/`sending` parameters keep their type; a `borrow` / `yielding mutate` accessor keeps the type around it", async () => {
    // apple/swift-collections f425dff: `init(_ leaf: __shared _Leaf)` (Rope+_UnmanagedLeaf.swift) gave no use of `_Leaf`;
    // RigidSet+Index.swift's `borrow { … _memberPtr(at:) … }` lost the subscript's body.
    const src = [
      "struct Box {",
      "  init(_ a: __shared Leaf, _ b: sending Leaf, _ c: __owned Leaf, _ d: borrowing Leaf) {}",
      "  subscript(i: Int) -> Int {",
      "    @_unsafeSelfDependentResult",
      "    borrow {",
      "      return _memberPtr(at: i).pointee",
      "    }",
      "    yielding mutate {",
      "      yield &storage[i]",
      "    }",
      "  }",
      "  func after() {}",
      "}",
      "",
    ].join("\n");
    const facts = await factsOf(swift, src);
    expect(facts.symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}${s.container ? ` in ${s.container}` : ""}`)).toContain("method after:12 in Box");
    const uses = (facts.references?.uses ?? []).map((u) => `${u.path.join(".")}:${u.line}`);
    expect(uses.filter((u) => u.startsWith("Leaf:"))).toEqual(["Leaf:2", "Leaf:2", "Leaf:2", "Leaf:2"]);
    expect(uses).toContain("_memberPtr:6");
    const prepared = prepareSwift(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n")[4]).toBe("    _read  {");
  });

  it("deinit, init?/init!, macro declarations, operator declarations and precedence groups are definitions", async () => {
    const src = [
      "@freestanding(expression)",
      "public macro stringify<T>(_ value: T) -> (T, String) = #externalMacro(module: \"M\", type: \"S\")",
      "@attached(member, names: named(init))",
      "macro AddInit() = #externalMacro(module: \"M\", type: \"A\")",
      "final class Grid {",
      "    init?(size: Int) {}",
      "    init!(name: String) {}",
      "    deinit {}",
      "}",
      "infix operator <~> : PowerPrecedence",
      "prefix operator √",
      "precedencegroup PowerPrecedence { higherThan: MultiplicationPrecedence }",
      "func <~> (a: Int, b: Int) -> Int { a }",
    ].join("\n");
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.kind} ${s.container ?? ""}.${s.name}:${s.start_line}-${s.end_line}`)).toEqual([
      "function .stringify:1-2",
      "function .AddInit:3-4",
      "class .Grid:5-9",
      "method Grid.init:6-6",
      "method Grid.init:7-7",
      "method Grid.deinit:8-8",
      "function .<~>:10-10",
      "function .√:11-11",
      "type .PowerPrecedence:12-12",
      "function .<~>:13-13",
    ]);
  });

  it("a tuple pattern binds one definition per name (`let (lo, hi) = …`, nested too)", async () => {
    const src = "struct W {\n    let (lo, hi) = (0, 1)\n    var (a, (b, c)): (Int, (Int, Int)) = (1, (2, 3))\n}\n";
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.kind} ${s.container ?? ""}.${s.name}:${s.start_line}`)).toEqual([
      "struct .W:1", "constant W.lo:2", "constant W.hi:2", "variable W.a:3", "variable W.b:3", "variable W.c:3",
    ]);
  });

  it("typed throws after async (`async throws(E)`) keeps the declaration", async () => {
    // apple/swift-log 7af2de1 Sources/Logging/Logger+With.swift: six `withLogger` functions were lost.
    const src = "public func withLogger<R, Failure: Error>(\n    _ op: (Int) async throws(Failure) -> R\n) async throws(Failure) -> R {\n    try await op(1)\n}\nfunc after() {}\n";
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.name}:${s.start_line}-${s.end_line}`)).toEqual(["withLogger:1-5", "after:6-6"]);
    const prepared = prepareSwift(src);
    expect(prepared.length).toBe(src.length);
    expect(prepared.split("\n").slice(1, 3)).toEqual(["    _ op: (Int)       throws(Failure) -> R", ")       throws(Failure) -> R {"]);
  });

  it("`nonisolated(nonsending)` keeps the declaration's attributes and, in a type body, the type's members", async () => {
    // apple/swift-log 7af2de1 Sources/Logging/Logger+With.swift: `withLogger` began after its `@available`/`@inlinable` lines.
    const src = [
      "struct S {",
      "    @inlinable",
      "    nonisolated(nonsending) var x: Int { 1 }",
      "    nonisolated(nonsending) func f() async {}",
      "}",
      "@inlinable",
      "public nonisolated(nonsending) func g(_ op: nonisolated(nonsending) () async -> Void) {}",
    ].join("\n");
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.container ?? ""}.${s.name}:${s.start_line}-${s.end_line}`)).toEqual([".S:1-5", "S.x:2-3", "S.f:4-4", ".g:6-7"]);
    expect(prepareSwift(src).split("\n")[6]).toBe("public nonisolated             func g(_ op: nonisolated             () async -> Void) {}");
  });

  it("`try await f()` as a condition's value (`if let r = try await f() {`) keeps the function around it; `for try await` stays", async () => {
    // Quick/Nimble 035b88a Sources/Nimble/Utils/AsyncAwait.swift: `pollBlock` was lost, its `let iterations` filed at top level.
    const src = [
      "func poll() async {",
      "    do {",
      "        if case .finished(let r) = try await next() {",
      "            return",
      "        }",
      "        if let q = try? await next() { }",
      "        for try await x in stream { }",
      "    } catch {",
      "        return",
      "    }",
      "    let local = 1",
      "}",
      "func after() {}",
    ].join("\n");
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.name}:${s.start_line}-${s.end_line}`)).toEqual(["poll:1-12", "after:13-13"]);
    const lines = prepareSwift(src).split("\n");
    expect([lines[2], lines[5], lines[6]]).toEqual(["        if case .finished(let r) = try       next() {", "        if let q = try?       next() { }", "        for try await x in stream { }"]);
  });

  it("a protocol's associatedtype is a type with the protocol as container", async () => {
    // Alamofire 7595cbc's AlamofireExtended.swift: `associatedtype ExtendedType` was missed.
    const src = "public protocol AlamofireExtended {\n    associatedtype ExtendedType\n    associatedtype Element: Equatable = Int\n    var af: Int { get }\n}\n";
    expect((await factsOf(swift, src)).symbols).toEqual([
      { name: "AlamofireExtended", kind: "interface", start_line: 1, end_line: 5 },
      { name: "ExtendedType", kind: "type", container: "AlamofireExtended", start_line: 2, end_line: 2 },
      { name: "Element", kind: "type", container: "AlamofireExtended", start_line: 3, end_line: 3 },
      { name: "af", kind: "variable", container: "AlamofireExtended", start_line: 4, end_line: 4 },
    ]);
  });

  it("members of an extension belong to the extended type (`where` clauses too); the extension itself is no definition", async () => {
    expect(await symbolsIn(swift, project, "Sources/Geometry/Point+Shape.swift")).toEqual([
      { name: "area", kind: "method", container: "Point", start_line: 2, end_line: 2 },
      { name: "name", kind: "variable", container: "Point", start_line: 3, end_line: 3 },
      { name: "centroid", kind: "method", container: "Array", start_line: 7, end_line: 7 },
    ]);
    expect((await definitionsOf(root, "Point.area")).records).toEqual(["Sources/Geometry/Point+Shape.swift:2-2 Point.area method |     public func area() -> Double { 0 }"]);
  });

  it("an extension of a nested type (`extension Outer.Inner`) gives its members the nested type's qualified name", async () => {
    const src = "struct Outer {\n  enum Inner { case a }\n}\nextension Outer.Inner {\n  static func < (lhs: Self, rhs: Self) -> Bool { true }\n  var flag: Bool { true }\n}\n";
    expect((await factsOf(swift, src)).symbols.map((s) => `${s.container ?? ""}.${s.name} ${s.kind} ${s.start_line}`)).toEqual([
      ".Outer struct 1", "Outer.Inner enum 2", "Outer.Inner.a constant 2", "Outer.Inner.< method 5", "Outer.Inner.flag variable 6",
    ]);
  });
});

describe("swift: imports", () => {
  it("import M → the files of SwiftPM target M (default Sources/M, or its path:); `import struct M.T` names T; Foundation is external", async () => {
    const r = (line: number, specifier: string, files: string[], extra: object = {}) => ({ file: "Sources/App/main.swift", line, end: line, specifier, module: specifier, files, external: files.length === 0, ...extra });
    expect(await resolvedImports(swift, project, "Sources/App/main.swift")).toEqual([
      r(1, "Geometry", GEO),
      r(2, "Util", ["Custom/Util/Log.swift"]),
      r(3, "Geometry", GEO, { names: ["Point"] }),
      r(4, "Foundation", []),
    ]);
  });

  it("@testable import carries the flag; test targets live under Tests/", async () => {
    expect(await resolvedImports(swift, project, "Tests/GeometryTests/PointTests.swift")).toEqual([
      { file: "Tests/GeometryTests/PointTests.swift", line: 1, end: 1, specifier: "XCTest", module: "XCTest", files: [], external: true },
      { file: "Tests/GeometryTests/PointTests.swift", line: 2, end: 2, specifier: "Geometry", module: "Geometry", files: GEO, external: false, flags: ["testable"] },
    ]);
    expect(await swift.moduleNames?.("Tests/GeometryTests/PointTests.swift", project)).toEqual(["GeometryTests"]);
  });

  it("without a manifest naming the module, a Sources/<M> folder anywhere; a commented-out target does not count", async () => {
    const view = memoryProject({ "pkg/Sources/Core/A.swift": "", "Package.swift": '// .target(name: "Core", path: "Elsewhere")\n' });
    expect(await swift.resolve({ specifier: "Core", start_line: 1, end_line: 1 }, "x.swift", view)).toEqual({ files: ["pkg/Sources/Core/A.swift"], module: "Core", external: false });
  });

  it("find_importers: by module name, by a file of a target, by an external module", async () => {
    expect((await importersOf(root, "Geometry")).records).toEqual([
      "Sources/App/main.swift:1-1 Geometry | import Geometry",
      "Sources/App/main.swift:3-3 Geometry | import struct Geometry.Point",
      "Tests/GeometryTests/PointTests.swift:2-2 Geometry flags=testable | @testable import Geometry",
    ]);
    expect((await importersOf(root, "Custom/Util/Log.swift")).records).toEqual(["Sources/App/main.swift:2-2 Util | import Util"]);
    expect((await importersOf(root, "XCTest")).records).toEqual(["Tests/GeometryTests/PointTests.swift:1-1 XCTest | import XCTest"]);
  });
});

describe("swift: find_importers of a module of many files", () => {
  const dir = scratchDir("codecite-swift-many-");
  const names = ["Alpha", "Beta", "Delta", "Epsilon", "Eta", "Gamma", "Zeta"];
  mkdirSync(join(dir, "Sources/Net/Core"), { recursive: true });
  for (const n of names) {
    writeFileSync(join(dir, `Sources/Net/${n === "Alpha" ? "" : "Core/"}${n}.swift`), `public struct ${n} {}\n`);
  }
  mkdirSync(join(dir, "Sources/App"), { recursive: true });
  writeFileSync(join(dir, "Sources/App/main.swift"), "import Net\n");

  it("the note counts the module's files and names five (Alamofire's note listed all 43: 1,681 characters)", async () => {
    const r = await importersOf(dir, "Net");
    expect(r.records).toEqual(["Sources/App/main.swift:1-1 Net | import Net"]);
    expect(r.note).toBe(
      "'Net' names 7 files: Sources/Net/Alpha.swift, Sources/Net/Core/Beta.swift, Sources/Net/Core/Delta.swift, Sources/Net/Core/Epsilon.swift, Sources/Net/Core/Eta.swift and 2 more.",
    );
  });
});
