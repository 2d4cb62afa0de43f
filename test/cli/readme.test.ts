/**
 * The README's CLI reference stays true: every flag it shows for a command is an option that
 * command registers (the commands themselves were run by hand against the fake Ollama; the
 * evidence and ask examples are covered by human-output.test.ts and e2e/ask-rag-app.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { loadCommands } from "../../src/cli/commands/index.js";
import { REPO_ROOT } from "./run-cli.js";

const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");

describe("README CLI reference", () => {
  it("shows only options the commands register", async () => {
    const program = createProgram();
    for (const m of await loadCommands()) m.register(program);
    const block = readme.slice(readme.indexOf("## CLI reference")).split("```")[1]!;
    const lines = block.split("\n");
    let current: string | undefined;
    let checked = 0;
    for (const line of lines) {
      const head = /^codecite (\w+)/.exec(line);
      if (head) current = head[1];
      if (current === undefined) continue;
      const registered = program.commands.find((c) => c.name() === current)?.options.map((o) => o.long);
      expect(registered, `codecite ${current}`).toBeDefined();
      for (const flag of line.replace(/#.*$/, "").match(/--[a-z][a-z-]*/g) ?? []) {
        expect(registered, `codecite ${current} ${flag}`).toContain(flag);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("documents the fact cache's folder and that it is safe to delete", () => {
    const row = readme.split("\n").find((l) => l.startsWith("| `CODECITE_CACHE_DIR`"));
    expect(row).toContain("`$CODECITE_CACHE_DIR`, else `$XDG_CACHE_HOME/codecite`, else `~/.cache/codecite`");
    expect(row).toContain("keyed by the root's real path");
    expect(row).toContain("Safe to delete");
  });
});
