/**
 * Property tests with random and adversarial input (issue 9 "Fuzzing"), bounded by a fixed
 * number of runs and a fixed seed so CI time stays bounded and failures reproduce: the path
 * policy never lets a path escape, the ripgrep JSON reader never throws anything but a
 * `ToolError`, the tool-call parsers never crash, and the MCP message guard answers every bad
 * line and passes every good one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/evidence/evidence.js";
import { RgJsonReader } from "../../src/evidence/ripgrep-json.js";
import { isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { normalizeRelative } from "../../src/evidence/sandbox/path-policy.js";
import { visibleText } from "../../src/evidence/visible-text.js";
import { parseToolArguments } from "../../src/llm/tool-arguments.js";
import { checkMessage, guardMessages } from "../../src/mcp/message-guard.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";

const RUNS = { numRuns: 300, seed: 20261201 };
const ROOT = "/w/proj";

/** Path-like strings built from the pieces attacks use. */
const pathPiece = fc.constantFrom("..", ".", "", "/", "\\", "~", "$HOME", "%2e%2e", "\0", "src", ".env", ".git", "proj", "proj-evil", "w", "a\nb", "\u212A", "\uFF0E");
const pathLike = fc.oneof(fc.string(), fc.array(pathPiece, { maxLength: 12 }).map((p) => p.join("/")), fc.array(pathPiece, { maxLength: 12 }).map((p) => `/${p.join("/")}`));

describe("fuzz", () => {
  it("path policy: a result is always a clean relative path inside the root, or a typed error", () => {
    fc.assert(
      fc.property(pathLike, (p) => {
        let rel: string;
        try {
          rel = normalizeRelative(p, [ROOT]);
        } catch (err) {
          expect(err).toBeInstanceOf(ToolError);
          expect(["INVALID_ARGUMENT", "OUTSIDE_ROOT"]).toContain((err as ToolError).code);
          return;
        }
        expect(rel.startsWith("/")).toBe(false);
        expect(rel.split("/")).not.toContain("..");
        expect(rel.includes("\0")).toBe(false);
        expect(typeof isDeniedPath(rel)).toBe("boolean");
      }),
      RUNS,
    );
  });

  it("ripgrep JSON reader: random bytes and mangled events end in events or a ToolError", () => {
    const event = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ type: fc.constantFrom("match", "begin", "end", "summary"), data: fc.jsonValue() }).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(event, fc.uint8Array().map((b) => Buffer.from(b).toString("latin1"))), { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), (lines, step) => {
        const text = Buffer.from(lines.join("\n"), "latin1");
        const reader = new RgJsonReader(() => undefined, { maxParsedBytes: 4096, keptLineBytes: 512 });
        try {
          for (let i = 0; i < text.length; i += step) reader.push(text.subarray(i, i + step));
          reader.end();
        } catch (err) {
          expect(err).toBeInstanceOf(ToolError);
        }
      }),
      RUNS,
    );
  });

  it("tool-call parsers: any text is recovered or rejected, never a crash, and the result serialises", () => {
    const markup = fc.constantFrom("<tool_call>", "</tool_call>", "```json", "```", '{"name":', '"arguments":', "[", "]", "{", "}", '"search_code"', "<|python_tag|>", "<invoke", "<a", " ".repeat(50), "\\", '"');
    const text = fc.oneof(fc.string(), fc.array(fc.oneof(markup, fc.string({ maxLength: 8 })), { maxLength: 40 }).map((p) => p.join("")));
    fc.assert(
      fc.property(text, (t) => {
        const r = recoverDeterministic({ content: t, tool_calls: [] }, [{ name: "search_code" }, { name: "read_evidence" }]);
        expect(() => JSON.stringify(r)).not.toThrow();
        for (const c of r.tool_calls) expect(["search_code", "read_evidence"]).toContain(c.name);
        const args = parseToolArguments(t);
        expect(typeof args === "object" && args !== null && !Array.isArray(args)).toBe(true);
      }),
      RUNS,
    );
  });

  it("MCP message guard: every line is either passed on unchanged or answered with a JSON-RPC error", async () => {
    const line = fc.oneof(
      fc.string().filter((s) => !s.includes("\n")),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ jsonrpc: fc.constantFrom("2.0", "1.0"), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.string() }).map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 10 }), async (lines) => {
        const replies: string[] = [];
        const g = guardMessages((l) => replies.push(l), { maxBytes: 200 });
        const out: string[] = [];
        g.on("data", (d: Buffer) => out.push(d.toString("utf8")));
        const done = new Promise((r) => g.on("end", r));
        g.end(`${lines.join("\n")}\n`);
        await done;
        const passed = out.join("").split("\n").filter((l) => l !== "");
        const expectedPassed = lines.filter((l) => l.trim() !== "" && Buffer.byteLength(l) <= 200 && checkMessage(l) === undefined);
        expect(passed).toEqual(expectedPassed);
        const bad = lines.filter((l) => l.trim() !== "" && (Buffer.byteLength(l) > 200 || checkMessage(l) !== undefined));
        expect(replies).toHaveLength(bad.length);
        for (const r of replies) expect(JSON.parse(r)).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) as number } });
      }),
      { numRuns: 150, seed: 20261201 },
    );
  });

  it("visibleText: no control character survives (one-line mode keeps no newline)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (t) => {
        const v = visibleText(t);
        expect(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u.test(v)).toBe(false);
      }),
      { numRuns: 200, seed: 20261201 },
    );
  });
});
