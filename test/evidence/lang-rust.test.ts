import { execFileSync } from "node:child_process";
import { noteOf } from "../helpers/note.js";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import { MOD_DECLARATION_FLAG, parseCargoManifest, rust } from "../../src/evidence/analysis/lang/rust.js";
import {
  definitionsOf,
  factsOf,
  fixtureProject,
  hasTool,
  importersOf,
  memoryProject,
  resolvedImports,
  scratchDir,
  symbolsIn,
  type ResolvedImport,
} from "./lang-test-kit.js";

const { root, project } = fixtureProject("rust-project");
const SHOP = "crates/shop/src";
const CLI = "crates/shop-cli/src";

/** Shorthand for one expected import of `file`. */
function imp(file: string, line: number, specifier: string, module: string, files: string[], extra: Partial<ResolvedImport> = {}): ResolvedImport {
  const end = extra.end ?? line;
  const rest = { ...extra };
  delete rest.end;
  return { file, line, end, specifier, module, files, external: files.length === 0, ...rest };
}

describe("rust: definitions", () => {
  it("lib.rs: modules, constants, a `static mut`, an exported macro with its attribute", async () => {
    const symbols = await symbolsIn(rust, project, `${SHOP}/lib.rs`);
    expect(symbols).toEqual([
      { name: "config", kind: "module", start_line: 6, end_line: 6 },
      { name: "store", kind: "module", start_line: 7, end_line: 7 },
      { name: "util", kind: "module", start_line: 8, end_line: 8 },
      { name: "VERSION", kind: "constant", start_line: 14, end_line: 14 },
      { name: "OPEN_STORES", kind: "variable", start_line: 16, end_line: 16 },
      { name: "ensure", kind: "function", start_line: 19, end_line: 26 },
    ]);
  });

  it("config.rs: struct from its #[derive], inherent and trait impl methods, inline test module", async () => {
    const symbols = await symbolsIn(rust, project, `${SHOP}/config.rs`);
    expect(symbols).toEqual([
      { name: "defaults", kind: "module", start_line: 5, end_line: 5 },
      { name: "Config", kind: "struct", start_line: 10, end_line: 14 },
      { name: "from_env", kind: "method", container: "Config", start_line: 18, end_line: 24 },
      { name: "limit", kind: "method", container: "Config", start_line: 26, end_line: 28 },
      // `impl Default for Config` → container is the implementing type
      { name: "default", kind: "method", container: "Config", start_line: 32, end_line: 34 },
      { name: "tests", kind: "module", start_line: 37, end_line: 45 },
      { name: "default_currency", kind: "function", start_line: 41, end_line: 44 },
    ]);
  });

  it("store/mod.rs: trait with associated const/type, required and provided methods; enum; type alias", async () => {
    const symbols = await symbolsIn(rust, project, `${SHOP}/store/mod.rs`);
    expect(symbols).toEqual([
      { name: "memory", kind: "module", start_line: 2, end_line: 2 },
      { name: "Result", kind: "type", start_line: 8, end_line: 8 },
      { name: "StoreError", kind: "enum", start_line: 11, end_line: 15 },
      { name: "fmt", kind: "method", container: "StoreError", start_line: 18, end_line: 23 },
      { name: "Store", kind: "trait", start_line: 27, end_line: 38 },
      { name: "NAME", kind: "constant", container: "Store", start_line: 29, end_line: 29 },
      { name: "Key", kind: "type", container: "Store", start_line: 30, end_line: 30 },
      { name: "get", kind: "method", container: "Store", start_line: 32, end_line: 32 },
      { name: "put", kind: "method", container: "Store", start_line: 33, end_line: 33 },
      { name: "is_empty", kind: "method", container: "Store", start_line: 35, end_line: 37 },
      { name: "currency", kind: "function", start_line: 40, end_line: 43 },
    ]);
  });

  it("store/memory.rs: `impl Store for MemoryStore` members carry MemoryStore", async () => {
    const symbols = await symbolsIn(rust, project, `${SHOP}/store/memory.rs`);
    expect(symbols).toEqual([
      { name: "MemoryStore", kind: "struct", start_line: 7, end_line: 10 },
      { name: "new", kind: "method", container: "MemoryStore", start_line: 13, end_line: 15 },
      { name: "NAME", kind: "constant", container: "MemoryStore", start_line: 19, end_line: 19 },
      { name: "Key", kind: "type", container: "MemoryStore", start_line: 20, end_line: 20 },
      { name: "get", kind: "method", container: "MemoryStore", start_line: 22, end_line: 27 },
      { name: "put", kind: "method", container: "MemoryStore", start_line: 29, end_line: 33 },
      { name: "tests", kind: "module", start_line: 36, end_line: 46 },
      { name: "put_then_get", kind: "function", start_line: 40, end_line: 45 },
    ]);
  });

  it("util.rs: a union, an inline module, a `mod x;` inside it with its #[cfg], a `#[path]` module", async () => {
    const symbols = await symbolsIn(rust, project, `${SHOP}/util.rs`);
    expect(symbols).toEqual([
      { name: "normalize", kind: "function", start_line: 2, end_line: 4 },
      { name: "Bits", kind: "struct", start_line: 6, end_line: 10 },
      { name: "platform", kind: "module", start_line: 12, end_line: 15 },
      { name: "unix", kind: "module", start_line: 13, end_line: 14 },
      { name: "clock", kind: "module", start_line: 18, end_line: 19 },
    ]);
  });

  it("reduces impl self types to their name and leaves out items local to a function", async () => {
    const src = [
      "impl<'a, T> fmt::Display for &'a mut Wrapper<T> {", // 1
      "    fn fmt(&self) {}", // 2
      "}", // 3
      "impl a::b::Shape for geo::Circle { fn area(&self) -> f64 { 0.0 } }", // 4
      'extern "C" {', // 5
      "    fn abs(x: i32) -> i32;", // 6
      "}", // 7
      "fn outer() {", // 8
      "    struct Local;", // 9
      "    fn inner() {}", // 10
      "}", // 11
      "/// Doc comments are not part of the range.", // 12
      "#[inline]", // 13
      "// a plain comment between attribute and item", // 14
      "pub fn documented() {}", // 15
      "",
    ].join("\n");
    const { symbols } = await factsOf(rust, src);
    expect(symbols).toEqual([
      { name: "fmt", kind: "method", container: "Wrapper", start_line: 2, end_line: 2 },
      { name: "area", kind: "method", container: "Circle", start_line: 4, end_line: 4 },
      { name: "abs", kind: "function", start_line: 6, end_line: 6 },
      { name: "outer", kind: "function", start_line: 8, end_line: 11 },
      { name: "documented", kind: "function", start_line: 13, end_line: 15 },
    ]);
  });
});

