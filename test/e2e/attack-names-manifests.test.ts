/**
 * Hostile repository content not reached before, through the built CLI (spawned):
 * - file names: named like options (`-rf.py`, `--pre=pwn.py`: ripgrep's `--pre` runs a program),
 *   an NFC/NFD pair (`café.py` twice, different bytes), a newline and escapes in a name, a root
 *   that is itself a symbolic link;
 * - build and workspace files naming folders outside the root (`Cargo.toml` members,
 *   `package.json` workspaces, `composer.json` autoload, `compile_commands.json` directory and
 *   `-I`, `go.work`, `.gitmodules`; `compile_commands.json` `file` outside, tsconfig `extends` and
 *   `paths`, `go.mod` `replace`, `Package.swift` target `path`): nothing of the outside folder, marked with a canary, appears in
 *   any output or in the fact cache.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const CANARY = `OUTSIDECANARY${process.pid}q`;
const NFC = "src/caf\u00e9.py";
const NFD = "src/cafe\u0301.py";
const ODD = "src/evil\nsrc/forged.py:1  function fake\u001b[31m.py";

let w: string;
let root: string;
let outside: string;
let cache: string;

beforeAll(() => {
  w = makeTempDir("codecite-attack-names-");
  outside = path.join(w, "outside");
  cache = path.join(w, "cache");
  for (const f of ["pkg/src/lib.rs", "pkg/src/index.js", "pkg/src/Foo.php", "pkg/foo.h", "pkg/main.go", "pkg/index.ts", "pkg/Out.swift"]) {
    putFile(outside, f, `// ${CANARY}\nint outside_fn(void); function outside_fn() {} fn outside_fn() {} func outside_fn() {}\n`);
  }
  putFile(outside, "pkg/Cargo.toml", '[package]\nname = "outpkg"\n');
  putFile(outside, "pkg/package.json", '{"name":"outpkg","main":"src/index.js"}');
  putFile(outside, "pkg/go.mod", "module example.com/out\n");
  root = path.join(w, "proj");
  putFile(root, "-rf.py", "def dash_rf():\n    return 1\n");
  putFile(root, "--pre=pwn.py", "def dash_pre():\n    return 2\n");
  // What ripgrep would run if `--pre=pwn.py` were read as its option.
  putFile(root, "pwn.py", `#!/bin/sh\necho ran > ${JSON.stringify(path.join(w, "pwned"))}\ncat "$1"\n`);
  chmodSync(path.join(root, "pwn.py"), 0o755);
  putFile(root, NFC, "def composed():\n    return 3\n");
  putFile(root, NFD, "def decomposed():\n    return 4\n");
  putFile(root, ODD, "def forged_name():\n    return 5\n");
  const out = (p: string) => path.join(outside, p);
  putFile(root, "Cargo.toml", `[workspace]\nmembers = ["../outside/pkg", "../../*/outside/pkg", ${JSON.stringify(out("pkg"))}]\n`);
  putFile(root, "package.json", JSON.stringify({ name: "r", workspaces: ["../outside/*", out("pkg")] }));
  putFile(root, "composer.json", JSON.stringify({ autoload: { "psr-4": { "Out\\": "../outside/pkg/src/", "Abs\\": out("pkg/src") } } }));
  putFile(
    root,
    "compile_commands.json",
    JSON.stringify([
      { directory: out("pkg"), file: "foo.c", command: `cc -I. -I${out("pkg")} -c foo.c` },
      { directory: root, file: out("pkg/foo.h"), arguments: ["cc", `-I${out("pkg")}`, "-I../outside/pkg", "-c", out("pkg/foo.h")] },
    ]),
  );
  putFile(outside, "pkg/tsconfig.json", JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "*": ["./*"] } }, include: ["**/*"] }));
  putFile(
    root,
    "tsconfig.json",
    JSON.stringify({ extends: "../outside/pkg/tsconfig.json", compilerOptions: { baseUrl: ".", paths: { "lib/*": ["../outside/pkg/*", out("pkg/*")], "@etc": ["/etc/passwd"] } } }),
  );
  putFile(root, "go.mod", `module example.com/proj

replace example.com/out => ../outside/pkg
replace example.com/abs => ${out("pkg")}
`);
  putFile(
    root,
    "Package.swift",
    `// swift-tools-version:5.5\nimport PackageDescription\nlet package = Package(name: "P", targets: [.target(name: "Out", path: "../outside/pkg"), .target(name: "Abs", path: ${JSON.stringify(out("pkg"))}), .target(name: "App", path: "Sources/App")])\n`,
  );
  putFile(root, "src/t.ts", 'import { outside_fn } from "lib/index";\nimport "@etc";\noutside_fn();\n');
  putFile(root, "Sources/App/main.swift", "import Out\nimport Abs\nlet x = outside_fn()\n");
  putFile(root, "go.work", `go 1.21\nuse ../outside/pkg\nuse ${out("pkg")}\n`);
  putFile(root, ".gitmodules", '[submodule "x"]\n\tpath = ../outside/pkg\n\turl = ../outside/pkg\n');
  putFile(root, "src/main.rs", "use outpkg::outside_fn;\nfn main() { outside_fn(); }\n");
  putFile(root, "src/a.js", 'const o = require("outpkg");\no.outside_fn();\n');
  putFile(root, "src/m.c", '#include "foo.h"\nint main(void) { return outside_fn(); }\n');
  putFile(root, "src/b.php", "<?php\nuse Out\\Foo;\noutside_fn();\n");
  putFile(root, "src/m.go", 'package main\nimport "example.com/out"\nfunc main() { out.outside_fn() }\n');
  git(root, "init", "-q", "-b", "main");
  commitAll(root, "init");
});

