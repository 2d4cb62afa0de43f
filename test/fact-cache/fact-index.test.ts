import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FactIndex, type DetailTier, type FileStat, type LoadOptions } from "../../src/fact-cache/fact-index.js";
import { FactStore } from "../../src/fact-cache/fact-store.js";

/** Facts of the toy "language" used here: `def NAME` lines and `import MOD` lines. */
interface ToyFacts {
  defs: { name: string; line: number }[];
  imports: string[];
}

function toyParse(text: string): ToyFacts {
  const defs: ToyFacts["defs"] = [];
  const imports: string[] = [];
  text.split("\n").forEach((line, i) => {
    const d = /^def (\w+)/.exec(line);
    if (d) defs.push({ name: d[1] as string, line: i + 1 });
    const m = /^import ([\w.]+)/.exec(line);
    if (m) imports.push(m[1] as string);
  });
  return { defs, imports };
}

const N = 5000;
const PAST = new Date(Date.UTC(2020, 0, 1)); // mtimes well outside the racy window
let tmp = "";
let root = "";
let dir = "";

const fileName = (i: number) => `pkg${Math.floor(i / 100)}/mod${i % 100}.py`;
const source = (i: number) => `import pkg${(i + 1) % 50}.mod${i % 7}\n\ndef func_${i}():\n    return ${i}\n`;

function write(rel: string, text: string, mtime: Date = PAST): void {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  utimesSync(abs, mtime, mtime);
}

function statAll(paths: readonly string[]): FileStat[] {
  return paths.map((p) => {
    const st = statSync(path.join(root, p));
    return { path: p, size: st.size, mtimeMs: st.mtimeMs };
  });
}

function options(parsed: string[]): LoadOptions<ToyFacts> {
  return {
    read: (p) => readFile(path.join(root, p), "utf8"),
    parse: (p, content) => {
      parsed.push(p);
      return toyParse(String(content));
    },
  };
}

let paths: string[] = [];

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-factindex-"));
  root = path.join(tmp, "tree");
  dir = path.join(tmp, "cache");
  paths = Array.from({ length: N }, (_, i) => fileName(i)).sort();
  for (let i = 0; i < N; i++) write(fileName(i), source(i));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("FactIndex over a 5,000-file tree", () => {
  it("parses everything once, then re-parses only what changed (also in a fresh process)", async () => {
    // first load: empty cache
    const counted1: string[] = [];
    const idx1 = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 1", dir }));
    const r1 = await idx1.load(statAll(paths), options(counted1));
    expect(r1.parsed).toHaveLength(N);
    expect(new Set(counted1).size).toBe(N);
    expect([...r1.facts.keys()]).toEqual(paths);
    expect(r1.facts.get("pkg12/mod34.py")).toEqual({
      defs: [{ name: "func_1234", line: 3 }],
      imports: ["pkg35.mod2"],
    });

    // same process, nothing changed: the in-memory layer answers
    const counted2: string[] = [];
    const r2 = await idx1.load(statAll(paths), options(counted2));
    expect(counted2).toEqual([]);
    expect(r2.hits).toEqual({ memory: N, store: 0, hash: 0 });
    idx1.close();

    // touch one file's content, another's mtime only; a "new process" (fresh index over the same db)
    write("pkg3/mod7.py", "def edited():\n    pass\n");
    const touched = path.join(root, "pkg4/mod1.py");
    const later = new Date(Date.UTC(2021, 5, 1));
    utimesSync(touched, later, later);

    const counted3: string[] = [];
    const idx2 = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 1", dir }));
    const r3 = await idx2.load(statAll(paths), options(counted3));
    expect(counted3).toEqual(["pkg3/mod7.py"]);
    expect(r3.parsed).toEqual(["pkg3/mod7.py"]);
    expect(r3.rehashed).toEqual(["pkg4/mod1.py"]);
    expect(r3.hits).toEqual({ memory: 0, store: N - 2, hash: 1 });
    expect(r3.facts.get("pkg3/mod7.py")).toEqual({ defs: [{ name: "edited", line: 1 }], imports: [] });
    expect(r3.facts.get("pkg4/mod1.py")?.defs[0]?.name).toBe("func_401");

    // the refreshed stat of the touched file is a plain stat hit next time
    const idx3 = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 1", dir }));
    const counted4: string[] = [];
    const r4 = await idx3.load(statAll(paths), options(counted4));
    expect(counted4).toEqual([]);
    expect(r4.hits).toEqual({ memory: 0, store: N, hash: 0 });

    // add one file, delete one file
    write("pkg_new/extra.py", "import pkg1.mod1\n");
    unlinkSync(path.join(root, "pkg0/mod0.py"));
    const now = [...paths.filter((p) => p !== "pkg0/mod0.py"), "pkg_new/extra.py"].sort();
    const counted5: string[] = [];
    const r5 = await idx3.load(statAll(now), options(counted5));
    expect(counted5).toEqual(["pkg_new/extra.py"]);
    expect(r5.facts.get("pkg_new/extra.py")).toEqual({ defs: [], imports: ["pkg1.mod1"] });
    expect(r5.facts.has("pkg0/mod0.py")).toBe(false);
    expect(idx3.prune(now)).toEqual(["pkg0/mod0.py"]);
    expect(idx3.store.entries().length).toBe(N);
    idx3.close();

    // a new extractor version invalidates every entry
    const counted6: string[] = [];
    const idx4 = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 2", dir }));
    await idx4.load(statAll(now.slice(0, 20)), options(counted6));
    expect(counted6.sort()).toEqual(now.slice(0, 20));
    idx4.close();
  });
});

