/**
 * `streamedContentOf` (src/llm/ollama.ts) reads the content of a streamed `/api/chat` line of the
 * usual shape without parsing the whole line: it must give exactly what `JSON.parse` gives, for
 * every content, and nothing for a line of any other shape (which is then parsed whole, with the
 * errors that brings).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { streamedContentOf } from "../../src/llm/ollama.js";
import { thorough } from "../helpers/thoroughness.js";

/** Go's `encoding/json` escapes `<`, `>`, `&`, U+2028 and U+2029 (Ollama's server writes its lines with it). */
function goEscaped(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Ollama's line for one delta (fields in its server's order). */
function line(content: string, model = "qwen3:8b", createdAt: string | undefined = "2025-06-01T10:00:00.123456789Z"): string {
  const part = createdAt === undefined ? { model, message: { role: "assistant", content }, done: false } : { model, created_at: createdAt, message: { role: "assistant", content }, done: false };
  return JSON.stringify(part);
}

/** Text of any UTF-16 code units: quotes, backslashes, control characters, lone surrogate halves. */
const anyText = fc.string({ unit: "binary", maxLength: 40 });
const runs = thorough(400, 5000);

describe("streamedContentOf", () => {
  it("gives what JSON.parse gives for the usual line, with or without created_at, escaped as JSON.stringify or as Go does", () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), fc.boolean(), (content, withTime, go) => {
        const text = line(content, "m", withTime ? "2025-06-01T10:00:00Z" : undefined);
        const written = go ? goEscaped(text) : text;
        const got = streamedContentOf(written);
        expect(got).toBe((JSON.parse(written) as { message: { content: string } }).message.content);
        expect(got).toBe(content);
      }),
      { numRuns: runs, seed: 13 },
    );
  });

  it("reads concrete lines", () => {
    expect(streamedContentOf(line("Hello"))).toBe("Hello");
    expect(streamedContentOf(line(""))).toBe("");
    expect(streamedContentOf(goEscaped(line('<tool_call>{"name": "x"}</tool_call>\n')))).toBe('<tool_call>{"name": "x"}</tool_call>\n');
    expect(streamedContentOf(line("😀 \u0001 \\ \""))).toBe("😀 \u0001 \\ \"");
  });

  it("leaves every other shape to the whole parse: other fields, other order, the last line, thinking, calls, spaces, escaped names, invalid JSON", () => {
    const others = [
      JSON.stringify({ model: "m", message: { role: "assistant", content: "", thinking: "hm" }, done: false }),
      JSON.stringify({ model: "m", message: { role: "assistant", content: "", tool_calls: [{ function: { name: "x", arguments: {} } }] }, done: false }),
      JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop" }),
      JSON.stringify({ model: "m", message: { role: "assistant", content: "a" }, done: false, eval_count: 1 }),
      JSON.stringify({ model: "m", message: { role: "assistant", content: "a" }, done: false, error: "x" }),
      JSON.stringify({ message: { role: "assistant", content: "a" }, model: "m", done: false }),
      JSON.stringify({ model: "m", message: { content: "a", role: "assistant" }, done: false }),
      JSON.stringify({ model: "m", message: { role: "user", content: "a" }, done: false }),
      JSON.stringify({ model: 'a"b', message: { role: "assistant", content: "a" }, done: false }),
      JSON.stringify({ model: "m", message: { role: "assistant", content: "a" }, done: false }, null, 1),
      ` ${line("a")}`,
      `${line("a")} `,
      '{"model":"m","message":{"role":"assistant","content":"a\\x"},"done":false}',
      '{"model":"m","message":{"role":"assistant","content":"a\\u12"},"done":false}',
      '{"model":"m","message":{"role":"assistant","content":"a\u0001"},"done":false}',
      '{"model":"m","message":{"role":"assistant","content":"a"b"},"done":false}',
      '{"model":"m\u0001","message":{"role":"assistant","content":"a"},"done":false}',
      "",
      "<html>502</html>",
    ];
    for (const text of others) expect(streamedContentOf(text), text).toBeUndefined();
  });

  it("a line it reads is valid JSON of exactly the usual keys, whatever is inserted into or cut out of a usual line", () => {
    fc.assert(
      fc.property(anyText, fc.nat(200), fc.nat(6), fc.string({ maxLength: 6 }), (content, at, cut, insert) => {
        const base = line(content, "m");
        const k = at % (base.length + 1);
        const text = base.slice(0, k) + insert + base.slice(Math.min(base.length, k + cut));
        const got = streamedContentOf(text);
        if (got === undefined) return;
        const part = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(part).filter((key) => key !== "created_at")).toEqual(["model", "message", "done"]);
        expect(part.done).toBe(false);
        expect(part.message).toEqual({ role: "assistant", content: got });
      }),
      { numRuns: runs * 5, seed: 13 },
    );
  });
});
