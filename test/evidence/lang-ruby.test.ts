/** Ruby (`lang/ruby.ts`): one test per rule. */
import { describe, expect, it } from "vitest";
import { ruby } from "../../src/evidence/analysis/lang/ruby.js";
import { definitionsOf, factsOf, fixtureProject, importersOf, memoryProject, resolvedImports, symbolsIn } from "./lang-test-kit.js";

const { root, project } = fixtureProject("ruby-project");

describe("ruby: definitions", () => {
  it("modules, classes (reopened: every site; `class A::B`), methods, `def self.m`, `class << self`, attr_* accessors, constants", async () => {
    expect(await symbolsIn(ruby, project, "lib/shop/cart.rb")).toEqual([
      { name: "Shop", kind: "module", start_line: 3, end_line: 30 },
      { name: "Cart", kind: "class", container: "Shop", start_line: 4, end_line: 29 },
      { name: "items", kind: "method", container: "Shop.Cart", start_line: 5, end_line: 5 },
      { name: "owner", kind: "method", container: "Shop.Cart", start_line: 5, end_line: 5 },
      // attr_accessor defines the reader and the writer `note=`
      { name: "note", kind: "method", container: "Shop.Cart", start_line: 6, end_line: 6 },
      { name: "note=", kind: "method", container: "Shop.Cart", start_line: 6, end_line: 6 },
      { name: "MAX", kind: "constant", container: "Shop.Cart", start_line: 8, end_line: 8 },
      { name: "initialize", kind: "method", container: "Shop.Cart", start_line: 10, end_line: 13 },
      { name: "add", kind: "method", container: "Shop.Cart", start_line: 15, end_line: 18 },
      { name: "empty", kind: "method", container: "Shop.Cart", start_line: 20, end_line: 22 },
      // a method of `class << self` belongs to the enclosing class
      { name: "build", kind: "method", container: "Shop.Cart", start_line: 25, end_line: 27 },
      // `class Shop::Cart` reopens the class
      { name: "Cart", kind: "class", container: "Shop", start_line: 32, end_line: 36 },
      { name: "total", kind: "method", container: "Shop.Cart", start_line: 33, end_line: 35 },
    ]);
  });

  it("file-level `def` is a function; `A::B = …` a constant of A; a one-line class", async () => {
    expect(await symbolsIn(ruby, project, "engine/app/engine_helper.rb")).toEqual([{ name: "engine_helper", kind: "function", start_line: 1, end_line: 3 }]);
    expect(await symbolsIn(ruby, project, "lib/shop/item.rb")).toEqual([{ name: "Item", kind: "constant", container: "Shop", start_line: 1, end_line: 1 }]);
    expect(await symbolsIn(ruby, project, "lib/shop.rb")).toEqual([
      { name: "Shop", kind: "module", start_line: 5, end_line: 11 },
      { name: "Error", kind: "class", container: "Shop", start_line: 6, end_line: 6 },
      { name: "configure", kind: "method", container: "Shop", start_line: 8, end_line: 10 },
    ]);
  });

  it("a name written from the top level (`module ::HelperOne`, `class ::A::B`, `::Readline = …`) has no enclosing container", async () => {
    // sinatra/sinatra cb22afd test/helpers_test.rb:1944 (`module ::HelperOne; def one; …`) and rails/thor d89dd72
    // spec/line_editor_spec.rb:8 (`::Readline = double(…)` in a `before` block): they were put under the enclosing class.
    const facts = await factsOf(ruby, "class HelpersTest\n  module ::HelperOne; def one; '1'; end; end\n  class ::Outer::Inner\n    def x; end\n  end\n  before do\n    ::Readline = double\n  end\n  module Local; end\nend\n");
    expect(facts.symbols.map((s) => `${s.kind} ${s.name}${s.container ? ` in ${s.container}` : ""}`)).toEqual([
      "class HelpersTest",
      "module HelperOne",
      "method one in HelperOne",
      "class Inner in Outer",
      "method x in Outer.Inner",
      "constant Readline",
      "module Local in HelpersTest",
    ]);
  });

  it("definitions inside blocks at class level (`included do … end`) count; locals in methods do not", async () => {
    const facts = await factsOf(ruby, "module M\n  included do\n    def hook; end\n  end\n  def m\n    X = 1\n  end\nend\n");
    expect(facts.symbols.map((s) => `${s.container ?? ""}.${s.name}`)).toEqual([".M", "M.hook", "M.m"]);
  });

  it("`private def m`, `X = Struct.new do … end` (container X), `class << obj` and `def obj.m` (container obj), `Y = 1 unless defined? Y`", async () => {
    const src = "class C\n  private def hidden; end\n  Point = Struct.new(:x) do\n    def norm; end\n  end\n  Y = 1 unless defined? Y\nend\nclass << conn; def close; end; end\ndef @io.read; end\n";
    expect((await factsOf(ruby, src)).symbols.map((s) => `${s.container ?? ""}.${s.name} ${s.kind}`)).toEqual([
      ".C class", "C.hidden method", "C.Point constant", "C.Point.norm method", "C.Y constant", "conn.close method", "@io.read method",
    ]);
  });

  it("blocks of a call that is the receiver of another (`Class.new do … end.new`), of an argument of a call with a receiver, and of a call inside an indexed value count", async () => {
    const src = [
      "describe 'x' do",
      "  it 'y' do",
      "    lock = Class.new do",
      "      def unlock; end",
      "    end.new",
      "    lambda { def input.binmode?; end }.must_raise(E)",
      "    app = Rack::Lint.new(lambda { |env| def io.each; end })",
      "    body = lint(app) { |b| def b.close; end }.call(env)[2]",
      "  end",
      "end",
      "",
    ].join("\n");
    expect((await factsOf(ruby, src)).symbols.map((s) => `${s.container ?? ""}.${s.name} ${s.kind} ${s.start_line}`)).toEqual([
      ".unlock function 4", "input.binmode? method 6", "io.each method 7", "b.close method 8",
    ]);
  });

  it("find_symbol: `Cart` finds both sites, `Shop::Cart.build` the singleton method, `Cart#items` the accessor", async () => {
    expect((await definitionsOf(root, "Cart")).records).toEqual([
      "lib/shop/cart.rb:4-29 Shop.Cart flags=truncated class |   class Cart",
      "lib/shop/cart.rb:32-36 Shop.Cart class | class Shop::Cart",
    ]);
    expect((await definitionsOf(root, "Shop::Cart.build")).records).toEqual(["lib/shop/cart.rb:25-27 Shop.Cart.build method |       def build(*args)"]);
    expect((await definitionsOf(root, "Cart#items")).records).toEqual(["lib/shop/cart.rb:5-5 Shop.Cart.items method |     attr_reader :items, :owner"]);
  });
});