describe("FactIndex edge cases", () => {
  it("re-hashes (but does not re-parse) a file modified inside the racy window, then picks up a same-size edit", async () => {
    const rel = "racy/r.py";
    // an mtime ahead of the clock keeps the entry inside the racy window however slow the machine
    write(rel, "def aaa():\n", new Date(Date.now() + 3_600_000));
    const idx = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 1", dir }));
    const first = await idx.load(statAll([rel]), options([]));
    expect(first.parsed).toEqual([rel]);
    const again = await idx.load(statAll([rel]), options([]));
    expect(again.parsed).toEqual([]);
    expect(again.rehashed).toEqual([rel]);
    // same size, same mtime, different content: only the racy rule can catch this
    const st = statSync(path.join(root, rel));
    writeFileSync(path.join(root, rel), "def bbb():\n");
    utimesSync(path.join(root, rel), st.atime, st.mtime);
    const edited = await idx.load(statAll([rel]), options([]));
    expect(edited.parsed).toEqual([rel]);
    expect(edited.facts.get(rel)?.defs).toEqual([{ name: "bbb", line: 1 }]);
    idx.close();
  });

  it("reports files whose read or parse fails and keeps the others", async () => {
    write("bad/ok.py", "def ok():\n");
    write("bad/boom.py", "def boom():\n");
    const idx = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy fail", dir }));
    const files = [...statAll(["bad/boom.py", "bad/ok.py"]), { path: "bad/gone.py", size: 1, mtimeMs: 1 }];
    const r = await idx.load(files, {
      read: (p) => readFile(path.join(root, p), "utf8"),
      parse: (p, c) => {
        if (p.endsWith("boom.py")) throw new Error("parser exploded");
        return toyParse(String(c));
      },
    });
    expect([...r.facts.keys()]).toEqual(["bad/ok.py"]);
    expect(r.failed.map((f) => [f.path, (f.error as Error).message.split(",")[0]])).toEqual([
      ["bad/boom.py", "parser exploded"],
      ["bad/gone.py", "ENOENT: no such file or directory"],
    ]);
    idx.close();
  });

  it("stores finished work and throws the abort reason when aborted", async () => {
    const some = paths.filter((p) => p.startsWith("pkg2/")).slice(0, 40);
    const files = statAll(some);
    const controller = new AbortController();
    const idx = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy abort", dir }));
    let n = 0;
    await expect(
      idx.load(files, {
        concurrency: 1,
        signal: controller.signal,
        read: (p) => readFile(path.join(root, p), "utf8"),
        parse: (_p, c) => {
          if (++n === 10) controller.abort(new Error("stop"));
          return toyParse(String(c));
        },
      }),
    ).rejects.toThrow("stop");
    expect(idx.store.entries().length).toBe(10);
    const rest: string[] = [];
    const r = await idx.load(files, options(rest));
    expect(rest.sort()).toEqual(some.slice(10, 40));
    expect(r.facts.size).toBe(40);
    idx.close();
  });

  it("shares one index per root and version in a process", () => {
    const a = FactIndex.shared<ToyFacts>(root, { version: "toy s", dir });
    const b = FactIndex.shared<ToyFacts>(root, { version: "toy s", dir });
    const c = FactIndex.shared<ToyFacts>(root, { version: "toy t", dir });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    FactIndex.closeShared();
    expect(FactIndex.shared<ToyFacts>(root, { version: "toy s", dir })).not.toBe(a);
    FactIndex.closeShared();
  });

  it("never writes into the project tree", async () => {
    const before = readFileSync(path.join(root, "pkg1/mod1.py"), "utf8");
    const idx = new FactIndex<ToyFacts>(FactStore.open(root, { version: "toy 1", dir }));
    expect(path.relative(root, idx.store.file as string).startsWith("..")).toBe(true);
    idx.close();
    expect(readFileSync(path.join(root, "pkg1/mod1.py"), "utf8")).toBe(before);
  });
});

