/**
 * An evidence command ends its process as soon as its output is written (`output.ts`
 * `exitWhenWritten`): output larger than a pipe's buffer, read by a consumer that pauses, still
 * arrives whole, and the exit code is the command's.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./run-cli.js";

let root: string;
const LINES = 3000;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "codecite-exit-"));
  // One file of LINES lines of 100 characters: `read --all --json` prints more than 300 KB.
  writeFileSync(path.join(root, "big.py"), Array.from({ length: LINES }, (_, i) => `x_${String(i).padStart(5, "0")} = "${"a".repeat(88)}"\n`).join(""));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI with a stdout reader that reads nothing for `pauseMs` (the pipe fills), then everything. */
function runWithSlowReader(args: readonly string[], pauseMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on("data", (d: Buffer) => chunks.push(d));
      child.stdout.resume();
    }, pauseMs);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(chunks).toString("utf8") }));
  });
}

describe("exit when written", () => {
  it("output larger than the pipe buffer arrives whole when the reader is slow", async () => {
    const r = await runWithSlowReader(["read", "big.py", "--all", "--json", "--root", root], 1500);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(300_000);
    const env = JSON.parse(r.stdout) as { ok: boolean; evidence: { snippet: string }[] };
    expect(env.ok).toBe(true);
    const text = env.evidence.map((e) => e.snippet).join("\n");
    expect(text).toContain(`x_00000 = "`);
    expect(text).toContain(`x_${String(LINES - 1).padStart(5, "0")} = "`);
  });

  it("a tool error keeps its exit code", async () => {
    const r = await runWithSlowReader(["read", "missing.py", "--json", "--root", root], 0);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(false);
  });
});
