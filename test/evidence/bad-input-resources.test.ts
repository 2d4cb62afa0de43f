/**
 * Resource bombs (issue 9, kinds 8 and 9, and the related outcomes of kind 13): ignore files that
 * are FIFOs or links to `/dev/zero` (in the root or above it), a `*` in a parent `.gitignore`,
 * tool-call arguments nested 100k deep (native and in model text), 150k tool calls in one streamed
 * message, and trees of 200k names. Each ends in a typed error or a normal result; nothing hangs;
 * no absolute host path appears in a message.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { searchCode } from "../../src/evidence/search.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { jsonDepthExceeds } from "../../src/llm/json-depth.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { parseToolArguments } from "../../src/llm/tool-arguments.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { searchArgs as s } from "../helpers/evidence-args.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

let w: string;
beforeAll(() => {
  w = makeTempDir("codecite-bombs-");
});
afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

describe("kind 9: ignore files that are not files", () => {
  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ["a FIFO .gitignore in the root", (f) => execFileSync("mkfifo", [f]), /a FIFO/],
    ["a .ignore linked to /dev/zero", (f) => symlinkSync("/dev/zero", f), /a symbolic link/],
    ["a .rgignore linked outside the root", (f) => symlinkSync(path.join(w, "outside-ignore"), f), /a symbolic link/],
  ];
  for (const [label, make, what] of cases) {
    it(`${label} is refused before ripgrep opens it (search, walk, symbols)`, async () => {
      const r = path.join(w, label.replace(/\W+/g, "-"));
      putFile(r, "src/deep/a.py", "def needle():\n    return 1\n");
      const name = label.includes(".rgignore") ? ".rgignore" : label.includes(".ignore") ? ".ignore" : ".gitignore";
      make(path.join(r, "src/deep", name));
      const ws = await Workspace.open(r);
      for (const run of [() => searchCode(ws, s({ query: "needle" })), () => ws.listFiles(), () => findSymbol(ws, { name: "needle", max_results: 50 })]) {
        const o = await toolOutcome(run);
        expect(o.code).toBe("UNSUPPORTED");
        expect(o.message).toMatch(new RegExp(`^the ignore file src/deep/\\${name} is `));
        expect(o.message).toMatch(what);
        expect(o.text).not.toContain(w);
      }
    });
  }

  it("a link to a regular ignore file inside the root is fine", async () => {
    const r = path.join(w, "linked-ignore");
    putFile(r, "shared.ignore", "gen/\n");
    putFile(r, "gen/x.py", "needle = 1\n");
    putFile(r, "a.py", "needle = 2\n");
    symlinkSync("shared.ignore", path.join(r, ".ignore"));
    const res = await searchCode(await Workspace.open(r), s({ query: "needle" }));
    expect(res.evidence.map((e) => e.path)).toEqual(["a.py"]);
  });

  it("rules of ignore files above the root are never applied: a `*` there hides nothing", async () => {
    const parent = path.join(w, "parent");
    mkdirSync(parent);
    writeFileSync(path.join(parent, ".gitignore"), "*\n");
    writeFileSync(path.join(parent, ".ignore"), "*\n");
    putFile(parent, "proj/a.py", "def needle():\n    return 1\n");
    const ws = await Workspace.open(path.join(parent, "proj"));
    expect((await searchCode(ws, s({ query: "needle" }))).evidence.map((e) => e.path)).toEqual(["a.py"]);
    expect((await ws.listFiles()).map((f) => f.path)).toEqual(["a.py"]);
  });

  it("a FIFO or /dev/zero link as an ignore file above the root is refused, without the host path", async () => {
    for (const [name, make] of [
      [".ignore", (f: string) => execFileSync("mkfifo", [f])],
      [".gitignore", (f: string) => symlinkSync("/dev/zero", f)],
    ] as const) {
      const parent = path.join(w, `parent-${name}`);
      mkdirSync(parent);
      make(path.join(parent, name));
      putFile(parent, "proj/sub/a.py", "def needle():\n    return 1\n");
      const ws = await Workspace.open(path.join(parent, "proj", "sub"));
      const o = await toolOutcome(() => searchCode(ws, s({ query: "needle" })));
      expect(o.code).toBe("UNSUPPORTED");
      expect(o.message).toMatch(new RegExp(`^the ignore file \\${name} 2 folder\\(s\\) above the root is a (FIFO|device)`));
      expect(o.text).not.toContain(w);
    }
  });
});

describe("kind 8: deep and huge inputs", () => {
  const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

  it("depth is measured without recursion", () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(jsonDepthExceeds(v)).toBe(true);
    expect(jsonDepthExceeds({ a: [{ b: 1 }] })).toBe(false);
    expect(jsonDepthExceeds(JSON.parse(deep(64)))).toBe(false);
    expect(jsonDepthExceeds(JSON.parse(deep(65)))).toBe(true);
  });

  it("native arguments nested 100k deep become {} (string and object forms)", () => {
    expect(parseToolArguments(`{"query": ${deep(100_000)}}`)).toEqual({});
    expect(parseToolArguments({ query: JSON.parse(deep(100_000)) as unknown })).toEqual({});
    expect(parseToolArguments('{"query": "x"}')).toEqual({ query: "x" });
  });

  it("the shim rejects arguments nested 100k deep in model text with a typed error, and the result serialises", () => {
    const text = `<tool_call>{"name": "search_code", "arguments": {"query": ${deep(100_000)}}}</tool_call>`;
    const r = recoverDeterministic({ content: text, tool_calls: [] }, [{ name: "search_code" }]);
    expect(r.tool_calls).toEqual([]);
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]).toMatchObject({ code: "INVALID_ARGUMENT", arguments: {} });
    expect(r.rejected[0]?.message).toMatch(/nested more than 64 levels deep/);
    expect(() => JSON.stringify(r)).not.toThrow();
  });

  describe("150k tool calls in one streamed message", () => {
    let server: FakeOllama | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    it("the provider returns them all without a stack overflow", async () => {
      const calls = Array.from({ length: 150_000 }, (_, i) => ({ name: "search_code", arguments: { query: `q${i}` } }));
      server = await startFakeOllama({ turns: [{ tool_calls: calls }] });
      const p = new OllamaProvider({ host: server.host });
      const turn = await p.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "q" }] }, { onContent: () => undefined });
      expect(turn.tool_calls).toHaveLength(150_000);
      expect(turn.tool_calls[149_999]).toEqual({ name: "search_code", arguments: { query: "q149999" } });
    });
  });

  it("a tree of 130k names (past V8's spread limit) is listed and searched without a stack overflow", async () => {
    const r = path.join(w, "wide");
    mkdirSync(r);
    // 130k empty files in 130 folders (creating them is the slow part).
    for (let d = 0; d < 130; d++) {
      const dir = path.join(r, `d${d}`);
      mkdirSync(dir);
      for (let f = 0; f < 1000; f++) writeFileSync(path.join(dir, `f${f}.txt`), "");
    }
    const ws = await Workspace.open(r);
    expect(await ws.listFiles()).toHaveLength(130_000);
    const res = await searchCode(ws, s({ query: "needle", glob: "*.txt" }));
    expect(res.evidence).toEqual([]);
  }, 240_000);
});
