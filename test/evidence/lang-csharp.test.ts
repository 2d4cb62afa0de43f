/** C# (`lang/csharp.ts`): one test per rule. */
import { renderForModel } from "../../src/evidence/advice.js";
import { describe, expect, it } from "vitest";
import { csharp, CSHARP_BLIND_SPOT_NOTE } from "../../src/evidence/analysis/lang/csharp.js";
import { definitionsOf, factsOf, fixtureProject, importersOf, memoryProject, resolvedImports, symbolsIn } from "./lang-test-kit.js";

const { root, project } = fixtureProject("csharp-project");
const CORE = "src/Shop.Core";
const APP = "src/Shop.App";

describe("c#: definitions", () => {
  it("types and members of a file-scoped namespace: constants, constructor, property, method, operator, indexer, event, destructor, nested class; ranges start at attributes", async () => {
    expect(await symbolsIn(csharp, project, `${CORE}/Order.cs`)).toEqual([
      { name: "Order", kind: "class", start_line: 6, end_line: 30 },
      { name: "MaxLines", kind: "constant", container: "Order", start_line: 9, end_line: 9 },
      { name: "Order", kind: "method", container: "Order", start_line: 12, end_line: 12 },
      { name: "Count", kind: "variable", container: "Order", start_line: 14, end_line: 14 },
      { name: "Add", kind: "method", container: "Order", start_line: 16, end_line: 16 },
      { name: "operator+", kind: "method", container: "Order", start_line: 18, end_line: 18 },
      { name: "this", kind: "variable", container: "Order", start_line: 20, end_line: 20 },
      { name: "Changed", kind: "variable", container: "Order", start_line: 22, end_line: 22 },
      { name: "~Order", kind: "method", container: "Order", start_line: 24, end_line: 24 },
      { name: "Line", kind: "class", container: "Order", start_line: 26, end_line: 29 },
      { name: "Total", kind: "method", container: "Order.Line", start_line: 28, end_line: 28 },
      { name: "IOrder", kind: "interface", start_line: 32, end_line: 36 },
      { name: "Count", kind: "variable", container: "IOrder", start_line: 34, end_line: 34 },
      { name: "Add", kind: "method", container: "IOrder", start_line: 35, end_line: 35 },
      { name: "Status", kind: "enum", start_line: 38, end_line: 38 },
      { name: "New", kind: "constant", container: "Status", start_line: 38, end_line: 38 },
      { name: "Paid", kind: "constant", container: "Status", start_line: 38, end_line: 38 },
      { name: "Point", kind: "struct", start_line: 40, end_line: 40 },
      // `record struct` is a struct, a plain `record` a class
      { name: "Range", kind: "struct", start_line: 42, end_line: 42 },
      { name: "Notify", kind: "type", start_line: 44, end_line: 44 },
    ]);
    expect(await symbolsIn(csharp, project, `${CORE}/Money.cs`)).toEqual([
      { name: "Money", kind: "class", start_line: 3, end_line: 3 },
      { name: "MoneyMath", kind: "class", start_line: 5, end_line: 8 },
      { name: "Zero", kind: "method", container: "MoneyMath", start_line: 7, end_line: 7 },
    ]);
  });

  it("a partial type is found at every part (block-scoped namespace too)", async () => {
    expect((await definitionsOf(root, "Order", "class")).records).toEqual([
      `${CORE}/Order.Lines.cs:4-7 Order class |     public partial class Order`,
      `${CORE}/Order.cs:6-30 Order flags=truncated class | [Serializable]`,
    ]);
    expect((await definitionsOf(root, "Order.Clear")).records).toEqual([`${CORE}/Order.Lines.cs:6-6 Order.Clear method |         public void Clear() { }`]);
  });

  it("`#if … #else … #endif` among a switch expression's arms is read as if the first condition held: the file's definitions are kept", async () => {
    // App-vNext/Polly's RetryHelper.cs: before, the grammar read the whole file as an error and its methods were lost.
    const src = [
      "namespace Polly.Retry;",
      "",
      "internal static class RetryHelper",
      "{",
      "    internal static TimeSpan ApplyJitter(TimeSpan delay) => delay;",
      "",
      "    private static TimeSpan Base(int type, TimeSpan baseDelay)",
      "    {",
      "        return type switch",
      "        {",
      "            0 => baseDelay,",
      "#if !NETCOREAPP",
      "            1 => TimeSpan.FromMilliseconds(2 * baseDelay.TotalMilliseconds),",
      "#else",
      "            1 => 2 * baseDelay,",
      "#endif",
      "            _ => throw new ArgumentOutOfRangeException(nameof(type)),",
      "        };",
      "    }",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(csharp, src)).symbols).toEqual([
      { name: "RetryHelper", kind: "class", start_line: 3, end_line: 20 },
      { name: "ApplyJitter", kind: "method", container: "RetryHelper", start_line: 5, end_line: 5 },
      { name: "Base", kind: "method", container: "RetryHelper", start_line: 7, end_line: 19 },
    ]);
    const prepared = (csharp.prepare as (s: string) => string)(src).split("\n");
    expect(prepared.length).toBe(21);
    expect([11, 12, 13, 14, 15].map((i) => prepared[i]?.trim())).toEqual(["", "1 => TimeSpan.FromMilliseconds(2 * baseDelay.TotalMilliseconds),", "", "", ""]);
  });

  it("declarations inside `#if` / `#elif` / `#else` branches (a file wrapped in `#if`, members and enum members in branches) are found in every branch", async () => {
    // JamesNK/Newtonsoft.Json 09bb545's Issue3080.cs is wrapped whole in `#if NET8_0_OR_GREATER … #endif`: before, none of its definitions were found.
    const src = [
      "#if NET8_0",
      "using System;",
      "namespace Tests",
      "{",
      "    public class Box",
      "    {",
      "#if HAVE_ASYNC",
      "        public void Open() { }",
      "#elif HAVE_SYNC",
      "        public void OpenSync() { }",
      "#else",
      "        public int Size { get; set; }",
      "#endif",
      "    }",
      "    public enum Kind",
      "    {",
      "        A,",
      "#if NET8_0",
      "        B,",
      "#endif",
      "    }",
      "}",
      "#endif",
      "",
    ].join("\n");
    const facts = await factsOf(csharp, src);
    expect(facts.symbols).toEqual([
      { name: "Box", kind: "class", start_line: 5, end_line: 14 },
      { name: "Open", kind: "method", container: "Box", start_line: 8, end_line: 8 },
      { name: "OpenSync", kind: "method", container: "Box", start_line: 10, end_line: 10 },
      { name: "Size", kind: "variable", container: "Box", start_line: 12, end_line: 12 },
      { name: "Kind", kind: "enum", start_line: 15, end_line: 21 },
      { name: "A", kind: "constant", container: "Kind", start_line: 17, end_line: 17 },
      { name: "B", kind: "constant", container: "Kind", start_line: 19, end_line: 19 },
    ]);
    expect(facts.imports.map((i) => i.specifier)).toEqual(["System"]);
  });

  it("an `#if` group inside a declaration or statement (after a line not ending in `;`, `{` or `}`, or whose code starts with `else`) is read as if its first condition held", async () => {
    // Newtonsoft.Json's JsonWriter.Async.cs (`class JsonWriter` / `#if …` / `: IAsyncDisposable` / `#endif`) and
    // JsonTextReader.cs (`#if …` / `else if (…) { … }` / `#endif` after an `if` block): the grammar lost the class's members.
    const src = [
      "public abstract class Writer",
      "#if HAVE_ASYNC_DISPOSABLE",
      "    : IAsyncDisposable",
      "#endif",
      "{",
      "    void Parse(int t)",
      "    {",
      "        if (t == 1)",
      "        {",
      "            t = 2;",
      "        }",
      "#if HAVE_OFFSET",
      "        else if (t == 3)",
      "        {",
      "            t = 4;",
      "        }",
      "#endif",
      "        else",
      "        {",
      "            t = 5;",
      "        }",
      "    }",
      "    public void Close() { }",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(csharp, src)).symbols).toEqual([
      { name: "Writer", kind: "class", start_line: 1, end_line: 24 },
      { name: "Parse", kind: "method", container: "Writer", start_line: 6, end_line: 22 },
      { name: "Close", kind: "method", container: "Writer", start_line: 23, end_line: 23 },
    ]);
    const prepared = (csharp.prepare as (s: string) => string)(src).split("\n");
    expect([1, 2, 3, 11, 12, 16].map((i) => prepared[i]?.trim())).toEqual(["", ": IAsyncDisposable", "", "", "else if (t == 3)", ""]);
  });

  it("an `#if` group whose first branch ends inside a declaration (two signatures of one method, then one body) is read as if its first condition held", async () => {
    // serilog/serilog 60935b4's PropertyBinder.cs: `#if FEATURE_SPAN` / `… ConstructProperties(…, ReadOnlySpan<object?> p)` /
    // `#else` / `… ConstructProperties(…, object?[] p)` / `#endif` / `{ … }` after a complete member: the grammar lost the whole class.
    const src = [
      "class Binder",
      "{",
      "    public Binder() { }",
      "",
      "    /// <summary>Docs.</summary>",
      "#if FEATURE_SPAN",
      "    public int Construct(ReadOnlySpan<object?> values)",
      "#else",
      "    public int Construct(object?[] values)",
      "#endif",
      "    {",
      "        return 0;",
      "    }",
      "",
      "#if FEATURE_SPAN",
      "    int Span() => 1;",
      "#else",
      "    int Array() => 2;",
      "#endif",
      "}",
      "",
    ].join("\n");
    expect((await factsOf(csharp, src)).symbols).toEqual([
      { name: "Binder", kind: "class", start_line: 1, end_line: 20 },
      { name: "Binder", kind: "method", container: "Binder", start_line: 3, end_line: 3 },
      { name: "Construct", kind: "method", container: "Binder", start_line: 7, end_line: 13 },
      { name: "Span", kind: "method", container: "Binder", start_line: 16, end_line: 16 },
      { name: "Array", kind: "method", container: "Binder", start_line: 18, end_line: 18 },
    ]);
  });
});