describe("rust: import statements", () => {
  it("one entry per `use` with its group members; `mod x;` flagged; `extern crate` with alias; `use` in a fn; attributes", async () => {
    const src = [
      "extern crate serde;", // 1
      "extern crate alloc as a;", // 2
      "use crate::config::{Config, load as ld, inner::{x, y}};", // 3
      "use super::util;", // 4
      "use self::m::*;", // 5
      "pub(crate) use std::io::Write as _;", // 6
      "use ::std::fmt;", // 7
      "use {a::b, c};", // 8
      "#[cfg(test)]", // 9
      "mod tests;", // 10
      "mod inline {", // 11
      "    mod deeper;", // 12
      "    fn f() { use super::util; }", // 13
      "}", // 14
      "use crate::{", // 15
      "    a::{self, b},", // 16
      "};", // 17
      "#[cfg(unix)]", // 18
      "use std::os::unix::fs::PermissionsExt;", // 19
      "fn host() {", // 20
      "    #[cfg(windows)]", // 21
      "    {", // 22
      "        use winapi::um::sysinfo;", // 23
      "    }", // 24
      "    if true { use in_arm::seen; }", // 25
      "}", // 26
      "",
    ].join("\n");
    const { imports } = await factsOf(rust, src);
    expect(imports).toEqual<ImportRef[]>([
      { specifier: "serde", start_line: 1, end_line: 1 },
      { specifier: "alloc", alias: "a", start_line: 2, end_line: 2 },
      { specifier: "crate::config", names: ["Config", "load", "inner::x", "inner::y"], start_line: 3, end_line: 3 },
      { specifier: "super::util", start_line: 4, end_line: 4 },
      { specifier: "self::m", names: ["*"], start_line: 5, end_line: 5 },
      { specifier: "std::io::Write", alias: "_", start_line: 6, end_line: 6 },
      { specifier: "::std::fmt", start_line: 7, end_line: 7 },
      { specifier: "a::b", start_line: 8, end_line: 8 },
      { specifier: "c", start_line: 8, end_line: 8 },
      { specifier: "tests", flags: [MOD_DECLARATION_FLAG], start_line: 9, end_line: 10 },
      { specifier: "deeper", flags: [MOD_DECLARATION_FLAG], scope: ["inline"], start_line: 12, end_line: 12 },
      { specifier: "super::util", scope: ["inline"], start_line: 13, end_line: 13 },
      { specifier: "crate", names: ["a::self", "a::b"], start_line: 15, end_line: 17 },
      { specifier: "std::os::unix::fs::PermissionsExt", start_line: 18, end_line: 19 },
      // a statement block in a fn body is searched, and (second pass) an `if` arm
      { specifier: "winapi::um::sysinfo", start_line: 23, end_line: 23 },
      { specifier: "in_arm::seen", start_line: 25, end_line: 25 },
    ]);
  });
});

