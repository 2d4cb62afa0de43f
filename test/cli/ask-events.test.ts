/**
 * The `ask` event printer: stdout and stderr share one terminal, so every stderr line must
 * start on a fresh line, and the step-limit note is said once. Both streams are captured into
 * one transcript, in write order, as a terminal would show them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REASK_SEPARATOR } from "../../src/agent/index.js";
import { AskEventPrinter } from "../../src/cli/ask-events.js";

let transcript: string;
let stdout: string;
let stderr: string;

beforeEach(() => {
  transcript = stdout = stderr = "";
  vi.stubEnv("NO_COLOR", "1");
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    transcript += String(chunk);
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    transcript += String(chunk);
    stderr += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const step = { tool: "find_importers", arguments: { module_name: "m" }, ok: true, total: 1, ms: 5, recovered_by: "native" as const };

describe("AskEventPrinter", () => {
  it("a re-ask after a failed citation check puts a line between the two answers on stdout", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: false, verbose: false });
    p.onEvent({ type: "content", delta: "It is hashed with bcrypt (auth.py:700)." });
    p.onEvent({ type: "turn_end", tool_calls: 0 });
    p.onEvent({ type: "notice", reason: "reask", message: "some citations failed the check; asking the model once more" });
    p.onEvent({ type: "content", delta: "It is hashed with sha256 (auth.py:12)." });
    p.finish();
    expect(stdout).toBe(`It is hashed with bcrypt (auth.py:700).\n\n${REASK_SEPARATOR}\n\nIt is hashed with sha256 (auth.py:12).\n`);
    expect(stderr).toBe("codecite: some citations failed the check; asking the model once more\n");
    // With --json nothing is streamed, so there is nothing to separate.
    stdout = "";
    const json = new AskEventPrinter({ streamAnswer: false, progress: false, verbose: false });
    json.onEvent({ type: "notice", reason: "reask", message: "again" });
    expect(stdout).toBe("");
  });

  it("--verbose says when older tool results were compacted to fit the context", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: true });
    p.onEvent({
      type: "context",
      context_tokens: 8192,
      estimated_tokens: 6120,
      compacted: 2,
      thinking_dropped: 1,
      counts_only: 0,
      newest: "intact",
      fits: true,
    });
    const quiet = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: false });
    quiet.onEvent({ type: "context", context_tokens: 8192, estimated_tokens: 9000, compacted: 3, thinking_dropped: 0, counts_only: 1, newest: "first_lines", fits: false });
    expect(stderr).toBe("  context: 2 older tool results compacted, 1 reasoning block dropped; ~6120 of 8192 tokens (fits)\n");
    expect(stdout).toBe("");
  });

  it("--verbose: reasoning, progress, diagnostics and the answer each start on their own line", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: true });
    p.onEvent({ type: "thinking", delta: "Let me " });
    p.onEvent({ type: "thinking", delta: "look." });
    p.onEvent({ type: "turn_end", tool_calls: 1 });
    p.onEvent({ type: "tool_call", call: { name: "find_importers", arguments: { module_name: "m" } }, recovered_by: "native" });
    p.onEvent({ type: "tool_result", step, result: { ok: true, evidence: [], total: 1, truncated: false } });
    p.onEvent({ type: "thinking", delta: "Done." });
    p.onEvent({ type: "content", delta: "It is a.py:1." });
    p.onEvent({ type: "diagnostic", diagnostics: [{ stage: "interpreter", message: "not asked" }] });
    p.onEvent({ type: "turn_end", tool_calls: 0 });
    p.finish();
    // Without colour, reasoning lines carry a `thinking: ` prefix (dim text would be the only cue).
    expect(transcript).toBe(
      [
        "thinking: Let me look.",
        '→ find_importers {"module_name":"m"}',
        "  ✓ 1 record 5 ms",
        "thinking: Done.",
        "It is a.py:1.",
        "  shim[interpreter] not asked",
        "",
      ].join("\n"),
    );
    expect(stdout).toBe("It is a.py:1.\n");
  });

  it("without colour, every reasoning line starts with `thinking: `, blank lines stay blank", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: true });
    p.onEvent({ type: "thinking", delta: "First line\nsecond" });
    p.onEvent({ type: "thinking", delta: " part\n\nthird\n" });
    p.onEvent({ type: "thinking", delta: "fourth" });
    p.onEvent({ type: "turn_end", tool_calls: 0 });
    expect(stderr).toBe("thinking: First line\nthinking: second part\n\nthinking: third\nthinking: fourth\n");
    expect(stdout).toBe("");
  });

  it("with colour, reasoning is dim and carries no prefix", () => {
    vi.stubEnv("NO_COLOR", "");
    vi.stubEnv("FORCE_COLOR", "1");
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: true });
    p.onEvent({ type: "thinking", delta: "Let me look." });
    p.finish();
    expect(stderr).toBe("\u001b[2mLet me look.\u001b[22m\n");
  });

  it("a fallback model already announced on stderr: the agent's switch to the shim is not said again", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: false, shimAnnounced: true });
    p.onEvent({ type: "notice", reason: "toolshim_on", message: "tool shim: model gemma2:2b lacks the tools capability; switching" });
    expect(stderr).toBe("");
  });

  it("human mode: the step-limit note stays in the answer on stdout and is not repeated on stderr", () => {
    const p = new AskEventPrinter({ streamAnswer: true, progress: true, verbose: false });
    p.onEvent({ type: "notice", reason: "max_steps", message: "[codecite] Stopped after 1 tool step" });
    p.onEvent({ type: "notice", reason: "toolshim_on", message: "tool shim: switching" });
    expect(stderr).toBe("codecite: tool shim: switching\n");
  });

  it("--json: the step-limit note goes to stderr (stdout holds only the JSON)", () => {
    const p = new AskEventPrinter({ streamAnswer: false, progress: false, verbose: false });
    p.onEvent({ type: "content", delta: "answer" });
    p.onEvent({ type: "notice", reason: "max_steps", message: "[codecite] Stopped after 1 tool step" });
    expect(stdout).toBe("");
    expect(stderr).toBe("codecite: [codecite] Stopped after 1 tool step\n");
  });
});
