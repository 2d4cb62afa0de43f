/**
 * The built CLI as a subprocess: flags, output streams, JSON shapes and exit codes
 * (README "CLI reference": 0 success, also empty; 1 runtime failure; 2 usage or tool error).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "./run-cli.js";
import { closedPort } from "../helpers/closed-port.js";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-cli-"));
  writeFileSync(path.join(tmp, "a.py"), "def first():\n    return 'needle'\n\ndef second():\n    return 2\n");
  writeFileSync(path.join(tmp, ".env"), "SECRET=hunter2\n");
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("codecite basics", () => {
  it("prints the version and exits 0", async () => {
    const r = await runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("0.1.0");
  });

  it("lists exactly the README commands in --help", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const cmd of ["ask", "search", "symbol", "importers", "read", "diff", "tools"]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd} `, "m"));
    }
  });

  it("exits 2 on an unknown flag, with a JSON error object on stdout under --json", async () => {
    const r = await runCli(["search", "x", "--bogus", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, error: { code: "INVALID_ARGUMENT", message: "unknown option '--bogus'", hint: "Run codecite search --help for usage." } });
    expect(r.stderr).toContain("unknown option '--bogus'");
  });

  it("exits 2 on a non-integer --max-results and on an unknown command", async () => {
    const r = await runCli(["importers", "x", "--max-results", "many"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("--max-results");
    const r2 = await runCli(["frobnicate"]);
    expect(r2.code).toBe(2);
  });
});

describe("usage errors found by the argument parser", () => {
  it("read like every other error (codecite: error / hint naming the command's --help), exit 2, and --json gets the error object", async () => {
    const cases: [string[], string][] = [
      [["symbol"], "codecite: error: missing required argument 'name'\nhint: Run codecite symbol --help for usage.\n"],
      [["ask"], "codecite: error: missing required argument 'question'\nhint: Run codecite ask --help for usage.\n"],
      [["search", "x", "--bogus"], "codecite: error: unknown option '--bogus'\nhint: Run codecite search --help for usage.\n"],
      [["symbol", "x", "--max-results"], "codecite: error: option '--max-results <n>' argument missing\nhint: Run codecite symbol --help for usage.\n"],
      [["serch", "x"], "codecite: error: unknown command 'serch'\nhint: Did you mean search? Run codecite --help for usage.\n"],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(args);
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ args, code: 2, stdout: "", stderr });
    }
    const j = await runCli(["diff", "--json", "--bogus"]);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toEqual({ ok: false, error: { code: "INVALID_ARGUMENT", message: "unknown option '--bogus'", hint: "Run codecite diff --help for usage." } });
  });
});

describe("codecite tools", () => {
  it("--json prints the six definitions exactly as sent to the model", async () => {
    const r = await runCli(["tools", "--json"]);
    expect(r.code).toBe(0);
    const defs = JSON.parse(r.stdout) as Array<{ type: string; function: { name: string; parameters: { type: string } } }>;
    expect(defs.map((d) => d.function.name)).toEqual(["search_code", "find_symbol", "read_evidence", "find_importers", "find_references", "read_git_diff"]);
    expect(defs.every((d) => d.type === "function" && d.function.parameters.type === "object")).toBe(true);
    expect(JSON.stringify(defs)).not.toContain("$schema");
  });

  it("human output names every tool and its parameters", async () => {
    const r = await runCli(["tools"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^find_importers {2}/m);
    expect(r.stdout).toContain("module_name (string, required)");
  });
});

describe("evidence commands", () => {
  it("read --json prints the envelope with the exact lines", async () => {
    const r = await runCli(["read", "a.py", "--start-line", "4", "--end-line", "5", "--root", tmp, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      evidence: [{ path: "a.py", start_line: 4, end_line: 5, kind: "source", name: "a.py", snippet: "def second():\n    return 2" }],
      total: 1,
      truncated: false,
    });
  });

  it("read prints path:line and numbered snippet lines on stdout", async () => {
    const r = await runCli(["read", "a.py", "--start-line", "1", "--end-line", "2", "--root", tmp], { cwd: tmp });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("a.py:1  lines 1-2\n     1 │ def first():\n     2 │     return 'needle'\n");
    expect(r.stderr).toContain("1 result");
  });

  it("colours only when allowed: FORCE_COLOR colours, NO_COLOR wins over it", async () => {
    const forced = await runCli(["read", "a.py", "--end-line", "1"], { env: { NO_COLOR: "", FORCE_COLOR: "1" }, cwd: tmp });
    expect(forced.stdout).toContain("\u001b[");
    const plain = await runCli(["read", "a.py", "--end-line", "1"], { env: { NO_COLOR: "1", FORCE_COLOR: "1" }, cwd: tmp });
    expect(plain.stdout).not.toContain("\u001b[");
    expect(plain.stdout).toBe("a.py:1  line 1\n     1 │ def first():\n");
  });

  it("search finds a literal and exits 0; an empty result also exits 0", async () => {
    const r = await runCli(["search", "needle", "--root", tmp, "--json"]);
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout) as { evidence: Array<{ path: string; start_line: number; kind: string }> };
    expect(env.evidence.map((e) => [e.path, e.start_line, e.kind])).toEqual([["a.py", 2, "match"]]);
    const none = await runCli(["search", "no-such-text-anywhere", "--root", tmp, "--json"]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: true, evidence: [], total: 0 });
  });

  it("a path outside the root is a tool error: exit 2, JSON error on stdout", async () => {
    const r = await runCli(["read", "../../etc/passwd", "--root", tmp, "--json"]);
    expect(r.code).toBe(2);
    const env = JSON.parse(r.stdout) as { ok: boolean; error: { code: string } };
    expect(env.ok).toBe(false);
    expect(env.error.code).toBe("OUTSIDE_ROOT");
    expect(r.stdout).not.toContain("root:");
  });

  it("a tool error under --json: the envelope alone on stdout, the same error for people on stderr (as ask and config do)", async () => {
    const human = await runCli(["read", "no_such_file.py", "--root", tmp]);
    const json = await runCli(["read", "no_such_file.py", "--root", tmp, "--json"]);
    expect([human.code, json.code]).toEqual([2, 2]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "NOT_FOUND", message: "no such file: no_such_file.py" } });
    expect(json.stderr).toBe(human.stderr);
    expect(json.stderr).toMatch(/^codecite: error: NOT_FOUND: no such file: no_such_file\.py\nhint: .*codecite search/);
    // A validation error too: the model's schema issue on stdout, the command's option on stderr.
    const bad = await runCli(["search", "x", "--max-results", "0", "--root", tmp, "--json"]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect(bad.stderr).toMatch(/^codecite: error: INVALID_ARGUMENT: invalid value: --max-results: /);
  });

  it("a denied secret is a tool error and its content never appears", async () => {
    const r = await runCli(["read", ".env", "--root", tmp]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("DENIED");
    expect(r.stdout + r.stderr).not.toContain("hunter2");
  });

  it("a missing --root exits 2", async () => {
    const r = await runCli(["search", "x", "--root", path.join(tmp, "nope"), "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });
});

describe("ask: configuration and runtime failures", () => {
  it.each([
    [{ CODECITE_TOOLSHIM: "sometimes" }, "CODECITE_TOOLSHIM", "sometimes"],
    [{ CODECITE_TOOLSHIM_BACKEND: "vllm" }, "CODECITE_TOOLSHIM_BACKEND", "vllm"],
    [{ OLLAMA_HOST: "ftp://x" }, "OLLAMA_HOST", "ftp://x"],
    [{ CODECITE_PROVIDER: "anthropic" }, "CODECITE_PROVIDER", "anthropic"],
  ])("a bad %j stops with exit 2 naming the variable", async (env, variable, value) => {
    const r = await runCli(["ask", "q", "--root", RAG_APP], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(variable);
    expect(r.stderr).toContain(JSON.stringify(value));
  });

  it("a bad --toolshim flag exits 2 naming the flag (JSON error under --json)", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--toolshim", "always", "--json"]);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(out).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect(out.error.message).toContain("--toolshim");
  });

  it("a bad --max-steps exits 2", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--max-steps", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-steps");
  });

  it("exits 1 naming the host and `ollama serve` when the server is down", async () => {
    const port = await closedPort();
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--model", "qwen3:8b"], { env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`http://127.0.0.1:${port}`);
    expect(r.stderr).toContain("ollama serve");
  });

  it("--host beats OLLAMA_HOST and the JSON error names the failure code", async () => {
    const port = await closedPort();
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--host", `127.0.0.1:${port}`, "--json"], {
      env: { OLLAMA_HOST: "127.0.0.1:1" },
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string; hint: string } };
    expect(out.error.code).toBe("UNREACHABLE");
    expect(out.error.message).toContain(`127.0.0.1:${port}`);
    expect(out.error.hint).toContain("ollama serve");
  });
});

describe("audit fixes: pipes, human errors, required provider settings", () => {
  it("a reader that closes early (`| head -1`) ends the CLI quietly with exit 0, not an EPIPE crash", async () => {
    const { spawn } = await import("node:child_process");
    const { CLI, REPO_ROOT } = await import("./run-cli.js");
    const child = spawn(process.execPath, [CLI, "search", "import", "--root", RAG_APP, "--max-results", "200"], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).not.toContain("EPIPE");
    expect(code).toBe(0);
  });

  it("a bad flag value names the flag and points at --help; --json keeps the tool envelope", async () => {
    const r = await runCli(["search", "needle", "--max-results", "0", "--root", tmp]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "codecite: error: INVALID_ARGUMENT: invalid value: --max-results: Too small: expected number to be >=1\nhint: See `codecite search --help`.\n",
    );
    const j = await runCli(["search", "needle", "--max-results", "0", "--root", tmp, "--json"]);
    expect(j.code).toBe(2);
    const env = JSON.parse(j.stdout) as { ok: boolean; error: { code: string; message: string; hint: string } };
    expect(env.error.message).toContain("→ at max_results");
    expect(env.error.hint.startsWith("Expected parameters:")).toBe(true);
  });

  it("--provider llama-cpp without a GGUF file is a configuration error (exit 2) that says what to set", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--provider", "llama-cpp", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      error: {
        code: "INVALID_ARGUMENT",
        message: "CODECITE_LOCAL_MODEL is not set (required when the provider is llama-cpp); accepted: the path of a .gguf model file",
        hint: "Set the CODECITE_LOCAL_MODEL environment variable, or pass --model <file.gguf>.",
      },
    });
  });
});