describe("rust: resolution over the workspace fixture", () => {
  it("lib.rs: `mod` declarations, `crate::` and a uniform-path group, `extern crate` of a sysroot crate", async () => {
    const f = `${SHOP}/lib.rs`;
    expect(await resolvedImports(rust, project, f)).toEqual([
      imp(f, 4, "alloc", "alloc", []),
      imp(f, 6, "config", "crate::config", [`${SHOP}/config.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(f, 7, "store", "crate::store", [`${SHOP}/store/mod.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(f, 8, "util", "crate::util", [`${SHOP}/util.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(f, 10, "crate::config::Config", "crate::config", [`${SHOP}/config.rs`]),
      imp(f, 11, "store", "crate::store", [`${SHOP}/store/memory.rs`, `${SHOP}/store/mod.rs`], { names: ["memory::MemoryStore", "Store"] }),
    ]);
  });

  it("config.rs: `mod` in a non-mod-rs file goes one folder down; `self::` and `super::*` in an inline test module", async () => {
    const f = `${SHOP}/config.rs`;
    expect(await resolvedImports(rust, project, f)).toEqual([
      imp(f, 2, "std::collections::HashMap", "std::collections::HashMap", []),
      imp(f, 3, "std::env", "std::env", []),
      imp(f, 5, "defaults", "crate::config::defaults", [`${SHOP}/config/defaults.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(f, 7, "self::defaults::DEFAULT_CURRENCY", "crate::config::defaults", [`${SHOP}/config/defaults.rs`]),
      imp(f, 39, "super", "crate::config", [f], { names: ["*"] }),
    ]);
  });

  it("store/mod.rs and store/memory.rs: `{self, …}` groups, `super::{…}` and `crate::util::*`", async () => {
    const m = `${SHOP}/store/mod.rs`;
    expect(await resolvedImports(rust, project, m)).toEqual([
      imp(m, 2, "memory", "crate::store::memory", [`${SHOP}/store/memory.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(m, 4, "crate::config", "crate::config", [`${SHOP}/config.rs`], { names: ["self", "Config"] }),
      imp(m, 5, "std::fmt", "std::fmt", []),
    ]);
    const mem = `${SHOP}/store/memory.rs`;
    expect(await resolvedImports(rust, project, mem)).toEqual([
      imp(mem, 1, "std::collections::HashMap", "std::collections::HashMap", []),
      imp(mem, 3, "super", "crate::store", [m], { names: ["Result", "Store", "StoreError"] }),
      imp(mem, 4, "crate::util", "crate::util", [`${SHOP}/util.rs`], { names: ["*"] }),
      imp(mem, 38, "super", "crate::store::memory", [mem], { names: ["*"] }),
    ]);
  });

  it("util.rs → util/platform/unix.rs: `mod` inside an inline module, `super::super` back out of it; `#[path]`", async () => {
    const u = `${SHOP}/util.rs`;
    const unix = `${SHOP}/util/platform/unix.rs`;
    expect(await resolvedImports(rust, project, u)).toEqual([
      imp(u, 13, "unix", "crate::util::platform::unix", [unix], { end: 14, flags: [MOD_DECLARATION_FLAG] }),
      imp(u, 18, "clock", "crate::util::clock", [`${SHOP}/util/clock_impl.rs`], { end: 19, flags: [MOD_DECLARATION_FLAG] }),
    ]);
    expect(await resolvedImports(rust, project, unix)).toEqual([
      imp(unix, 1, "super::super::normalize", "crate::util", [u]),
      imp(unix, 1, "::std::path::Path", "std::path::Path", []),
    ]);
  });

  it("shop-cli: workspace crate by name (also through `extern crate … as`), nested groups, `crate::` in a fn body", async () => {
    const f = `${CLI}/main.rs`;
    expect(await resolvedImports(rust, project, f)).toEqual([
      imp(f, 1, "shop", "shop", [`${SHOP}/lib.rs`], { alias: "core_shop" }),
      imp(f, 3, "shop", "shop", [`${SHOP}/config.rs`, `${SHOP}/store/memory.rs`, `${SHOP}/store/mod.rs`], {
        end: 6,
        names: ["config::Config", "store::memory::MemoryStore", "store::Store"],
      }),
      imp(f, 7, "std::env", "std::env", []),
      imp(f, 9, "commands", "crate::commands", [`${CLI}/commands.rs`], { flags: [MOD_DECLARATION_FLAG] }),
      imp(f, 12, "crate::commands::run", "crate::commands", [`${CLI}/commands.rs`]),
    ]);
    const l = `${CLI}/commands/list.rs`;
    expect(await resolvedImports(rust, project, l)).toEqual([
      imp(l, 1, "super::super::commands", "crate::commands", [`${CLI}/commands.rs`]),
      imp(l, 2, "shop::store", "shop::store", [`${SHOP}/store/mod.rs`], { names: ["self", "Result"] }),
      imp(l, 3, "shop", "shop", [`${SHOP}/lib.rs`], { names: ["Config", "MemoryStore"] }),
    ]);
  });

  it("integration tests are crate roots: `mod common;` → tests/common/mod.rs; `shop::…` → the library", async () => {
    const t = "crates/shop/tests/integration.rs";
    expect(await resolvedImports(rust, project, t)).toEqual([
      imp(t, 1, "common", "crate::common", ["crates/shop/tests/common/mod.rs"], { flags: [MOD_DECLARATION_FLAG] }),
      imp(t, 3, "shop::store::memory::MemoryStore", "shop::store::memory", [`${SHOP}/store/memory.rs`]),
      imp(t, 4, "shop::Store", "shop", [`${SHOP}/lib.rs`]),
    ]);
  });
});

describe("rust: resolution rules", () => {
  const p = memoryProject({
    "Cargo.toml": '[package]\nname = "my-app" # dash becomes underscore\n\n[lib]\npath = "src/lib.rs"\n',
    "src/lib.rs": "pub mod a;\nmod nested;\n",
    "src/a.rs": "pub mod b { pub struct Item; }\n",
    "src/nested/mod.rs": "mod leaf;\n",
    "src/nested/leaf.rs": "",
    "src/bin/tool.rs": "mod helper;\n",
    "src/bin/helper.rs": "",
  });
  const ref = (specifier: string, extra: Partial<ImportRef> = {}): ImportRef => ({ specifier, start_line: 1, end_line: 1, ...extra });
  const mod = (specifier: string): ImportRef => ref(specifier, { flags: [MOD_DECLARATION_FLAG] });

  it("`crate::a::b::Item` with `b` inline in a.rs → the deepest module file, src/a.rs", async () => {
    expect(await rust.resolve(ref("crate::a::b::Item"), "src/nested/leaf.rs", p)).toEqual({
      files: ["src/a.rs"],
      module: "crate::a",
      external: false,
    });
  });

  it("`mod x;` in mod.rs and in a crate root looks beside the file", async () => {
    expect((await rust.resolve(mod("leaf"), "src/nested/mod.rs", p)).files).toEqual(["src/nested/leaf.rs"]);
    expect((await rust.resolve(mod("helper"), "src/bin/tool.rs", p)).files).toEqual(["src/bin/helper.rs"]);
  });

  it("a missing `mod` file and `super` above the crate root are unresolved", async () => {
    expect(await rust.resolve(mod("gone"), "src/lib.rs", p)).toEqual({ files: [], module: "crate::gone", external: true, unresolved: true });
    expect(await rust.resolve(ref("super::x"), "src/lib.rs", p)).toEqual({ files: [], module: "super::x", external: true, unresolved: true });
  });

  it("a package name with `-` is used as `_`, and a plain external crate stays external by its path", async () => {
    expect(await rust.resolve(ref("my_app::a"), "src/bin/tool.rs", p)).toEqual({ files: ["src/a.rs"], module: "my_app::a", external: false });
    expect(await rust.resolve(ref("serde::de", { names: ["Deserialize"] }), "src/lib.rs", p)).toEqual({
      files: [],
      module: "serde::de",
      external: true,
    });
  });

  it("`#[path]` on `mod`: relative to the file's folder, or below the file's stem inside an inline module", async () => {
    const source = ['#[path = "sys/unix.rs"]', "mod imp;", "mod outer {", '    #[path = "deep.rs"]', "    mod inner;", "}", ""].join("\n");
    const withPaths = memoryProject({
      "Cargo.toml": '[package]\nname = "p"\n',
      "src/lib.rs": "mod platform;\n",
      "src/platform.rs": source,
      "src/sys/unix.rs": "",
      "src/platform/outer/deep.rs": "",
    });
    const { imports } = await factsOf(rust, source);
    expect(imports).toEqual<ImportRef[]>([
      { specifier: "imp", flags: [MOD_DECLARATION_FLAG], filePath: "sys/unix.rs", start_line: 1, end_line: 2 },
      { specifier: "inner", flags: [MOD_DECLARATION_FLAG], scope: ["outer"], filePath: "deep.rs", start_line: 4, end_line: 5 },
    ]);
    const files = await Promise.all(imports.map(async (r) => (await rust.resolve(r, "src/platform.rs", withPaths)).files));
    expect(files).toEqual([["src/sys/unix.rs"], ["src/platform/outer/deep.rs"]]);
  });

  it("without Cargo.toml the nearest folder with lib.rs/main.rs is the crate root", async () => {
    const bare = memoryProject({ "x/main.rs": "mod m;\n", "x/m.rs": "", "x/m/k.rs": "" });
    expect((await rust.resolve(ref("crate::m::k"), "x/m.rs", bare)).files).toEqual(["x/m/k.rs"]);
    expect(await rust.moduleNames?.("x/m/k.rs", bare)).toEqual(["crate::m::k"]);
  });

  it("reads package, lib and bin keys from Cargo.toml", () => {
    const text = '[package]\nname = "shop-cli"\n\n[lib]\nname = "shopcore"\npath = \'lib/core.rs\'\n\n[[bin]]\nname = "a"\npath = "bin/a.rs"\n[dependencies]\nname = "nope"\n';
    expect(parseCargoManifest(text)).toEqual({
      packageName: "shop-cli", libName: "shopcore", libPath: "lib/core.rs", targets: [{ kind: "bin", name: "a", path: "bin/a.rs" }], noAutoDiscovery: [],
    });
  });

  it("autotests = false: only the declared [[test]] targets are test crates, and their modules resolve under them", async () => {
    const manifest = '[package]\nname = "lib"\nautotests = false\n\n[[test]]\nname = "integration"\npath = "tests/integration/main.rs"\n\n[[test]]\nname = "smoke"\n';
    expect(parseCargoManifest(manifest)).toEqual({
      packageName: "lib", targets: [{ kind: "test", name: "integration", path: "tests/integration/main.rs" }, { kind: "test", name: "smoke" }], noAutoDiscovery: ["test"],
    });
    const p = memoryProject({
      "Cargo.toml": manifest,
      "src/lib.rs": "pub mod api;\n",
      "src/api.rs": "",
      "tests/integration/main.rs": "mod util;\nmod routes;\n",
      "tests/integration/util.rs": "",
      "tests/integration/routes.rs": "use crate::util::helper;\nuse lib::api;\n",
      "tests/smoke.rs": "",
      "tests/helpers.rs": "",
    });
    // tests/integration/main.rs is a crate root: `mod util;` beside it, `crate::util` from its modules
    expect((await rust.resolve({ specifier: "util", start_line: 1, end_line: 1, flags: [MOD_DECLARATION_FLAG] }, "tests/integration/main.rs", p)).files).toEqual(["tests/integration/util.rs"]);
    expect((await rust.resolve(ref("crate::util::helper"), "tests/integration/routes.rs", p)).files).toEqual(["tests/integration/util.rs"]);
    expect((await rust.resolve(ref("lib::api"), "tests/integration/routes.rs", p)).files).toEqual(["src/api.rs"]);
    expect(await rust.moduleNames?.("tests/integration/util.rs", p)).toEqual(["crate::util"]);
    expect(await rust.moduleNames?.("tests/smoke.rs", p)).toEqual(["crate"]);
  });

  it("use self::x::* (and the uniform path x::…) where #[path] chooses the file of mod x", async () => {
    const p = memoryProject({
      "Cargo.toml": '[package]\nname = "sys"\n',
      "src/lib.rs": '#[cfg(unix)]\n#[path = "imp/unix.rs"]\nmod os;\npub use self::os::*;\nuse os::Handle;\n',
      "src/imp/unix.rs": "pub struct Handle;\n",
    });
    expect(await rust.resolve(ref("self::os", { names: ["*"] }), "src/lib.rs", p)).toEqual({ files: ["src/imp/unix.rs"], module: "crate::os", external: false });
    expect((await rust.resolve(ref("os::Handle"), "src/lib.rs", p)).files).toEqual(["src/imp/unix.rs"]);
    expect((await rust.resolve(ref("crate::os::Handle"), "src/lib.rs", p)).files).toEqual(["src/imp/unix.rs"]);
  });

  it("use declarations inside closure bodies and match arms are imports", async () => {
    const src = [
      "fn main() {", //1
      "    let f = || {", //2
      "        use std::fmt::Write;", //3
      "        1", //4
      "    };", //5
      "    match 1 {", //6
      "        _ => { use crate::util::helper; helper() }", //7
      "    }", //8
      "}", //9
    ].join("\n");
    expect((await factsOf(rust, src)).imports.map((r) => [r.specifier, r.start_line])).toEqual([["std::fmt::Write", 3], ["crate::util::helper", 7]]);
  });

  it("names files by module path and hints importers (`super` reaches a module unnamed)", async () => {
    expect(await rust.moduleNames?.(`${SHOP}/store/memory.rs`, project)).toEqual(["crate::store::memory", "shop::store::memory"]);
    expect(await rust.moduleNames?.(`${SHOP}/lib.rs`, project)).toEqual(["crate", "shop"]);
    expect(await rust.moduleNames?.(`${CLI}/commands/list.rs`, project)).toEqual(["crate::commands::list"]);
    expect(await rust.importerHints?.(`${SHOP}/store/mod.rs`, project)).toEqual({ literals: ["store"], patterns: ["\\bsuper\\b"] });
    expect(await rust.importerHints?.(`${SHOP}/lib.rs`, project)).toEqual({ literals: ["crate", "shop"], patterns: ["\\bsuper\\b"] });
  });

  it("matches external uses by whole path segments, through groups and globs", () => {
    const group = ref("std", { names: ["fs", "io::*"] });
    const res = { files: [], module: "std", external: true };
    const matches = (q: string) => rust.matchesExternal?.(q, group, res, false);
    expect([matches("std"), matches("std::fs"), matches("std::io"), matches("std::io::Read"), matches("std::f"), matches("serde")]).toEqual([
      true, true, true, true, false, false,
    ]);
    // `use std::collections::HashMap` takes a name from std::collections: std itself only with submodules.
    const deep = ref("std::collections::HashMap");
    const deepRes = { files: [], module: "std::collections::HashMap", external: true };
    expect([false, true].map((sub) => rust.matchesExternal?.("std", deep, deepRes, sub))).toEqual([false, true]);
    expect(rust.matchesExternal?.("std::collections", deep, deepRes, false)).toBe(true);
  });
});

describe("rust: find_symbol and find_importers end to end", () => {
  it("find_symbol `get` (methods): the trait's required method and the impl's, each with its container", async () => {
    expect((await definitionsOf(root, "get", "method")).records).toEqual([
      `${SHOP}/store/memory.rs:22-27 MemoryStore.get method |     fn get(&self, key: &String) -> Result<u64> {`,
      `${SHOP}/store/mod.rs:32-32 Store.get method |     fn get(&self, key: &Self::Key) -> Result<u64>;`,
    ]);
  });

  it("find_symbol `Config` (struct) starts at its #[derive]", async () => {
    const { records, snippets } = await definitionsOf(root, "Config", "struct");
    expect(records).toEqual([`${SHOP}/config.rs:10-14 Config struct | #[derive(Debug, Clone, PartialEq)]`]);
    expect(snippets[0]?.split("\n")[1]).toBe("pub struct Config {");
  });

  it("find_importers of store/mod.rs: `mod store;`, uniform-path and `super::` groups, other crates; not its own tests", async () => {
    expect((await importersOf(root, `${SHOP}/store/mod.rs`)).records).toEqual([
      `${CLI}/commands.rs:3-3 shop::store | use shop::store::Result;`,
      `${CLI}/commands/list.rs:2-2 shop::store | use shop::store::{self, Result};`,
      `${CLI}/main.rs:3-6 shop | use shop::{`,
      `${SHOP}/lib.rs:7-7 crate::store flags=mod_declaration | pub mod store;`,
      `${SHOP}/lib.rs:11-11 crate::store | pub use store::{memory::MemoryStore, Store};`,
      `${SHOP}/store/memory.rs:3-3 crate::store | use super::{Result, Store, StoreError};`,
    ]);
  });

  it("find_importers of config.rs and of an external path (`std::collections`)", async () => {
    expect((await importersOf(root, `${SHOP}/config.rs`)).records).toEqual([
      `${CLI}/main.rs:3-6 shop | use shop::{`,
      `${SHOP}/config/defaults.rs:1-1 crate::config | use super::Config;`,
      `${SHOP}/lib.rs:6-6 crate::config flags=mod_declaration | pub mod config;`,
      `${SHOP}/lib.rs:10-10 crate::config | pub use crate::config::Config;`,
      `${SHOP}/store/mod.rs:4-4 crate::config | use crate::config::{self, Config};`,
    ]);
    expect((await importersOf(root, "std::collections")).records).toEqual([
      `${SHOP}/config.rs:2-2 std::collections::HashMap | use std::collections::HashMap;`,
      `${SHOP}/config/defaults.rs:2-2 std::collections::HashMap | use std::collections::HashMap;`,
      `${SHOP}/store/memory.rs:1-1 std::collections::HashMap | use std::collections::HashMap;`,
    ]);
  });

  it("a module written as a Rust path (`shop::store::memory`, `store::memory`) is that module's file: `mod`, groups, other crates", async () => {
    const expected = [
      `${CLI}/main.rs:3-6 shop | use shop::{`,
      `${SHOP}/lib.rs:11-11 crate::store | pub use store::{memory::MemoryStore, Store};`,
      `${SHOP}/store/mod.rs:2-2 crate::store::memory flags=mod_declaration | pub mod memory;`,
      "crates/shop/tests/integration.rs:3-3 shop::store::memory | use shop::store::memory::MemoryStore;",
    ];
    expect((await importersOf(root, "shop::store::memory")).records).toEqual(expected);
    expect((await importersOf(root, "crate::store::memory")).records).toEqual(expected);
    const tail = await importersOf(root, "store::memory");
    expect(tail.records).toEqual(expected);
    expect(noteOf(tail)).toBeUndefined();
    // the same as asking for the file
    expect((await importersOf(root, `${SHOP}/store/memory.rs`)).records).toEqual(expected);
  });

  it("`crate::config` and `shop::config` name config.rs; its own `use super::*` (line 39) is not an importer", async () => {
    const expected = [
      `${CLI}/main.rs:3-6 shop | use shop::{`,
      `${SHOP}/config/defaults.rs:1-1 crate::config | use super::Config;`,
      `${SHOP}/lib.rs:6-6 crate::config flags=mod_declaration | pub mod config;`,
      `${SHOP}/lib.rs:10-10 crate::config | pub use crate::config::Config;`,
      `${SHOP}/store/mod.rs:4-4 crate::config | use crate::config::{self, Config};`,
    ];
    const viaCrate = await importersOf(root, "crate::config");
    expect(viaCrate.records).toEqual(expected);
    expect(viaCrate.records.some((r) => r.startsWith(`${SHOP}/config.rs:`))).toBe(false);
    expect((await importersOf(root, "shop::config")).records).toEqual(expected);
  });

  it("a bare module name (`store`) is read as the one module it ends", async () => {
    expect((await importersOf(root, "store")).records).toEqual([
      `${CLI}/commands.rs:3-3 shop::store | use shop::store::Result;`,
      `${CLI}/commands/list.rs:2-2 shop::store | use shop::store::{self, Result};`,
      `${CLI}/main.rs:3-6 shop | use shop::{`,
      `${SHOP}/lib.rs:7-7 crate::store flags=mod_declaration | pub mod store;`,
      `${SHOP}/lib.rs:11-11 crate::store | pub use store::{memory::MemoryStore, Store};`,
      `${SHOP}/store/memory.rs:3-3 crate::store | use super::{Result, Store, StoreError};`,
    ]);
  });
});

/** Rust ground truth: the files rustc read for each crate (cargo dep-info) = our `mod` closure (skipped without cargo). */
const hasCargo = hasTool("cargo", ["--version"]);

describe.skipIf(!hasCargo)("rust: agrees with cargo's dep-info", () => {
  const scratch = scratchDir("codecite-rust-");

  it("every crate's module tree", async () => {
    const work = join(scratch, "ws");
    cpSync(root, work, { recursive: true });
    const target = join(scratch, "target");
    execFileSync("cargo", ["check", "--offline", "--all-targets", "--quiet"], {
      cwd: work,
      env: { ...process.env, CARGO_TARGET_DIR: target, CARGO_TERM_COLOR: "never" },
      stdio: "ignore",
    });
    const deps = join(target, "debug", "deps");
    const crates = new Map<string, string[]>();
    for (const name of readdirSync(deps).filter((n) => n.endsWith(".d"))) {
      const first = readFileSync(join(deps, name), "utf8").split("\n")[0] ?? "";
      const files = first
        .slice(first.indexOf(": ") + 2)
        .split(" ")
        .filter((s) => s.endsWith(".rs"))
        .map((s) => (s.startsWith(work) ? s.slice(work.length + 1) : s));
      if (files[0] !== undefined) crates.set(files[0], files.slice().sort());
    }
    expect([...crates.keys()].sort()).toEqual([`${CLI}/main.rs`, `${SHOP}/lib.rs`, "crates/shop/tests/integration.rs"]);
    for (const [crateRoot, rustcFiles] of crates) {
      const seen = new Set<string>([crateRoot]);
      const queue = [crateRoot];
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        const { imports } = await factsOf(rust, project.read(file));
        for (const ref of imports.filter((r) => r.flags?.includes(MOD_DECLARATION_FLAG))) {
          for (const target of (await rust.resolve(ref, file, project)).files) {
            if (!seen.has(target)) {
              seen.add(target);
              queue.push(target);
            }
          }
        }
      }
      expect([...seen].sort(), crateRoot).toEqual(rustcFiles);
    }
  });
});
