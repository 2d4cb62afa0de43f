import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { FactStore } from "../../src/fact-cache/fact-store.js";
import { ParsePool, WorkerTaskError } from "../../src/fact-cache/parse-pool.js";

const here = path.dirname(fileURLToPath(import.meta.url));
// given as .js like compiled code would; the pool maps it to the .ts source under tsx
const taskModule = path.join(here, "helpers/pool-task.js");
let pool: ParsePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("ParsePool", () => {
  it("runs the named export on two threads and returns each task's own result", async () => {
    const p = new ParsePool<{ text: string; spinMs?: number }, { defs: string[]; threadId: number }>({
      module: taskModule,
      exportName: "countDefs",
      size: 2,
    });
    pool = p as ParsePool;
    const inputs = Array.from({ length: 8 }, (_, i) => ({ text: `def f${i}():\n    pass\ndef g${i}():\n`, spinMs: 30 }));
    const results = await Promise.all(inputs.map((input) => p.run(input)));
    expect(results.map((r) => r.defs)).toEqual(inputs.map((_, i) => [`f${i}`, `g${i}`]));
    expect(p.started).toBe(2);
    expect(new Set(results.map((r) => r.threadId)).size).toBe(2);
  });

  it("rejects with the worker's error name, message, code and hint", async () => {
    pool = new ParsePool({ module: taskModule, exportName: "failWithCode", size: 1 });
    const err = await pool.run({ code: "UNSUPPORTED" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerTaskError);
    expect(err).toMatchObject({ name: "ToolError", message: "refused: UNSUPPORTED", code: "UNSUPPORTED", hint: "try another file" });
  });

  it("names a missing export", async () => {
    pool = new ParsePool({ module: taskModule, exportName: "notAFunction", size: 1 });
    await expect(pool.run({})).rejects.toThrow(/has no function export named notAFunction/);
  });

  it("replaces a worker that dies and keeps serving", async () => {
    const dying = new ParsePool({ module: taskModule, exportName: "die", size: 1 });
    pool = dying;
    await expect(dying.run({})).rejects.toThrow("parse worker exited with code 7");
    await dying.close();
    const p = new ParsePool<{ text: string }, { defs: string[] }>({ module: taskModule, exportName: "countDefs", size: 1 });
    pool = p as ParsePool;
    expect((await p.run({ text: "def a():\n" })).defs).toEqual(["a"]);
  });

  it("rejects queued tasks with the abort reason and after close", async () => {
    const p = new ParsePool<{ text: string; spinMs?: number }, { defs: string[] }>({
      module: taskModule,
      exportName: "countDefs",
      size: 1,
    });
    pool = p as ParsePool;
    const controller = new AbortController();
    const first = p.run({ text: "def a():\n", spinMs: 50 });
    const second = p.run({ text: "def b():\n" }, { signal: controller.signal });
    controller.abort(new Error("user cancelled"));
    await expect(second).rejects.toThrow("user cancelled");
    expect((await first).defs).toEqual(["a"]);
    await p.close();
    await expect(p.run({ text: "" })).rejects.toThrow("parse pool is closed");
  });
});

describe("ParsePool: a cancelled task stops its worker", () => {
  it("a task spinning for an hour is stopped when its signal aborts; the next task runs on a new worker", async () => {
    const p = new ParsePool<{ text: string; spinMs?: number }, { defs: string[]; threadId: number }>({
      module: taskModule,
      exportName: "countDefs",
      size: 1,
    });
    pool = p as ParsePool;
    const warm = await p.run({ text: "def w():\n" });
    const controller = new AbortController();
    const spinning = p.run({ text: "def a():\n", spinMs: 3_600_000 }, { signal: controller.signal });
    const next = p.run({ text: "def b():\n" });
    // The spinning task has the only worker; `next` waits in the queue until that worker is stopped.
    controller.abort(new Error("request cancelled"));
    await expect(spinning).rejects.toThrow("request cancelled");
    const after = await next;
    expect(after.defs).toEqual(["b"]);
    expect(after.threadId).not.toBe(warm.threadId);
    expect(p.started).toBe(1);
  });
});

describe("ParsePool behind FactIndex", () => {
  it("parses through worker threads and caches the results like an in-thread parse", async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), "codecite-pool-index-"));
    try {
      const names = Array.from({ length: 12 }, (_, i) => `m${i}.py`);
      const old = new Date(Date.UTC(2020, 0, 1));
      for (const [i, n] of names.entries()) {
        writeFileSync(path.join(tmp, n), `def f${i}():\n    pass\n`);
        utimesSync(path.join(tmp, n), old, old);
      }
      const stat = () => names.map((n) => ({ path: n, size: statSync(path.join(tmp, n)).size, mtimeMs: statSync(path.join(tmp, n)).mtimeMs }));
      const p = new ParsePool<{ text: string }, { defs: string[]; threadId: number }>({ module: taskModule, exportName: "countDefs", size: 2 });
      pool = p as ParsePool;
      const index = new FactIndex<{ defs: string[] }>(FactStore.open(tmp, { version: "pool", inMemory: true }));
      const opts = {
        read: (n: string) => readFile(path.join(tmp, n), "utf8"),
        parse: async (_n: string, text: string | Uint8Array) => ({ defs: (await p.run({ text: String(text) })).defs }),
      };
      const first = await index.load(stat(), opts);
      expect(first.parsed).toHaveLength(12);
      expect([...first.facts.entries()].map(([k, v]) => [k, v.defs])).toEqual(names.map((n, i) => [n, [`f${i}`]]));
      const second = await index.load(stat(), opts);
      expect(second.parsed).toEqual([]);
      expect(second.hits.memory).toBe(12);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