describe("c#: using directives", () => {
  it("using, using static, aliases (of a namespace and of a type) resolve to the declaring files; System stays external", async () => {
    expect(await resolvedImports(csharp, project, `${APP}/Program.cs`)).toEqual([
      { file: `${APP}/Program.cs`, line: 1, end: 1, specifier: "System", module: "System", files: [], external: true },
      { file: `${APP}/Program.cs`, line: 2, end: 2, specifier: "Shop.Core", module: "Shop.Core", files: [`${CORE}/Order.Lines.cs`, `${CORE}/Order.cs`], external: false },
      { file: `${APP}/Program.cs`, line: 3, end: 3, specifier: "Shop.Core.Pricing.MoneyMath", module: "Shop.Core.Pricing.MoneyMath", files: [`${CORE}/Money.cs`], external: false, flags: ["static"] },
      { file: `${APP}/Program.cs`, line: 4, end: 4, specifier: "Shop.Core.Pricing", alias: "Pricing", module: "Shop.Core.Pricing", files: [`${CORE}/Money.cs`], external: false },
      { file: `${APP}/Program.cs`, line: 5, end: 5, specifier: "Shop.Core.Pricing.Money", alias: "M", module: "Shop.Core.Pricing.Money", files: [`${CORE}/Money.cs`], external: false },
    ]);
  });

  it("global using (with global::) carries the flag global", async () => {
    expect(await resolvedImports(csharp, project, `${APP}/GlobalUsings.cs`)).toEqual([
      { file: `${APP}/GlobalUsings.cs`, line: 1, end: 1, specifier: "Shop.Core.Pricing", module: "Shop.Core.Pricing", files: [`${CORE}/Money.cs`], external: false, flags: ["global"] },
      { file: `${APP}/GlobalUsings.cs`, line: 2, end: 2, specifier: "System.Linq", module: "System.Linq", files: [], external: true, flags: ["global"] },
    ]);
  });

  it("a namespace named only in a comment or string is not declared", async () => {
    const view = memoryProject({ "a.cs": '// namespace Fake\nvar s = "namespace Fake2;";\nnamespace Real { }\n', "b.cs": "using Fake;\nusing Real;\n" });
    const refs = [
      { specifier: "Fake", start_line: 1, end_line: 1 },
      { specifier: "Real", start_line: 2, end_line: 2 },
    ];
    expect(await Promise.all(refs.map((r) => csharp.resolve(r, "b.cs", view)))).toEqual([
      { files: [], module: "Fake", external: true },
      { files: ["a.cs"], module: "Real", external: false },
    ]);
  });

  it("a using inside a namespace (also a nested block) reads its name relative to the enclosing namespaces, innermost first, then as written", async () => {
    const view = memoryProject({
      "Core/Wrappers.cs": "namespace Shop.Wrappers;\npublic class W { }\n",
      "Core/Inner.cs": "namespace Shop.App.Wrappers { class X { } }\n",
      "Core/Util.cs": "namespace Util { class U { } }\n",
      "Core/Nested.cs": "namespace Shop\n{\n    namespace Extra { class E { } }\n}\n",
      "App/Mediator.cs": "namespace Shop;\n\nusing System;\nusing Wrappers;\nusing Extra;\n",
      "App/Deep.cs": "namespace Shop.App\n{\n    using Wrappers;\n    using Util;\n}\nusing Wrappers;\n",
    });
    const resolved = async (file: string) => {
      const facts = await factsOf(csharp, (await view.readText(file)) as string);
      return Promise.all(facts.imports.map(async (r) => ({ line: r.start_line, scope: r.scope, ...(await csharp.resolve(r, file, view)) })));
    };
    expect(await resolved("App/Mediator.cs")).toEqual([
      { line: 3, scope: ["Shop"], files: [], module: "System", external: true },
      { line: 4, scope: ["Shop"], files: ["Core/Wrappers.cs"], module: "Shop.Wrappers", external: false },
      // a namespace block nested in another declares the joined name
      { line: 5, scope: ["Shop"], files: ["Core/Nested.cs"], module: "Shop.Extra", external: false },
    ]);
    expect(await resolved("App/Deep.cs")).toEqual([
      // Shop.App.Wrappers exists, so it wins over Shop.Wrappers
      { line: 3, scope: ["Shop", "App"], files: ["Core/Inner.cs"], module: "Shop.App.Wrappers", external: false },
      { line: 4, scope: ["Shop", "App"], files: ["Core/Util.cs"], module: "Util", external: false },
      // outside any namespace: the name as written, which the tree does not declare
      { line: 6, scope: undefined, files: [], module: "Wrappers", external: true },
    ]);
  });

  it("find_importers: by file, by namespace name (the note names the blind spot), by an external name", async () => {
    const byFile = await importersOf(root, `${CORE}/Money.cs`);
    expect(byFile.records).toEqual([
      `${APP}/GlobalUsings.cs:1-1 Shop.Core.Pricing flags=global | global using Shop.Core.Pricing;`,
      `${APP}/Program.cs:3-3 Shop.Core.Pricing.MoneyMath flags=static | using static Shop.Core.Pricing.MoneyMath;`,
      `${APP}/Program.cs:4-4 Shop.Core.Pricing alias=Pricing | using Pricing = Shop.Core.Pricing;`,
      `${APP}/Program.cs:5-5 Shop.Core.Pricing.Money alias=M | using M = Shop.Core.Pricing.Money;`,
    ]);
    expect(byFile.note).toContain(renderForModel(CSHARP_BLIND_SPOT_NOTE));
    expect((await importersOf(root, "Shop.Core")).records).toEqual([`${APP}/Program.cs:2-2 Shop.Core | using Shop.Core;`]);
    expect((await importersOf(root, "System.Linq")).records).toEqual([`${APP}/GlobalUsings.cs:2-2 System.Linq flags=global | global using global::System.Linq;`]);
  });
});
