import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";
import { FactStore } from "../../src/fact-cache/fact-store.js";
import { writeEntries } from "./helpers/store-writer.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
let tmp = "";
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

it("lets two processes create and write one cache at the same time without losing entries", async () => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-2proc-"));
  const root = path.join(tmp, "project");
  const dir = path.join(tmp, "cache");
  mkdirSync(root);
  const COUNT = 3000;
  const BATCH = 5;

  const child = spawn(
    process.execPath,
    ["--import", tsx, path.join(here, "helpers/store-writer.ts"), root, dir, "child", String(COUNT), String(BATCH)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let out = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.startsWith("ready\n")) resolve();
    });
  });
  // both processes open the (not yet existing) database and write from here on
  child.stdin.end("go\n");
  const store = FactStore.open(root, { version: "two-writers", dir });
  const readBack = writeEntries(store, "parent", COUNT, BATCH);
  expect(await exited).toBe(0);

  const report = JSON.parse(out.split("\n")[1] as string) as Record<string, unknown>;
  expect(report).toEqual({ kind: "sqlite", reason: null, dropped: 0, readBack: COUNT });
  expect(store.kind).toBe("sqlite");
  expect(store.reason).toBeUndefined();
  expect(store.droppedWrites).toBe(0);
  expect(readBack).toBe(COUNT);

  const all = store.entries<{ i: number; pre: string }>();
  expect(all).toHaveLength(2 * COUNT);
  expect(all.filter((e) => e.value.pre === "child")).toHaveLength(COUNT);
  expect(store.get("child/2999.py", 2999, 1)?.value).toEqual({ i: 2999, pre: "child" });
  expect(store.get("parent/0.py", 0, 1)?.value).toEqual({ i: 0, pre: "parent" });
  store.close();
});
