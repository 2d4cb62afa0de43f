/** find_references for C, C++, C#, Kotlin, PHP, Swift and Ruby over small fixtures (issue 15): one test per rule of each language's `*-references.ts`. */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findReferences } from "../../src/evidence/references.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import type { FindReferencesArgs } from "../../src/evidence/args.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { noteOf } from "../helpers/note.js";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/references");
const refs = (ws: Workspace, name: string, extra: Partial<FindReferencesArgs> = {}) => findReferences(ws, { name, max_results: 50, ...extra });
/** `path:line flags context` per record. */
const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line} ${(e.flags ?? []).join(",")} ${e.context ?? "-"}`);

describe("find_references: C", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "c"));
  });

  it("a function declared in an included header: calls and values in the files that include it; not a parameter of the same name, a comment, a string, or a file that does not include the header", async () => {
    const r = await refs(ws, "util_add", { path: "src/util.c" });
    expect(where(r)).toEqual(["src/main.c:11 call main", "src/main.c:16 value main", "src/util.c:12 call util_scale"]);
    expect(r.evidence[0]).toMatchObject({ kind: "reference", name: "util_add", language: "c", snippet: "  int total = util_add(origin.x, 3);" });
  });

  it("a static function of another file is its own definition", async () => {
    expect(where(await refs(ws, "util_add", { path: "tools/standalone.c" }))).toEqual(["tools/standalone.c:4 call run"]);
  });

  it("struct tags and typedef names are type uses; the declaration in the header counts", async () => {
    expect(where(await refs(ws, "point"))).toEqual([
      "include/util.h:12 type include/util.h",
      "include/util.h:15 type include/util.h",
      "src/util.c:11 type util_scale",
    ]);
    expect(where(await refs(ws, "point_t"))).toEqual(["src/main.c:10 type main"]);
  });

  it("a prototype behind an export macro (EXPORT(type) f(args);) declares f for the files that include it", async () => {
    expect(where(await refs(ws, "util_sub"))).toEqual(["src/main.c:16 call main"]);
  });

  it("macros: uses in code and in #if conditions", async () => {
    expect(where(await refs(ws, "UTIL_MAX"))).toEqual(["src/main.c:13 value main", "src/main.c:14 value main", "src/util.c:4 value clamp"]);
  });
});

describe("find_references: C++", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "cpp"));
  });

  it("a method defined out of line: bare calls in the class's methods and calls on receivers declared with the class (a reference parameter)", async () => {
    expect(where(await refs(ws, "Shape.area"))).toEqual(["src/shapes.cpp:9 call geo.Shape.scale", "src/shapes.cpp:14 call geo.total_area"]);
  });

  it("an inherited method on a subclass instance, through using namespace and the base named inside the namespace", async () => {
    expect(where(await refs(ws, "Shape.scale"))).toEqual(["src/app.cpp:12 call main"]);
  });

  it("a namespace function: qualified and through using namespace; a parameter of the same name and a comment are not uses", async () => {
    expect(where(await refs(ws, "total_area"))).toEqual(["src/app.cpp:14 call main", "src/app.cpp:16 call main"]);
  });

  it("a class: base clause (inherit), declared types, new (call), qualified method definitions", async () => {
    expect(where(await refs(ws, "geo::Shape"))).toEqual([
      "include/geo/shapes.h:15 inherit include/geo/shapes.h",
      "include/geo/shapes.h:24 type include/geo/shapes.h",
      "src/app.cpp:13 type main",
      "src/shapes.cpp:5 type src/shapes.cpp",
      "src/shapes.cpp:7 type src/shapes.cpp",
      "src/shapes.cpp:14 type geo.total_area",
    ]);
    expect(where(await refs(ws, "Circle"))).toEqual(["src/app.cpp:11 type main", "src/app.cpp:13 call main", "src/shapes.cpp:12 type src/shapes.cpp"]);
  });

  it("templates: an explicit or partial specialization names the primary template, and its arguments are types; a trailing return type, decltype(…), and a non-type template parameter written by a macro (GEO_ENABLE_IF(is_unit<T>::value)) hold uses", async () => {
    expect(where(await refs(ws, "is_unit"))).toEqual([
      "include/geo/traits.h:8 type include/geo/traits.h",
      "include/geo/traits.h:11 type include/geo/traits.h",
      "include/geo/traits.h:13 value include/geo/traits.h",
      "include/geo/traits.h:17 call geo.probe",
    ]);
    expect(where(await refs(ws, "pair_of"))).toEqual(["include/geo/traits.h:11 type include/geo/traits.h", "include/geo/traits.h:16 type geo.wrap"]);
  });
});

describe("find_references: C#", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "csharp"));
  });

  it("a class through using, and fully qualified; not the class of the same name in another namespace", async () => {
    expect(where(await refs(ws, "Order", { path: "Shop.Core/Order.cs" }))).toEqual([
      "Shop.App/Checkout.cs:8 call Checkout",
      "Shop.App/Checkout.cs:8 type Checkout",
      "Shop.App/Checkout.cs:10 type Checkout.Run",
      "Shop.App/Checkout.cs:13 call Checkout.Run",
      "Shop.Other/Order.cs:11 call Use.Qualified",
      "Shop.Other/Order.cs:11 type Use.Qualified",
    ]);
  });

  it("a method on a field and a local declared with the class (var x = new C()); a delegate parameter of the same name and a string are not uses", async () => {
    expect(where(await refs(ws, "Order.AddLine", { path: "Shop.Core/Order.cs" }))).toEqual(["Shop.App/Checkout.cs:12 call Checkout.Run", "Shop.App/Checkout.cs:14 call Checkout.Run"]);
    expect(where(await refs(ws, "Order.AddLine", { path: "Shop.Other/Order.cs" }))).toEqual(["Shop.Other/Order.cs:10 call Use.Go"]);
  });

  it("members of a partial class are seen from every part (same namespace); an inherited member by bare name", async () => {
    expect(where(await refs(ws, "Order.Total"))).toEqual(["Shop.Core/Order.Pricing.cs:8 value Order.Recalculate", "Shop.Core/Order.cs:9 value Order.AddLine"]);
    expect(where(await refs(ws, "Order.Recalculate"))).toEqual(["Shop.Core/Order.cs:10 call Order.AddLine"]);
    expect(where(await refs(ws, "Entity.Touch"))).toEqual(["Shop.Core/Order.cs:11 call Order.AddLine"]);
  });

  it("a partial class whose parts are in two files of one namespace is one definition: its uses, and a member of one part called bare from the other", async () => {
    expect(where(await refs(ws, "PriceRules"))).toEqual(["Shop.App/Invoice.cs:7 value Invoice.Due"]);
    expect(where(await refs(ws, "PriceRules.Round"))).toEqual(["Shop.App/Invoice.cs:7 call Invoice.Due", "Shop.Core/Pricing/PriceRules.Tax.cs:5 call PriceRules.Tax"]);
  });

  it("two classes of one name in one namespace without `partial` (two projects' Clock) are two definitions: the name alone is ambiguous, a path picks one", async () => {
    await expect(refs(ws, "Clock")).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("matches 2 definitions") });
    expect(where(await refs(ws, "Clock.Ticks", { path: "Shop.App/Tools/Clock.cs" }))).toEqual([]);
  });

  it("a member of a predefined type (decimal.Round(…), string.Join(…)) is no by_name use of a repository method of that name", async () => {
    expect(where(await refs(ws, "PriceRules.Round"))).toEqual(["Shop.App/Invoice.cs:7 call Invoice.Due", "Shop.Core/Pricing/PriceRules.Tax.cs:5 call PriceRules.Tax"]);
  });

  it("an extension method (this StringBuilder builder) on a receiver of the extended type outside the repository, where its static class's namespace is used; not in a file without that using", async () => {
    expect(where(await refs(ws, "AppendSlug"))).toEqual(["Shop.App/Receipt.cs:8 call Receipt.Print"]);
  });

  it("a base class in the base list is an inherit use", async () => {
    expect(where(await refs(ws, "Entity"))).toEqual(["Shop.Core/Order.cs:3 inherit Shop.Core/Order.cs"]);
  });

  it("a using after a file-scoped namespace is read relative to it (using Core.Audit in namespace Shop → Shop.Core.Audit)", async () => {
    expect(where(await refs(ws, "Auditor"))).toEqual(["Shop.App/Report.cs:10 call Report.Run"]);
    expect(where(await refs(ws, "Auditor.Log"))).toEqual(["Shop.App/Report.cs:11 call Report.Run"]);
  });
});

describe("find_references: C# projects", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "csharp-projects"));
  });

  it("a global using in one file of a project makes its namespace seen in every file of that project (below the same .csproj), not in another project", async () => {
    // serilog/serilog's src/Serilog/GlobalUsings.cs: Logger.cs calls new FixedPropertyEnricher(…) of Serilog.Core.Enrichers without a using.
    expect(where(await refs(ws, "Slug", { path: "Lib/Text/Slug.cs" }))).toEqual([
      "Lib/Pages/Page.cs:6 call Page",
      "Lib/Pages/Page.cs:6 type Page",
      "Lib/Pages/Page.cs:8 value Page.Head",
    ]);
  });

  it("a constructor of a nested class asked for on its own (Part.Part) is named by each new Part(…), not by the type's other uses", async () => {
    // serilog's KeyValuePairSettings.ConfigurationMethodCall.ConfigurationMethodCall: no use was listed.
    expect(where(await refs(ws, "Part.Part"))).toEqual(["Lib/Pages/Page.cs:8 call Page.Head", "Lib/Text/Slug.cs:9 call Slug.First"]);
  });

  it("a nested type named bare inside its class, as a parameter or return type, is a use of it", async () => {
    // serilog's KeyValuePairSettings: ApplyDirectives(List<IGrouping<string, ConfigurationMethodCall>> …) named no use.
    expect(where(await refs(ws, "Slug.Part"))).toEqual([
      "Lib/Pages/Page.cs:8 call Page.Head",
      "Lib/Pages/Page.cs:8 type Page.Head",
      "Lib/Text/Slug.cs:9 call Slug.First",
      "Lib/Text/Slug.cs:9 type Slug.First",
    ]);
  });
});

describe("find_references: C++ data members", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "cpp-members"));
  });

  it("a data member is named bare in its class's methods, through this->, through obj. and ptr-> of a declared type, and a static one through A::⏎ b", async () => {
    // fmtlib/fmt: members such as basic_memory_buffer's fields had no definition to ask for.
    expect(where(await refs(ws, "Box.width"))).toEqual(["src/box.cpp:6 value geo.Box.area", "src/box.cpp:9 value geo.Box.grow", "src/box.cpp:15 value use", "src/box.cpp:23 value count"]);
    expect(where(await refs(ws, "Box.height"))).toEqual(["src/box.cpp:6 value geo.Box.area", "src/box.cpp:10 value geo.Box.grow", "src/box.cpp:16 value use"]);
    expect(where(await refs(ws, "Box.made"))).toEqual(["src/box.cpp:17 value use", "src/box.cpp:23 value count"]);
  });

  it("a file-level variable is a definition (its `extern` in a header a declaration); `int Box::made = 0;` is the static member's definition site", async () => {
    expect(where(await refs(ws, "total"))).toEqual(["src/box.cpp:23 value count"]);
    const made = await findSymbol(ws, { name: "Box.made", max_results: 10 });
    expect(made.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/box.cpp:4"]);
    const total = await findSymbol(ws, { name: "total", max_results: 10 });
    expect(total.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/box.cpp:21"]);
  });
});

describe("find_references: C# usings of the MSBuild files", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "csharp-msbuild"));
  });

  it("<Using Include> items of the .csproj and its Directory.Build.props, and ImplicitUsings, are global usings of the project; Remove, disable, Static, comments and $(…) values are not", async () => {
    // dahlsailrunner/automated-testing-aspnetcore10: CarvedRock.ApiTests.csproj's <Using Include="CarvedRock.ApiTests.Utils" /> is how its tests see ApiTestsBase.
    expect(where(await refs(ws, "Slug"))).toEqual(["Suite/App/Run.cs:7 call Run.Name", "Suite/App/Run.cs:7 type Run.Name"]);
    expect(where(await refs(ws, "Helper"))).toEqual(["Suite/App/Run.cs:11 call Run.Make", "Suite/App/Run.cs:11 type Run.Make"]);
    // In Off/Loose.cs, Sequence is unknown: Twice on it is only a by_name use (one class defines it).
    expect(where(await refs(ws, "Sequence.Twice"))).toEqual(["Suite/App/Run.cs:9 call Run.Count", "Suite/Off/Loose.cs:8 call,by_name Loose.Count"]);
    expect(where(await refs(ws, "Secret"))).toEqual([]);
  });

  it("the Web and Worker SDKs add their own implicit usings (Microsoft.Extensions.Hosting, …): a class a repository puts there is seen in their projects", async () => {
    // jasontaylordev/CleanArchitecture puts its AddXxxServices extensions in Microsoft.Extensions.DependencyInjection/.Hosting for its Web project.
    // Extra/Plain.cs (Microsoft.NET.Sdk, ImplicitUsings off) does not see HostSetup.
    expect(where(await refs(ws, "HostSetup"))).toEqual(["Jobs/Worker.cs:5 value Worker.Port", "Site/Program.cs:5 value Program.Port"]);
    expect(where(await refs(ws, "HostSetup.Port"))).toEqual(["Jobs/Worker.cs:5 call Worker.Port", "Site/Program.cs:5 call Program.Port"]);
  });
});

describe("find_references: C# receivers", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "csharp-loops"));
  });

  it("this.m() is the enclosing class's member, not a member of a receiver of unknown type (another class defining Log is not named)", async () => {
    expect(where(await refs(ws, "Validator.Log"))).toEqual(["src/Validator.cs:18 call Validator.Run"]);
    const audit = await refs(ws, "Audit.Log");
    expect(where(audit)).toEqual([]);
    expect(noteOf(audit)).not.toContain("left out");
  });

  it("foreach (var x in items) over a field T[], a property List<T> (this.Extra), a parameter IEnumerable<T> and a local new List<T>() makes x a T", async () => {
    expect(where(await refs(ws, "IRule.Check"))).toEqual(["src/Validator.cs:21 call Validator.Run", "src/Validator.cs:23 call Validator.Run", "src/Validator.cs:25 call Validator.Run", "src/Validator.cs:27 call Validator.Run"]);
    expect(where(await refs(ws, "Audit.Check"))).toEqual([]);
  });
});

describe("find_references: Kotlin", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "kotlin"));
  });
  const core = "src/main/kotlin/shop/core";

  it("a class through an import and an import alias, in its own package without import, as a type and a call C(…), in the path of an imported companion member (import a.C.Companion.m); not the class of the same name in another package", async () => {
    expect(where(await refs(ws, "Order", { path: `${core}/Order.kt` }))).toEqual([
      "src/main/kotlin/shop/app/Checkout.kt:3 import src/main/kotlin/shop/app/Checkout.kt",
      "src/main/kotlin/shop/app/Checkout.kt:4 import src/main/kotlin/shop/app/Checkout.kt",
      "src/main/kotlin/shop/app/Checkout.kt:8 call Checkout",
      "src/main/kotlin/shop/app/Checkout.kt:12 value Checkout.run",
      "src/main/kotlin/shop/app/Restock.kt:3 import src/main/kotlin/shop/app/Restock.kt",
      `${core}/Order.kt:16 call Order.empty`,
      `${core}/Order.kt:16 type Order.empty`,
      `${core}/Order.kt:20 type describe`,
      `${core}/Pricing.kt:3 type price`,
    ]);
  });

  it("a method on a property bound to C(…) and a parameter declared C; a function-typed parameter of the same name, a comment and a string are not uses", async () => {
    const r = await refs(ws, "Order.addLine", { path: `${core}/Order.kt` });
    expect(where(r)).toEqual(["src/main/kotlin/shop/app/Checkout.kt:11 call Checkout.run", `${core}/Pricing.kt:4 call price`]);
    expect(where(await refs(ws, "Order.addLine", { path: "src/main/kotlin/shop/other/Order.kt" }))).toEqual(["src/main/kotlin/shop/other/Order.kt:7 call use"]);
  });

  it("extension functions on a typed receiver, inherited members by bare name, properties", async () => {
    expect(where(await refs(ws, "Order.describe"))).toEqual(["src/main/kotlin/shop/app/Checkout.kt:17 call Checkout.run"]);
    expect(where(await refs(ws, "Entity.touch"))).toEqual([`${core}/Order.kt:12 call Order.addLine`]);
    expect(where(await refs(ws, "Order.total"))).toEqual([`${core}/Order.kt:11 value Order.addLine`, `${core}/Pricing.kt:5 value price`]);
  });

  it("companion members: through an import alias (Purchase.empty()) and imported through Companion (import a.C.Companion.m), called by the bare name", async () => {
    expect(where(await refs(ws, "Order.empty"))).toEqual([
      "src/main/kotlin/shop/app/Checkout.kt:12 call Checkout.run",
      "src/main/kotlin/shop/app/Restock.kt:3 import src/main/kotlin/shop/app/Restock.kt",
      "src/main/kotlin/shop/app/Restock.kt:5 call restock",
    ]);
  });

  it("a named companion (companion object Factory): its members imported through its name and called through C.Factory.m(); the import's path names the class", async () => {
    expect(where(await refs(ws, "Catalog.make"))).toEqual([
      "src/main/kotlin/shop/app/Stock.kt:3 import src/main/kotlin/shop/app/Stock.kt",
      "src/main/kotlin/shop/app/Stock.kt:5 call stock",
      "src/main/kotlin/shop/app/Stock.kt:7 call again",
    ]);
    expect(where(await refs(ws, "Catalog"))).toEqual([
      "src/main/kotlin/shop/app/Stock.kt:3 import src/main/kotlin/shop/app/Stock.kt",
      "src/main/kotlin/shop/app/Stock.kt:7 value again",
      `${core}/Catalog.kt:5 call Catalog.make`,
      `${core}/Catalog.kt:5 type Catalog.make`,
    ]);
  });

  it("a top-level function imported by name", async () => {
    expect(where(await refs(ws, "price"))).toEqual(["src/main/kotlin/shop/app/Checkout.kt:5 import src/main/kotlin/shop/app/Checkout.kt", "src/main/kotlin/shop/app/Checkout.kt:17 call Checkout.run"]);
  });
});

describe("find_references: Kotlin extensions", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "kotlin"));
  });

  it("a file-level extension function (fun String.slug()) is imported by name and called bare inside another extension; on a receiver of its type or of unknown type only where imported or in its package; a value of its name (slug.length) is none", async () => {
    const expected = [
      "src/main/kotlin/shop/app/Labels.kt:3 import src/main/kotlin/shop/app/Labels.kt",
      "src/main/kotlin/shop/app/Labels.kt:5 call label",
      "src/main/kotlin/shop/app/Labels.kt:7 call,by_name labels",
      "src/main/kotlin/shop/core/Text.kt:5 call tag",
    ];
    expect(where(await refs(ws, "String.slug"))).toEqual(expected);
  });
});

describe("find_references: Kotlin member extensions", () => {
  it("an extension a class declares in its body (private fun Builder.build()) is called bare inside the class, also in a lambda; not another class's method of that name", async () => {
    const ws = await Workspace.open(path.join(fixtures, "kotlin-member-extensions"));
    expect(where(await refs(ws, "Builder.build"))).toEqual(["src/main/kotlin/gen/Generator.kt:11 call Generator.run"]);
    expect(where(await refs(ws, "Other.build"))).toEqual(["src/main/kotlin/gen/Generator.kt:25 call Other.go"]);
  });
});

describe("find_references: Kotlin annotations", () => {
  it("an annotation on a property, a constructor property and a function parameter is a type use", async () => {
    const ws = await Workspace.open(path.join(fixtures, "kotlin"));
    expect(where(await refs(ws, "Audited"))).toEqual([
      "src/main/kotlin/shop/core/Audited.kt:5 type src/main/kotlin/shop/core/Audited.kt",
      "src/main/kotlin/shop/core/Audited.kt:8 type Ledger",
      "src/main/kotlin/shop/core/Audited.kt:9 type Ledger.post",
    ]);
  });
});

describe("find_references: Kotlin packages", () => {
  it("import of a package that holds a top-level declaration of the package's last name (package shop.optics, annotation class optics) reaches the package's declarations", async () => {
    const ws = await Workspace.open(path.join(fixtures, "kotlin-package-names"));
    expect(where(await refs(ws, "Prism"))).toEqual(["src/main/kotlin/shop/app/App.kt:3 import src/main/kotlin/shop/app/App.kt", "src/main/kotlin/shop/app/App.kt:9 type run"]);
    expect(where(await refs(ws, "optics"))).toEqual(["src/main/kotlin/shop/app/App.kt:4 import src/main/kotlin/shop/app/App.kt", "src/main/kotlin/shop/app/App.kt:6 type src/main/kotlin/shop/app/App.kt"]);
    expect(where(await refs(ws, "Prism.modify"))).toEqual(["src/main/kotlin/shop/app/App.kt:9 call run"]);
  });
});

describe("find_references: Kotlin type aliases", () => {
  it("a member reached through a type alias (Lens.identity() with typealias Lens<S, A> = PLens<S, S, A, A>, Crate.empty()) is the aliased class's (or its companion's)", async () => {
    const ws = await Workspace.open(path.join(fixtures, "kotlin-aliases"));
    expect(where(await refs(ws, "PLens.identity"))).toEqual(["src/main/kotlin/shop/app/Use.kt:7 call run"]);
    expect(where(await refs(ws, "Box.empty"))).toEqual(["src/main/kotlin/shop/app/Use.kt:8 call run"]);
  });
});

describe("find_references: Kotlin multiplatform", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "kotlin-multiplatform"));
  });

  it("an expect class and its actual classes of one package are one class: a member on receivers of unknown type is that class's", async () => {
    const r = await refs(ws, "Clock.isFrozen", { path: "src/commonMain/kotlin/mp/Clock.kt" });
    expect(where(r)).toEqual(["src/commonMain/kotlin/mp/use/Ticker.kt:5 value,by_name frozen", "src/commonMain/kotlin/mp/use/Ticker.kt:9 value,by_name first"]);
    expect(noteOf(r)).not.toContain("receivers of unknown type left out");
  });
});

describe("find_references: Kotlin receivers of lambdas", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "kotlin-receivers"));
  });
  const check = "src/main/kotlin/use/Check.kt";

  it("a bare call inside with(x) {…}, x.run {…} and x.apply {…} is a member of x's type first, before the enclosing class's member of that name", async () => {
    expect(where(await refs(ws, "Messages.missing"))).toEqual([`${check}:13 call Check.run`, `${check}:14 call Check.run`, `${check}:15 call Check.run`]);
    expect(where(await refs(ws, "Check.missing"))).toEqual([`${check}:12 call Check.run`]);
  });

  it("a member on a repository variable of undeclared type (val defaultMessages = messagesFor(…)) is a by_name use, as on a local", async () => {
    expect(where(await refs(ws, "Messages.title"))).toEqual([`${check}:14 call Check.run`, `${check}:16 call,by_name Check.run`, `${check}:21 call,by_name Check.shown`]);
  });

  it("a method several classes define, each the target's interface or a class implementing it (overrides): a call on a receiver of unknown type is a by_name use of the interface's method, not of one override", async () => {
    expect(where(await refs(ws, "Messages.render"))).toEqual([`${check}:18 call,by_name Check.run`, `${check}:21 call,by_name Check.shown`]);
    const plain = await refs(ws, "Plain.render");
    expect(where(plain)).toEqual([]);
    expect(noteOf(plain)).toContain("2 uses of .render on receivers of unknown type left out: 3 classes define render");
  });
});

describe("find_references: PHP", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "php"));
  });

  it("a class through use (PSR-4), fully qualified, and in its own namespace without use; not the class of the same name in another namespace", async () => {
    expect(where(await refs(ws, "Order", { path: "src/Core/Order.php" }))).toEqual([
      "src/Core/Order.php:15 type Order.create",
      "src/Core/Order.php:17 call Order.create",
      "src/Core/Pricing.php:6 type Pricing.price",
      "src/Http/Checkout.php:4 import src/Http/Checkout.php",
      "src/Http/Checkout.php:9 type Checkout.run",
      "src/Http/Checkout.php:11 value Checkout.run",
      "src/Http/Checkout.php:12 call Checkout.run",
      "src/Http/Checkout.php:18 value Checkout.run",
    ]);
  });

  it("methods on variables typed by a parameter or assigned new C; a callable variable of the same name, a comment and a string are not uses", async () => {
    expect(where(await refs(ws, "Order.addLine", { path: "src/Core/Order.php" }))).toEqual(["src/Core/Pricing.php:8 call Pricing.price", "src/Http/Checkout.php:13 call Checkout.run"]);
    expect(where(await refs(ws, "Order.addLine", { path: "src/Other/Order.php" }))).toEqual(["src/Other/Order.php:14 call useIt"]);
  });

  it("static calls C::m() and self::m(), $this->m() of an inherited method, (new Alias())->m()", async () => {
    expect(where(await refs(ws, "Order.create"))).toEqual(["src/Http/Checkout.php:11 call Checkout.run", "src/Http/Checkout.php:18 call Checkout.run"]);
    expect(where(await refs(ws, "Order.audit"))).toEqual(["src/Core/Order.php:12 call Order.addLine"]);
    expect(where(await refs(ws, "Entity.touch"))).toEqual(["src/Core/Order.php:11 call Order.addLine"]);
    expect(where(await refs(ws, "Pricing.price"))).toEqual(["src/Http/Checkout.php:17 call Checkout.run"]);
    expect(where(await refs(ws, "Entity"))).toEqual(["src/Core/Order.php:4 inherit src/Core/Order.php"]);
  });

  it("a method is named only by a call: $this->m without one is a property; a bare m() is PHP's function, never the enclosing class's method", async () => {
    expect(where(await refs(ws, "Mailer.send"))).toContain("src/Core/Mailer.php:19 call Mailer.queue");
    expect(where(await refs(ws, "Mailer.send")).filter((w) => /:1[78] |:21 /.test(w))).toEqual([]);
  });

  it("in the body of if ($x instanceof C && …) $x is a C: a class outside the repository is not the target's; after the if, $x is of unknown type again (by_name)", async () => {
    expect(where(await refs(ws, "Mailer.send"))).toEqual(["src/Core/Mailer.php:19 call Mailer.queue", "src/Core/Mailer.php:29 call,by_name Mailer.relay"]);
  });

  it("a call in the middle of a chain ($b->with()->build(), C::start()->with(), $this->builder()->with()) is a call of its method; the member after it is of unknown type (by_name)", async () => {
    expect(where(await refs(ws, "Builder.with"))).toEqual(["src/Chain/Client.php:8 call Client.make", "src/Chain/Client.php:9 call,by_name Client.make", "src/Chain/Client.php:12 call,by_name Client.make"]);
    expect(where(await refs(ws, "Builder.start"))).toEqual(["src/Chain/Client.php:9 call Client.make"]);
    expect(where(await refs(ws, "Client.builder"))).toEqual(["src/Chain/Client.php:12 call Client.make"]);
    expect(where(await refs(ws, "Builder.build"))).toEqual(["src/Chain/Client.php:8 call,by_name Client.make", "src/Chain/Client.php:9 call,by_name Client.make", "src/Chain/Client.php:12 call,by_name Client.make"]);
  });
});

describe("find_references: Swift", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "swift"));
  });

  it("a type through import of its SwiftPM target and in its own target; T(…) is a call, annotations and `extension T` are types", async () => {
    expect(where(await refs(ws, "Order"))).toEqual([
      "Sources/App/main.swift:4 value run",
      "Sources/App/main.swift:5 call run",
      "Sources/Core/Order+Describe.swift:1 type Sources/Core/Order+Describe.swift",
      "Sources/Core/Order.swift:13 type Order.empty",
      "Sources/Core/Order.swift:14 call Order.empty",
    ]);
  });

  it("a method on a constant bound to T(…) and by bare name in an extension in another file; a closure parameter of the same name, a comment and a string are not uses", async () => {
    expect(where(await refs(ws, "Order.addLine"))).toEqual(["Sources/App/main.swift:6 call run", "Sources/Core/Order+Describe.swift:3 call Order.describe"]);
  });

  it("members declared in an extension, inherited members by bare name, properties inside string interpolation", async () => {
    expect(where(await refs(ws, "Order.describe"))).toEqual(["Sources/App/main.swift:10 call run"]);
    expect(where(await refs(ws, "Entity.touch"))).toEqual(["Sources/Core/Order.swift:10 call Order.addLine"]);
    expect(where(await refs(ws, "Order.total"))).toEqual(["Sources/Core/Order+Describe.swift:4 value Order.describe", "Sources/Core/Order.swift:9 value Order.addLine"]);
    expect(where(await refs(ws, "Entity"))).toEqual(["Sources/Core/Order.swift:5 inherit Sources/Core/Order.swift"]);
  });
});

describe("find_references: Swift, types from outside the repository", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "swift-kinds"));
  });

  it("x.m where x is declared of an outside type (n: String, let s = \"x\") is the repository's `extension String` member, not another type's of the same name; a receiver of another outside type (Int) is none", async () => {
    expect(where(await refs(ws, "String.shout"))).toEqual(["Sources/Kit/Use.swift:12 call run", "Sources/Kit/Use.swift:13 call run", "Sources/Kit/Use.swift:19 call literals"]);
    expect(where(await refs(ws, "Gadget.shout"))).toEqual([]);
    expect(where(await refs(ws, "Gadget.touch"))).toEqual(["Sources/Kit/Use.swift:14 call run"]);
  });
});

describe("find_references: Ruby", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "ruby"));
  });

  it("a nested class: read in the lexical scopes of module nesting (Order inside module Shop), qualified (Shop::Order), C.new is a call; not the Order of another module, a comment or a string", async () => {
    expect(where(await refs(ws, "Shop::Order"))).toEqual([
      "lib/shop/cart.rb:8 call Shop.Cart.initialize",
      "lib/shop/cart.rb:20 value Shop.Cart.checkout",
      "test/order_test.rb:5 call OrderTest.test_describe",
    ]);
    expect(where(await refs(ws, "Other::Order"))).toEqual(["lib/other/order.rb:10 call Other.Report.run"]);
  });

  it("a constant assigned a call with a block (X = Struct.new(…) do … end) is the class of the block's defs: a bare call there is its method, not another class's", async () => {
    // lostisland/faraday's Adapter::Test::Stub: params_match?(env) in Stub#matches? was read in Test and not listed.
    expect(where(await refs(ws, "Shop::Stub#path_match?"))).toEqual(["lib/shop/stub.rb:5 call Shop.Stub.matches?"]);
    expect(where(await refs(ws, "Shop::Finder#path_match?"))).toEqual(["lib/shop/stub.rb:23 call Shop.Finder.find"]);
  });

  it("the innermost lexical reading that names a definition wins: a top-level class is not the one inside a module that defines its own, and a module a required file defines shadows a top-level one", async () => {
    expect(where(await refs(ws, "Order", { path: "lib/legacy.rb" }))).toEqual(["lib/legacy.rb:4 call lib/legacy.rb"]);
    // lib/shop/report.rb requires shop/util.rb, so its Util::Order is Shop::Util::Order (undefined), not the top-level Util::Order.
    expect(where(await refs(ws, "Util::Order"))).toEqual(["test/util_test.rb:3 call UtilTest.test_order"]);
    expect(where(await refs(ws, "Shop::Util"))).toEqual(["lib/shop/report.rb:6 value Shop.Report.run"]);
  });

  it("a method: on an instance variable and a local assigned C.new, by bare name in a reopened class (another file); an unknown receiver is left out when several classes define the name", async () => {
    const r = await refs(ws, "Shop::Order#describe");
    expect(where(r)).toEqual(["lib/shop/cart.rb:14 call Shop.Cart.add", "lib/shop/order_ext.rb:4 call Shop.Order.urgent?", "test/order_test.rb:6 call OrderTest.test_describe"]);
    expect(noteOf(r)).toContain("1 use of .describe on receivers of unknown type left out: 2 classes define describe.");
    expect(where(await refs(ws, "Other::Order#describe"))).toEqual(["lib/other/order.rb:10 call Other.Report.run"]);
  });

  it("an unknown receiver is a by_name use when one class defines the name; class methods C.m; attr_reader accessors by bare name (in an interpolation), not a local of the same name", async () => {
    expect(where(await refs(ws, "Shop::Util.round"))).toEqual(["lib/shop/util.rb:4 call,by_name Shop.Util.round"]);
    expect(where(await refs(ws, "Shop::Order.create"))).toEqual(["lib/shop/cart.rb:20 call Shop.Cart.checkout"]);
    expect(where(await refs(ws, "Shop::Order#total"))).toEqual(["lib/shop/order.rb:10 call Shop.Order.describe"]);
  });

  it("bases: the superclass read outside the class, include read inside it; a bare call finds the included module's method before the superclass's (module_function :m names it too); a top-level method and a nested constant", async () => {
    expect(where(await refs(ws, "Base"))).toEqual(["lib/shop/cart.rb:4 inherit Shop"]);
    expect(where(await refs(ws, "Shop::Pricing"))).toEqual(["lib/shop/cart.rb:5 inherit Shop.Cart"]);
    expect(where(await refs(ws, "Pricing#summary"))).toEqual(["lib/shop/cart.rb:15 call Shop.Cart.add", "lib/shop/pricing.rb:6 value Shop.Pricing"]);
    expect(where(await refs(ws, "Base#summary"))).toEqual([]);
    expect(where(await refs(ws, "format_money"))).toEqual(["lib/shop/cart.rb:16 call Shop.Cart.add"]);
    expect(where(await refs(ws, "Shop::VERSION"))).toEqual(["lib/shop/cart.rb:16 value Shop.Cart.add", "test/order_test.rb:8 value OrderTest.test_describe"]);
    expect(where(await refs(ws, "Shop::Cart"))).toEqual(["lib/shop.rb:8 call Shop.build"]);
  });
});

describe("find_references: chains of members a.b.m", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "chains"));
  });

  it("a member at the end of a chain through values of unknown type ($0/it, a loop variable, a property of a declared parameter) is a by_name use; not a chain led by a capitalised outside name or an import that leads outside", async () => {
    expect(where(await refs(ws, "Visibility.isAtLeastAsVisible", { path: "Sources/Kit/Visibility.swift" }))).toEqual(["Sources/Kit/Usage.swift:2 call,by_name visibleArguments"]);
    expect(where(await refs(ws, "Configuration.shouldDisplay"))).toEqual(["Sources/Kit/Usage.swift:7 value,by_name displayed"]);
    expect(where(await refs(ws, "Visibility.isAtLeastAsVisible", { path: "src/main/kotlin/cli/Help.kt" }))).toEqual([
      "src/main/kotlin/cli/Help.kt:13 call,by_name shown",
      "src/main/kotlin/cli/Help.kt:15 call,by_name first",
    ]);
  });

  it("C++: a field of a declared receiver is of unknown type; a namespace path outside the repository (std::chrono::…::now) is no chain of values; a method's in-class declaration and its out-of-line definition are one definer", async () => {
    const r = await refs(ws, "Clock::now");
    expect(where(r)).toEqual(["cpp/timer.cpp:7 call,by_name elapsed"]);
    expect(noteOf(r)).not.toContain("left out");
  });
});