describe("FactIndex detail tier", () => {
  /** Toy facts whose `imports` are the detail: absent when not computed. */
  type Tiered = { defs: ToyFacts["defs"]; imports?: string[] };
  const tier = (want: boolean): DetailTier<Tiered> => ({
    wanted: () => want,
    split: (v) => ({ value: { defs: v.defs }, detail: v.imports }),
    join: (v, d) => ({ defs: v.defs, imports: d as string[] }),
  });
  const tiered = (parsed: string[], want: boolean, asked: boolean[] = []): LoadOptions<Tiered> => ({
    read: (p) => readFile(path.join(root, p), "utf8"),
    parse: (p, content, ctx) => {
      parsed.push(p);
      asked.push(ctx.detail);
      const all = toyParse(String(content));
      return ctx.detail ? all : { defs: all.defs };
    },
    detail: tier(want),
  });

  it("computes the detail only for loads that want it, keeps it beside the value, and drops it with an edit", async () => {
    const files = ["tier/a.py", "tier/b.py", "tier/c.py"];
    write("tier/a.py", "import x.y\ndef fa():\n");
    write("tier/b.py", "import z\ndef fb():\n");
    write("tier/c.py", "def fc():\n");
    const store = () => FactStore.open(root, { version: "toy tier", dir });
    const idx = new FactIndex<Tiered>(store());

    // a load without the detail parses without it and returns values without it
    const p1: string[] = [];
    const asked1: boolean[] = [];
    const r1 = await idx.load(statAll(files), tiered(p1, false, asked1));
    // Files are read concurrently, so they reach `parse` in the order their reads finish.
    expect([...p1].sort()).toEqual(files);
    expect(asked1).toEqual([false, false, false]);
    expect(r1.facts.get("tier/a.py")).toEqual({ defs: [{ name: "fa", line: 2 }] });

    // a load that wants it parses each file once more (it was never computed), then never again
    const p2: string[] = [];
    const asked2: boolean[] = [];
    const r2 = await idx.load(statAll(files), tiered(p2, true, asked2));
    expect([...p2].sort()).toEqual(files);
    expect(asked2).toEqual([true, true, true]);
    expect(r2.facts.get("tier/a.py")).toEqual({ defs: [{ name: "fa", line: 2 }], imports: ["x.y"] });
    const p3: string[] = [];
    expect((await idx.load(statAll(files), tiered(p3, true))).facts.get("tier/b.py")).toEqual({ defs: [{ name: "fb", line: 2 }], imports: ["z"] });
    expect(p3).toEqual([]);
    // the load without the detail still answers from the cache, without it
    const p4: string[] = [];
    expect((await idx.load(statAll(files), tiered(p4, false))).facts.get("tier/b.py")).toEqual({ defs: [{ name: "fb", line: 2 }] });
    expect(p4).toEqual([]);
    idx.close();

    // a new process: both tiers come from the on-disk store
    const fresh = new FactIndex<Tiered>(store());
    const p5: string[] = [];
    const r5 = await fresh.load(statAll(files), tiered(p5, true));
    expect(p5).toEqual([]);
    expect(r5.hits.store).toBe(3);
    expect(r5.facts.get("tier/a.py")?.imports).toEqual(["x.y"]);

    // an edit: a load without the detail parses that file alone and its old detail is gone
    write("tier/b.py", "import w\ndef fb2():\n", new Date(PAST.getTime() + 5000));
    const p6: string[] = [];
    await fresh.load(statAll(files), tiered(p6, false));
    expect(p6).toEqual(["tier/b.py"]);
    fresh.close();
    const again = new FactIndex<Tiered>(store());
    const p7: string[] = [];
    const r7 = await again.load(statAll(files), tiered(p7, true));
    expect(p7).toEqual(["tier/b.py"]);
    expect(r7.facts.get("tier/b.py")).toEqual({ defs: [{ name: "fb2", line: 2 }], imports: ["w"] });
    again.close();
  });

  it.each([false, true])("a value stored without its detail keeps the stored detail of the same content, not of other content (in memory: %s)", (inMemory) => {
    const s = FactStore.open(root, { version: "toy keep", dir, inMemory });
    const base = { path: "keep/k.py", size: 3, mtimeMs: 0, checkedMs: 10_000 };
    s.putMany([{ ...base, hash: "h1", value: 1, detail: ["d1"] }]);
    s.putMany([{ ...base, hash: "h1", value: 1 }]);
    expect(s.get("keep/k.py", 3, 0, {}, true)?.detail).toEqual(["d1"]);
    expect(s.get("keep/k.py", 3, 0)?.detail).toBeUndefined();
    s.putMany([{ ...base, hash: "h2", value: 2 }]);
    expect(s.get("keep/k.py", 3, 0, {}, true)).toMatchObject({ value: 2, hash: "h2" });
    expect(s.get("keep/k.py", 3, 0, {}, true)?.detail).toBeUndefined();
    s.close();
  });
});
