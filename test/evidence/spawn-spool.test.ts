/**
 * `runProcess` with `spoolStdout` (src/evidence/sandbox/spawn.ts): the program's standard output is
 * an unlinked temporary file, read in batches, not a pipe — with the same bytes, early stop, byte
 * cap and time limit as a pipe, and nothing left in the temporary folder.
 */
import { readdirSync, rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../../src/evidence/sandbox/spawn.js";
import { makeTempDir } from "../helpers/temp-tree.js";

let tmp: string;
let savedTmp: string | undefined;

beforeEach(() => {
  tmp = makeTempDir("codecite-spool-");
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp; // os.tmpdir() reads it on every call
});

afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(tmp, { recursive: true, force: true });
});

const run = (script: string, extra: Partial<Parameters<typeof runProcess>[2]> = {}) =>
  runProcess(process.execPath, ["-e", script], { cwd: tmp, env: process.env, timeoutMs: 60_000, spoolStdout: true, ...extra });

/** A child that reports what its standard output is and whether the temporary folder holds anything. */
const PROBE =
  "const fs = require('fs'); const st = fs.fstatSync(1);" +
  "process.stdout.write(JSON.stringify({ file: st.isFile(), links: st.nlink, listed: fs.readdirSync(process.env.TMPDIR) }))";

describe("runProcess spoolStdout", () => {
  it("gives the program an unlinked regular file as standard output and leaves nothing behind", async () => {
    const res = await run(PROBE);
    expect(res.code).toBe(0);
    expect(res.spooled).toBe(true);
    expect(JSON.parse(res.stdout.toString("utf8"))).toEqual({ file: true, links: 0, listed: [] });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("uses a pipe without the option", async () => {
    const res = await runProcess(process.execPath, ["-e", PROBE], { cwd: tmp, env: process.env, timeoutMs: 60_000 });
    expect(JSON.parse(res.stdout.toString("utf8")).file).toBe(false);
  });

  it("delivers every byte in order to onStdout, also output written in many pieces over time and larger than one read", async () => {
    // 600 writes of 5,000 bytes (3 MB, more than one 1 MiB read), a pause every 100 writes.
    const script =
      "let i = 0; const fs = require('fs');" +
      "function more() { for (let k = 0; k < 100 && i < 600; k++, i++) fs.writeSync(1, String(i % 10).repeat(4999) + '\\n');" +
      " if (i < 600) setTimeout(more, 5); }" +
      "more();";
    const parts: Buffer[] = [];
    const res = await run(script, { onStdout: (c) => void parts.push(Buffer.from(c)) });
    expect(res.code).toBe(0);
    const got = Buffer.concat(parts).toString("latin1");
    const want = Array.from({ length: 600 }, (_, i) => String(i % 10).repeat(4999) + "\n").join("");
    expect(got.length).toBe(3_000_000);
    expect(got === want).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("stops and kills the program when the consumer says stop", async () => {
    let seen = 0;
    const res = await run("setInterval(() => process.stdout.write('x'.repeat(1000)), 1)", {
      onStdout: (c) => {
        seen += c.length;
        return seen >= 5000 ? "stop" : undefined;
      },
    });
    expect(res.stopped).toBe(true);
    expect(res.code).toBe(null);
    expect(seen).toBeGreaterThanOrEqual(5000);
  });

  it("keeps the byte cap and the time limit", async () => {
    const capped = await run("process.stdout.write('y'.repeat(300000)); setInterval(() => {}, 1000)", { maxStdoutBytes: 1000 });
    expect(capped.overflow).toBe(true);
    expect(capped.stdout.toString("latin1")).toBe("y".repeat(1000));
    const slow = await run("process.stdout.write('z'); setInterval(() => {}, 1000)", { timeoutMs: 300 });
    expect(slow.timedOut).toBe(true);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("falls back to a pipe when no temporary file can be made", async () => {
    process.env.TMPDIR = `${tmp}/missing`;
    const res = await run(PROBE.replace("process.env.TMPDIR", "require('os').tmpdir().replace(/\\/missing$/, '')"));
    expect(JSON.parse(res.stdout.toString("utf8")).file).toBe(false);
    expect(res.spooled).toBe(false);
  });
});
