/**
 * A repository's `.codecite.yml` replaced between its check and its read (SECURITY.md "Races"):
 * the file was checked with `lstat` and then read by name, so a FIFO or a symbolic link swapped
 * in after the check was read anyway — a FIFO blocked the process for ever (a synchronous read).
 * The swap is simulated by an `lstat` that still reports the regular file checked before.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

/** Paths whose `lstat` answers with the stat of `before` (the file as it was when checked). */
const swapped = new Map<string, string>();

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const lstatSync = ((p: fs.PathLike, o?: fs.StatSyncOptions) => {
    const before = swapped.get(String(p));
    return real.lstatSync(before ?? p, o as never);
  }) as typeof real.lstatSync;
  return { ...real, default: { ...real, lstatSync }, lstatSync };
});

const { loadConfigFiles } = await import("../../src/config-file.js");

let w: string;
beforeAll(() => {
  w = makeTempDir("codecite-config-swap-");
  putFile(w, "checked.yml", "model: from-checked-file\n");
  putFile(w, "outside.yml", "model: OUTSIDE_CANARY\n");
});
afterAll(() => fs.rmSync(w, { recursive: true, force: true }));

const load = (root: string) => {
  try {
    return { files: loadConfigFiles(root, { XDG_CONFIG_HOME: path.join(w, "no-user") }) };
  } catch (err) {
    return { error: String(err) };
  }
};

describe(".codecite.yml replaced after its check", () => {
  it("by a FIFO: refused, not waited on", () => {
    const root = path.join(w, "fifo");
    fs.mkdirSync(root);
    execFileSync("mkfifo", [path.join(root, ".codecite.yml")]);
    swapped.set(path.join(root, ".codecite.yml"), path.join(w, "checked.yml"));
    const r = load(root);
    expect(r.error).toMatch(/\.codecite\.yml.*(not a regular file|changed while)/);
  });

  it("by a symbolic link to a file outside: refused, the outside file is not read", () => {
    const root = path.join(w, "link");
    fs.mkdirSync(root);
    fs.symlinkSync(path.join(w, "outside.yml"), path.join(root, ".codecite.yml"));
    swapped.set(path.join(root, ".codecite.yml"), path.join(w, "checked.yml"));
    const r = load(root);
    expect(JSON.stringify(r)).not.toContain("OUTSIDE_CANARY");
    expect(r.error).toMatch(/\.codecite\.yml.*symbolic link/);
  });

  it("unchanged: read as before", () => {
    const root = path.join(w, "plain");
    putFile(root, ".codecite.yml", "model: plain-model\n");
    const r = load(root);
    expect(r.files?.repo?.settings.get("model")?.raw).toBe("plain-model");
  });
});
