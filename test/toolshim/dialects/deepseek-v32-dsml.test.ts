import { describe, expect, it } from "vitest";
import { deepseekV32Dsml } from "../../../src/toolshim/dialects/deepseek-v32-dsml.js";
import { run } from "./corpus-helper.js";

const D = "｜DSML｜";
const block = (body: string) => `<${D}function_calls>\n${body}\n</${D}function_calls>`;
const invoke = (name: string, body: string) => `<${D}invoke name="${name}">\n${body}\n</${D}invoke>`;
const param = (k: string, v: string, str = true) => `<${D}parameter name="${k}" string="${str}">${v}</${D}parameter>`;

describe("deepseek_v32_dsml", () => {
  it("reads string parameters as text and string=\"false\" parameters as JSON", () => {
    const r = run(deepseekV32Dsml, block(invoke("read", `${param("path", "C:\\src\\new.py")}\n${param("lines", "[3, 9]", false)}\n${param("n", "7", false)}`)));
    expect(r.calls).toEqual([{ name: "read", arguments: { path: "C:\\src\\new.py", lines: [3, 9], n: 7 }, untyped: true }]);
    expect(r.content).toBe("");
  });

  it("reads two invokes after prose, a JSON invoke body, and mixed prefixed/plain closers", () => {
    const r = run(
      deepseekV32Dsml,
      `Checking both.\n${block(`${invoke("a", '{"q": "x & y"}')}\n<${D}invoke name="b">\n<${D}parameter name="k" string="true">v</parameter>\n</invoke>`)}\nDone.`,
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { q: "x & y" } },
      { name: "b", arguments: { k: "v" }, untyped: true },
    ]);
    expect(r.content).toBe("Checking both. Done.");
  });

  it("accepts the ASCII-bar spelling and a missing outer closer after a complete invoke", () => {
    const r = run(deepseekV32Dsml, '<|DSML|function_calls>\n<|DSML|invoke name="f">\n<|DSML|parameter name="q" string="true">x</|DSML|parameter>\n</|DSML|invoke>\nThen more text.');
    expect(r.calls).toEqual([{ name: "f", arguments: { q: "x" }, untyped: true }]);
    expect(r.content).toBe("Then more text.");
  });

  it("yields no call for a value cut by the end of the text, keeping earlier invokes and the prose before", () => {
    const r = run(deepseekV32Dsml, `Ok. <${D}function_calls>\n${invoke("a", param("q", "1"))}\n<${D}invoke name="b">\n<${D}parameter name="q" string="true">ha`);
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.content).toBe("Ok.");
  });

  it("reads DeepSeek-V4's tool_calls block, with plain inner tags and dropped closers", () => {
    const r = run(
      deepseekV32Dsml,
      'Checking.\n<｜DSML｜tool_calls>\n<invoke name="read">\n<parameter name="path" string="true">a.ts\n<parameter name="n" string="false">3\n<invoke name="wc">\n<parameter name="cmd" string="true">wc -l a.ts</parameter>\n</invoke>\n</｜DSML｜tool_calls>',
    );
    expect(r.calls).toEqual([
      { name: "read", arguments: { path: "a.ts", n: 3 }, untyped: true },
      { name: "wc", arguments: { cmd: "wc -l a.ts" }, untyped: true },
    ]);
    expect(r.content).toBe("Checking.");
  });

  it("accepts the doubled and U+2016 bars that leak from DeepSeek replies", () => {
    for (const bar of ["｜｜", "‖", "||"]) {
      const d = `${bar}DSML${bar}`;
      const r = run(deepseekV32Dsml, `<${d}tool_calls>\n<${d}invoke name="f">\n<${d}parameter name="q" string="true">x</${d}parameter>\n</${d}invoke>\n</${d}tool_calls>`);
      expect(r.calls, bar).toEqual([{ name: "f", arguments: { q: "x" }, untyped: true }]);
      expect(r.content, bar).toBe("");
    }
  });

  it("reads GigaChat 3.5's GCML namespace, tags glued without whitespace", () => {
    const G = "｜GCML｜";
    const r = run(
      deepseekV32Dsml,
      `I will check.<${G}tool_calls><${G}invoke name="store"><${G}parameter name="payload" string="false">{"a": 1}</${G}parameter><${G}parameter name="note" string="true">x</${G}parameter></${G}invoke></${G}tool_calls>`,
    );
    expect(r.calls).toEqual([{ name: "store", arguments: { payload: { a: 1 }, note: "x" }, untyped: true }]);
    expect(r.content).toBe("I will check.");
  });

  it("needs the prefix on the block opener: a plain <tool_calls> block is not DSML", () => {
    expect(deepseekV32Dsml.detect('<tool_calls>\n<invoke name="f"></invoke>\n</tool_calls>')).toBe(false);
  });

  it("ignores the tokens quoted in inline code and text without them", () => {
    expect(run(deepseekV32Dsml, `DeepSeek V3.2 opens calls with \`<${D}function_calls>\` tags.`).match).toBeNull();
    expect(deepseekV32Dsml.detect('<function_calls><invoke name="x"></invoke></function_calls>')).toBe(false);
  });
});