afterAll(() => rmSync(w, { recursive: true, force: true }));

const cli = (args: string[], cwd?: string) => runCli([...args, "--root", root], { env: { CODECITE_CACHE_DIR: cache }, ...(cwd ? { cwd } : {}) });

/** Every file under `dir`, read as latin1 (the fact cache's SQLite files included). */
function allText(dir: string): string {
  if (!existsSync(dir)) return "";
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, "latin1"))
    .join("\n");
}

describe("file names named like options, Unicode pairs, control characters", () => {
  it("-rf.py and --pre=pwn.py are files, never options: found and read, and pwn.py never runs", async () => {
    const sym = await cli(["symbol", "dash_pre", "--json"]);
    expect((JSON.parse(sym.stdout) as { evidence: Array<{ path: string }> }).evidence.map((e) => e.path)).toEqual(["--pre=pwn.py"]);
    const search = await cli(["search", "return [12]", "--regex", "--json"]);
    expect((JSON.parse(search.stdout) as { evidence: Array<{ path: string }> }).evidence.map((e) => e.path).sort()).toEqual(["--pre=pwn.py", "-rf.py"]);
    const read = await cli(["read", "./-rf.py", "--json"], root);
    expect(read.code, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as { evidence: Array<{ snippet: string }> }).evidence[0]!.snippet).toContain("def dash_rf");
    expect(existsSync(path.join(w, "pwned"))).toBe(false);
  });

  it("an NFC and an NFD name are two files, each read as itself", async () => {
    for (const [file, name] of [[NFC, "composed"], [NFD, "decomposed"]] as const) {
      const r = await cli(["symbol", name, "--json"]);
      expect((JSON.parse(r.stdout) as { evidence: Array<{ path: string }> }).evidence.map((e) => e.path)).toEqual([file]);
      const read = await cli(["read", file, "--json"]);
      expect((JSON.parse(read.stdout) as { evidence: Array<{ snippet: string }> }).evidence[0]!.snippet).toContain(`def ${name}`);
    }
  });

  it("a name with a newline and an escape is one record in human output, escaped (it cannot forge a line or colour the terminal)", async () => {
    const r = await cli(["symbol", "forged_name"], root);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout.split("\n")[0]).toBe("src/evil\\nsrc/forged.py:1  function fake\\x1b[31m.py:1  function forged_name");
    expect(r.stdout.split("\n").filter((l) => l.startsWith("src/forged.py"))).toEqual([]);
  });

  it("a root that is a symbolic link is served by its real folder, paths relative to it", async () => {
    const link = path.join(w, "proj-link");
    symlinkSync(root, link);
    const r = await runCli(["symbol", "composed", "--json", "--root", link], { env: { CODECITE_CACHE_DIR: cache } });
    expect((JSON.parse(r.stdout) as { evidence: Array<{ path: string }> }).evidence.map((e) => e.path)).toEqual([NFC]);
  });
});

describe("build and workspace files that name folders outside the root", () => {
  it("symbol, refs, importers and search never show the outside folder; the fact cache holds none of it", async () => {
    const runs = await Promise.all(
      [
        ["symbol", "outside_fn"],
        ["refs", "outside_fn"],
        ["refs", "outside_fn", "--path", "src/m.c"],
        ["importers", "outpkg"],
        ["importers", "example.com/out"],
        ["importers", "foo.h"],
        ["importers", "Out\\Foo"],
        ["importers", "lib/index"],
        ["importers", "Out"],
        ["importers", "example.com/abs"],
        ["refs", "outside_fn", "--path", "src/t.ts"],
        ["search", "outside_fn"],
      ].map((a) => cli([...a, "--json", "--all"])),
    );
    for (const r of runs) {
      // An answer, or the typed NOT_FOUND of a name defined only outside (refs of outside_fn).
      const j = JSON.parse(r.stdout) as { ok: boolean; error?: { code: string } };
      expect(j.ok || j.error?.code === "NOT_FOUND", r.stdout.slice(0, 300)).toBe(true);
      expect(r.stdout + r.stderr).not.toContain(CANARY);
      expect(r.stdout + r.stderr).not.toContain(outside);
    }
    const paths = runs.flatMap((r) => ((JSON.parse(r.stdout) as { evidence?: Array<{ path: string }> }).evidence ?? []).map((e) => e.path));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => !p.startsWith("..") && !path.isAbsolute(p))).toBe(true);
    const cached = allText(cache);
    expect(cached.length).toBeGreaterThan(0);
    expect(cached).not.toContain(CANARY);
  });
});
