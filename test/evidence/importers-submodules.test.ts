/**
 * find_importers: one rule for submodules — the exact module by default, for packages of the
 * repository and libraries alike; `include_submodules` adds every module under it. Also over a
 * package that lives in a real git submodule of the repository.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findImporters } from "../../src/evidence/importers.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findImportersInput } from "../../src/tools/code-tool-inputs.js";
import { runCli } from "../cli/run-cli.js";

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`);
const both = async (ws: Workspace, module_name: string) => ({
  exact: where(await findImporters(ws, { module_name, max_results: 50 })),
  all: where(await findImporters(ws, { module_name, include_submodules: true, max_results: 50 })),
});

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
}

const FILES: Record<string, string> = {
  // Python: a repository package and an external one
  "flask/__init__.py": "from .globals import g\n",
  "flask/globals.py": "g = 1\n",
  "flask/json/__init__.py": "def dumps(x):\n    return x\n",
  "app.py": "import flask\nfrom flask.globals import g\nfrom flask.json import dumps\nimport werkzeug\nfrom werkzeug.exceptions import NotFound\nfrom werkzeug import routing\n",
  // TypeScript: a folder with an index, and a library with subpaths
  "web/ui/index.ts": "export * from './button';\n",
  "web/ui/button.ts": "export const Button = 1;\n",
  "web/main.ts": "import { Button } from './ui';\nimport { Button as B } from './ui/button';\nimport React from 'react';\nimport { jsx } from 'react/jsx-runtime';\n",
  // Go: a package and its subpackage; net and net/http
  "go.mod": "module example.com/app\n\ngo 1.21\n",
  "lib/lib.go": "package lib\n\nfunc F() {}\n",
  "lib/sub/sub.go": "package sub\n\nfunc G() {}\n",
  "cmd/main.go": 'package main\n\nimport (\n\t"example.com/app/lib"\n\t"example.com/app/lib/sub"\n\t"net"\n\t"net/http"\n)\n\nfunc main() { lib.F(); sub.G(); _ = net.IPv4len; _ = http.StatusOK }\n',
  // Rust: a module file with a child module
  "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
  "src/lib.rs": "pub mod store;\npub mod api;\n",
  "src/store.rs": "pub mod memory;\npub struct Store;\n",
  "src/store/memory.rs": "pub struct Mem;\n",
  "src/api.rs": "use crate::store::Store;\nuse crate::store::memory::Mem;\nuse std::collections::HashMap;\nuse std::fs;\n",
};

describe("find_importers: the exact module by default, everything under it with include_submodules", () => {
  let dir: string;
  let ws: Workspace;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-submodules-"));
    writeTree(dir, FILES);
    ws = await Workspace.open(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the parameter defaults to false in the tool schema", () => {
    expect(findImportersInput.parse({ module_name: "x" })).toEqual({ module_name: "x", include_submodules: false, max_results: 50 });
  });

  it("Python: a repository package and an external package follow the same rule", async () => {
    expect(await both(ws, "flask")).toEqual({
      exact: ["app.py:1 flask"],
      all: ["app.py:1 flask", "app.py:2 flask.globals", "app.py:3 flask.json", "flask/__init__.py:1 flask.globals"],
    });
    expect(await both(ws, "werkzeug")).toEqual({
      exact: ["app.py:4 werkzeug", "app.py:6 werkzeug"],
      all: ["app.py:4 werkzeug", "app.py:5 werkzeug.exceptions", "app.py:6 werkzeug"],
    });
  });

  it("TypeScript: a folder's index and a library's subpaths", async () => {
    expect(await both(ws, "web/ui")).toEqual({
      exact: ["web/main.ts:1 web/ui/index.ts"],
      all: ["web/main.ts:1 web/ui/index.ts", "web/main.ts:2 web/ui/button.ts", "web/ui/index.ts:1 web/ui/button.ts"],
    });
    expect(await both(ws, "react")).toEqual({
      exact: ["web/main.ts:3 react"],
      all: ["web/main.ts:3 react", "web/main.ts:4 react/jsx-runtime"],
    });
  });

  it("Go: a package and its subpackages; net and net/http", async () => {
    expect(await both(ws, "example.com/app/lib")).toEqual({
      exact: ["cmd/main.go:4 example.com/app/lib"],
      all: ["cmd/main.go:4 example.com/app/lib", "cmd/main.go:5 example.com/app/lib/sub"],
    });
    expect(await both(ws, "net")).toEqual({
      exact: ["cmd/main.go:6 net"],
      all: ["cmd/main.go:6 net", "cmd/main.go:7 net/http"],
    });
  });

  it("Rust: a module and its child module; a crate's items and deeper paths", async () => {
    expect(await both(ws, "crate::store")).toEqual({
      exact: ["src/api.rs:1 crate::store", "src/lib.rs:1 crate::store"],
      all: ["src/api.rs:1 crate::store", "src/api.rs:2 crate::store::memory", "src/lib.rs:1 crate::store", "src/store.rs:1 crate::store::memory"],
    });
    expect(await both(ws, "std")).toEqual({
      exact: ["src/api.rs:4 std::fs"],
      all: ["src/api.rs:3 std::collections::HashMap", "src/api.rs:4 std::fs"],
    });
  });

  it("CLI: --include-submodules", async () => {
    const lines = async (...extra: string[]) => {
      const r = await runCli(["importers", "werkzeug", "--root", dir, "--json", ...extra]);
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as EvidenceResult).evidence.map((e) => `${e.path}:${e.start_line}`);
    };
    expect(await lines()).toEqual(["app.py:4", "app.py:6"]);
    expect(await lines("--include-submodules")).toEqual(["app.py:4", "app.py:5", "app.py:6"]);
  });
});

describe("find_importers by name: a Rust glob import of the name's parent module", () => {
  let dir: string;
  let ws: Workspace;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-glob-"));
    // Neither glob file writes `Read`; the prefilter and the import screen must still let them through.
    writeTree(dir, {
      "Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
      "src/main.rs": "mod grouped;\nmod other;\nuse std::io::*;\n\nfn main() { let _ = stdin(); }\n",
      "src/grouped.rs": "use std::{fs, io::*};\n",
      "src/other.rs": "use std::fmt::*;\nuse studio::*;\nuse std::io::Write;\n",
    });
    ws = await Workspace.open(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("`use std::io::*;` and `use std::{fs, io::*};` import std::io::Read; other globs do not", async () => {
    expect(await both(ws, "std::io::Read")).toEqual({
      exact: ["src/grouped.rs:1 std", "src/main.rs:3 std::io"],
      all: ["src/grouped.rs:1 std", "src/main.rs:3 std::io"],
    });
  });
});

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync("git", ["-c", "protocol.file.allow=always", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
};

describe("find_importers: a package inside a git submodule of the repository", () => {
  let base: string;
  let ws: Workspace;
  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), "codecite-gitsub-"));
    const lib = path.join(base, "vendorlib");
    writeTree(lib, { "shapes/__init__.py": "from .circle import Circle\n", "shapes/circle.py": "class Circle:\n    pass\n" });
    git(lib, "init", "-q");
    git(lib, "add", ".");
    git(lib, "commit", "-q", "-m", "lib");
    const app = path.join(base, "app");
    writeTree(app, { "main.py": "import shapes\nfrom shapes.circle import Circle\n" });
    git(app, "init", "-q");
    git(app, "add", ".");
    git(app, "commit", "-q", "-m", "app");
    git(app, "submodule", "add", "-q", lib, "third/vendorlib");
    // The submodule's folder is a source root (as a checkout that sets PYTHONPATH to it would have it).
    writeTree(app, { "pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["third/vendorlib"]\n' });
    ws = await Workspace.open(app);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("the package's files are walked and its submodules counted only when asked", async () => {
    expect(await both(ws, "shapes")).toEqual({
      exact: ["main.py:1 shapes"],
      all: ["main.py:1 shapes", "main.py:2 shapes.circle", "third/vendorlib/shapes/__init__.py:1 shapes.circle"],
    });
  });
});