describe("ruby: requires", () => {
  it("require against lib/ and the gemspec's require_paths; require_relative next to the file; requires in method bodies and modifiers count", async () => {
    expect(await resolvedImports(ruby, project, "lib/shop.rb")).toEqual([
      { file: "lib/shop.rb", line: 1, end: 1, specifier: "json", module: "json", files: [], external: true },
      { file: "lib/shop.rb", line: 2, end: 2, specifier: "shop/cart", module: "shop/cart", files: ["lib/shop/cart.rb"], external: false },
      { file: "lib/shop.rb", line: 3, end: 3, specifier: "shop/version", module: "lib/shop/version.rb", files: ["lib/shop/version.rb"], external: false, flags: ["relative"] },
    ]);
    expect(await resolvedImports(ruby, project, "lib/shop/cart.rb")).toEqual([
      // `engine/app` is a require path of shop.gemspec
      { file: "lib/shop/cart.rb", line: 1, end: 1, specifier: "engine_helper", module: "engine_helper", files: ["engine/app/engine_helper.rb"], external: false },
      { file: "lib/shop/cart.rb", line: 16, end: 16, specifier: "shop/item", module: "shop/item", files: ["lib/shop/item.rb"], external: false },
    ]);
  });

  it("a broken require_relative is unresolved, a gem external, `load` a path from the root, a path next to the file that is missing unresolved", async () => {
    expect(await resolvedImports(ruby, project, "test/cart_test.rb")).toEqual([
      { file: "test/cart_test.rb", line: 1, end: 1, specifier: "../lib/shop", module: "lib/shop.rb", files: ["lib/shop.rb"], external: false, flags: ["relative"] },
      { file: "test/cart_test.rb", line: 2, end: 2, specifier: "missing_helper", module: "missing_helper", files: [], external: true, flags: ["relative"] },
      { file: "test/cart_test.rb", line: 3, end: 3, specifier: "minitest/autorun", module: "minitest/autorun", files: [], external: true },
      { file: "test/cart_test.rb", line: 4, end: 4, specifier: "test/fixtures.rb", module: "test/fixtures", files: ["test/fixtures.rb"], external: false, flags: ["load"] },
      // `File.join(__dir__, "x")`: a path next to the file (test/x.rb), which the tree does not hold.
      { file: "test/cart_test.rb", line: 5, end: 5, specifier: "x", module: "x", files: [], external: true, flags: ["relative"] },
    ]);
    const view = memoryProject({ "a.rb": "", "b.rb": "" });
    expect(await ruby.resolve({ specifier: "zzz", start_line: 1, end_line: 1, flags: ["relative"] }, "b.rb", view)).toEqual({ files: [], module: "zzz", external: true, unresolved: true });
  });

  it("a require of a path built from the file's own place (`File.expand_path(\"../lib/x\", __dir__)`, `File.join(__dir__, \"x\")`, …) resolves next to the file", async () => {
    // jekyll's benchmark/schwartzian_transform.rb: `require File.expand_path("../lib/jekyll", __dir__)`.
    const view = memoryProject({
      "lib/jekyll.rb": "",
      "bench/helper.rb": "",
      "bench/run.rb": [
        'require File.expand_path("../lib/jekyll", __dir__)',
        'require File.expand_path("helper", File.dirname(__FILE__))',
        'require File.expand_path("../helper", __FILE__)',
        'require File.join(__dir__, "helper")',
        'load File.join(File.dirname(__FILE__), "..", "lib", "jekyll.rb")',
        'require File.expand_path("helper", Dir.pwd)',
        'require File.expand_path("helper", __FILE__)',
        "",
      ].join("\n"),
    });
    const facts = await factsOf(ruby, await view.readText("bench/run.rb") as string);
    const resolved = await Promise.all(facts.imports.map(async (ref) => [ref.start_line, (await ruby.resolve(ref, "bench/run.rb", view)).files]));
    expect(resolved).toEqual([
      [1, ["lib/jekyll.rb"]],
      [2, ["bench/helper.rb"]],
      [3, ["bench/helper.rb"]],
      [4, ["bench/helper.rb"]],
      [5, ["lib/jekyll.rb"]],
      [6, []],
      [7, []],
    ]);
  });

  it("find_importers: by file, by require name, by gem name", async () => {
    expect((await importersOf(root, "lib/shop.rb")).records).toEqual(['test/cart_test.rb:1-1 lib/shop.rb flags=relative | require_relative "../lib/shop"']);
    expect((await importersOf(root, "shop/cart")).records).toEqual(['lib/shop.rb:2-2 shop/cart | require "shop/cart"']);
    expect((await importersOf(root, "lib/shop/item.rb")).records).toEqual(['lib/shop/cart.rb:16-16 shop/item |       require "shop/item"']);
    expect((await importersOf(root, "minitest/autorun")).records).toEqual(['test/cart_test.rb:3-3 minitest/autorun | require "minitest/autorun"']);
  });
});
