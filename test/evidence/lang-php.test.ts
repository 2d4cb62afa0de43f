/** PHP (`lang/php.ts`): one test per rule. */
import { describe, expect, it } from "vitest";
import { php } from "../../src/evidence/analysis/lang/php.js";
import { definitionsOf, factsOf, fixtureProject, importersOf, memoryProject, resolvedImports, symbolsIn, type ResolvedImport } from "./lang-test-kit.js";

const { root, project } = fixtureProject("php-project");

function imp(file: string, line: number, specifier: string, files: string[], extra: Partial<ResolvedImport> = {}): ResolvedImport {
  return { file, line, end: line, specifier, module: files.length > 0 && extra.flags?.includes("include") ? (files[0] as string) : specifier, files, external: files.length === 0, ...extra };
}

describe("php: definitions", () => {
  it("constants, interfaces, traits, enums (cases), classes with attributes, methods and class constants", async () => {
    expect(await symbolsIn(php, project, "src/Routing/Route.php")).toEqual([
      { name: "DEFAULT_METHOD", kind: "constant", start_line: 10, end_line: 10 },
      { name: "Routable", kind: "interface", start_line: 12, end_line: 16 },
      { name: "PREFIX", kind: "constant", container: "Routable", start_line: 14, end_line: 14 },
      { name: "path", kind: "method", container: "Routable", start_line: 15, end_line: 15 },
      { name: "Named", kind: "trait", start_line: 18, end_line: 21 },
      { name: "name", kind: "method", container: "Named", start_line: 20, end_line: 20 },
      { name: "Method", kind: "enum", start_line: 23, end_line: 27 },
      { name: "Get", kind: "constant", container: "Method", start_line: 25, end_line: 25 },
      { name: "Post", kind: "constant", container: "Method", start_line: 26, end_line: 26 },
      { name: "Route", kind: "class", start_line: 29, end_line: 44 },
      { name: "ANY", kind: "constant", container: "Route", start_line: 34, end_line: 34 },
      { name: "__construct", kind: "method", container: "Route", start_line: 36, end_line: 36 },
      { name: "path", kind: "method", container: "Route", start_line: 38, end_line: 41 },
      { name: "get", kind: "method", container: "Route", start_line: 43, end_line: 43 },
    ]);
  });

  it("`define('NAME', …)` where definitions are read is a constant (also `\\define`, in a top-level `if`, a namespaced name); a computed name or one in a function body is not", async () => {
    // guzzle/guzzle 2779e86 tests/bootstrap-phpstan.php: `if (!\\defined('IDNA_DEFAULT')) { \\define('IDNA_DEFAULT', 0); }` (ctags' `define` kind).
    const src = "<?php\ndefine('A', 0);\nif (!\\defined('IDNA_DEFAULT')) {\n    \\define('IDNA_DEFAULT', 0);\n}\nnamespace N;\ndefine('N\\\\C', 1);\ndefine(\"$x\", 1);\ndefine($y, 1);\nfoo('Z', 1);\nfunction f() { define('LOCAL', 1); }\n";
    const facts = await factsOf(php, src);
    expect(facts.symbols.map((s) => `${s.kind} ${s.name}:${s.start_line}`)).toEqual(["constant A:2", "constant IDNA_DEFAULT:4", "constant C:7", "function f:11"]);
  });

  it("a function declared in a top-level `if` block counts", async () => {
    expect(await symbolsIn(php, project, "lib/helpers.php")).toEqual([{ name: "helper", kind: "function", start_line: 3, end_line: 3 }]);
    expect((await definitionsOf(root, "Route.path")).records).toEqual(["src/Routing/Route.php:38-41 Route.path method |     public function path(): string"]);
  });
});

describe("php: imports", () => {
  it("use (grouped, aliased) through composer PSR-4; `use function` stays external", async () => {
    expect(await resolvedImports(php, project, "src/Routing/Route.php")).toEqual([
      imp("src/Routing/Route.php", 6, "Psr\\Http\\Message\\ResponseInterface", []),
      imp("src/Routing/Route.php", 7, "Acme\\Shop\\Kernel", ["src/Kernel.php"]),
      imp("src/Routing/Route.php", 7, "Acme\\Shop\\Routing\\RouterInterface", ["src/Routing/RouterInterface.php"], { alias: "Router" }),
      imp("src/Routing/Route.php", 8, "Acme\\Shop\\helper", [], { flags: ["function"] }),
    ]);
  });

  it("PSR-0 (underscores as folders), autoload-dev PSR-4, and require/include forms: dirname(__DIR__), a bare path, a non-literal", async () => {
    expect(await resolvedImports(php, project, "tests/RouteTest.php")).toEqual([
      imp("tests/RouteTest.php", 4, "Acme\\Shop\\Routing\\Route", ["src/Routing/Route.php"]),
      imp("tests/RouteTest.php", 5, "Legacy_Old_Thing", ["legacy/Legacy/Old/Thing.php"]),
      imp("tests/RouteTest.php", 6, "PHPUnit\\Framework\\TestCase", []),
      imp("tests/RouteTest.php", 8, "../lib/helpers.php", ["lib/helpers.php"], { flags: ["include"] }),
      imp("tests/RouteTest.php", 9, "lib/helpers.php", ["lib/helpers.php"], { flags: ["include"] }),
      imp("tests/RouteTest.php", 10, "$path", [], { flags: ["include", "unresolved"] }),
    ]);
  });

  it("`__DIR__ . '/x.php'` is relative to the file's folder", async () => {
    expect(await resolvedImports(php, project, "src/Kernel.php")).toEqual([imp("src/Kernel.php", 4, "../lib/helpers.php", ["lib/helpers.php"], { flags: ["include"] })]);
  });

  it("without a composer map, a class resolves to `C.php` declaring its namespace", async () => {
    const view = memoryProject({ "app/Models/User.php": "<?php\nnamespace App\\Models;\nclass User {}\n", "other/User.php": "<?php\nnamespace Other;\n" });
    expect(await php.resolve({ specifier: "App\\Models\\User", start_line: 1, end_line: 1 }, "x.php", view)).toEqual({ files: ["app/Models/User.php"], module: "App\\Models\\User", external: false });
  });

  it("find_importers: by qualified name (single or doubled backslashes), by file, by an external namespace", async () => {
    expect((await importersOf(root, "Acme\\Shop\\Routing\\Route")).records).toEqual(["tests/RouteTest.php:4-4 Acme\\Shop\\Routing\\Route | use Acme\\Shop\\Routing\\Route;"]);
    expect((await importersOf(root, "\\\\Acme\\\\Shop\\\\Kernel")).records).toEqual(["src/Routing/Route.php:7-7 Acme\\Shop\\Kernel | use Acme\\Shop\\{Kernel, Routing\\RouterInterface as Router};"]);
    expect((await importersOf(root, "lib/helpers.php")).records).toEqual([
      "src/Kernel.php:4-4 lib/helpers.php flags=include | require_once __DIR__ . '/../lib/helpers.php';",
      "tests/RouteTest.php:8-8 lib/helpers.php flags=include | require dirname(__DIR__) . '/lib/helpers.php';",
      "tests/RouteTest.php:9-9 lib/helpers.php flags=include | include 'lib/helpers.php';",
    ]);
    expect((await importersOf(root, "PHPUnit\\Framework")).records).toEqual(["tests/RouteTest.php:6-6 PHPUnit\\Framework\\TestCase | use PHPUnit\\Framework\\TestCase;"]);
  });
});
