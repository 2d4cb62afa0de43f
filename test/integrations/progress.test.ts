import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { agentProgress, progressEnabled, startProgress } from "../../src/cli/progress.js";
import type { AgentEvent } from "../../src/agent/run-agent.js";

/** A stream that claims to be a terminal and records what is written to it. */
class FakeTty extends Writable {
  readonly isTTY: boolean;
  readonly columns = 80;
  text = "";
  constructor(isTTY = true) {
    super();
    this.isTTY = isTTY;
  }
  // The tty.WriteStream cursor methods ora uses.
  cursorTo(x: number, cb?: () => void): boolean {
    this.text += `\x1b[${x + 1}G`;
    cb?.();
    return true;
  }
  moveCursor(_dx: number, dy: number, cb?: () => void): boolean {
    this.text += dy < 0 ? `\x1b[${-dy}A` : "";
    cb?.();
    return true;
  }
  clearLine(_dir: number, cb?: () => void): boolean {
    this.text += "\x1b[2K";
    cb?.();
    return true;
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

const asStream = (s: FakeTty) => s as unknown as NodeJS.WriteStream;
const tick = () => new Promise((r) => setTimeout(r, 20));

async function until(check: () => boolean): Promise<void> {
  // Bounded only by the test timeout: a loaded machine may take long to run a timer.
  while (!check()) await tick();
}

describe("progressEnabled", () => {
  const tty = asStream(new FakeTty());
  it.each([
    ["a terminal", { stream: tty, env: {} }, true],
    ["not a terminal", { stream: asStream(new FakeTty(false)), env: {} }, false],
    ["--json", { stream: tty, env: {}, json: true }, false],
    ["NO_COLOR=1", { stream: tty, env: { NO_COLOR: "1" } }, false],
    ["NO_COLOR empty", { stream: tty, env: { NO_COLOR: "" } }, true],
    ["CI=true", { stream: tty, env: { CI: "true" } }, false],
    ["CI=false", { stream: tty, env: { CI: "false" } }, true],
    ["TERM=dumb", { stream: tty, env: { TERM: "dumb" } }, false],
  ])("%s → %s", (_label, opts, want) => {
    expect(progressEnabled(opts)).toBe(want);
  });
});

describe("startProgress", () => {
  it("draws the label on a terminal, follows updates, and stops", async () => {
    const out = new FakeTty();
    const p = startProgress("loading model", { stream: asStream(out), env: {}, delayMs: 0 });
    await until(() => out.text.includes("loading model"));
    p.update("indexing files");
    await until(() => out.text.includes("indexing files"));
    p.stop();
    p.stop();
    const len = out.text.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(out.text.length).toBe(len);
  });

  it("writes nothing when stopped before the delay", async () => {
    const out = new FakeTty();
    const p = startProgress("quick", { stream: asStream(out), env: {}, delayMs: 50 });
    p.stop();
    await new Promise((r) => setTimeout(r, 120));
    expect(out.text).toBe("");
  });

  it("writes nothing when quiet (not a TTY)", async () => {
    const out = new FakeTty(false);
    const p = startProgress("x", { stream: asStream(out), env: {}, delayMs: 0 });
    await new Promise((r) => setTimeout(r, 100));
    p.stop();
    expect(out.text).toBe("");
  });
});

describe("agentProgress", () => {
  it("waits for the model, names the running tool, and stops before forwarding events", async () => {
    const out = new FakeTty();
    const seen: string[] = [];
    const wrapped = agentProgress(
      (e) => {
        seen.push(e.type);
      },
      { stream: asStream(out), env: {}, delayMs: 0 },
    );
    await until(() => out.text.includes("waiting for the model"));
    const call: AgentEvent = { type: "tool_call", call: { name: "find_importers", arguments: {} }, recovered_by: "native" };
    wrapped.onEvent(call);
    await until(() => out.text.includes("running find_importers"));
    wrapped.onEvent({ type: "content", delta: "The answer" });
    const len = out.text.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(out.text.length).toBe(len);
    wrapped.stop();
    expect(seen).toEqual(["tool_call", "content"]);
  });
});
