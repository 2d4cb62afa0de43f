import { describe, expect, it } from "vitest";
import { matchBalanced, parseJsonEndedByMarker, parseJsonTolerant, repairJsonStrings, scanJsonValues } from "../../../src/toolshim/json.js";

describe("parseJsonTolerant", () => {
  it("parses strict JSON first", () => {
    expect(parseJsonTolerant('{"a": [1, {"b": null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonTolerant("  [1, 2]  ")).toEqual([1, 2]);
  });

  it("keeps Windows backslashes that are invalid JSON escapes", () => {
    expect(parseJsonTolerant('{"path": "C:\\Users\\me\\file.txt"}')).toEqual({ path: "C:\\Users\\me\\file.txt" });
  });

  it("keeps every backslash of a Windows path once the path has an invalid escape (\\new stays a path)", () => {
    expect(parseJsonTolerant('{"path": "C:\\Users\\new\\tmp"}')).toEqual({ path: "C:\\Users\\new\\tmp" });
  });

  it("leaves correctly escaped paths and valid escapes alone", () => {
    expect(parseJsonTolerant('{"path": "C:\\\\Users\\\\file", "nl": "a\\nb"}')).toEqual({ path: "C:\\Users\\file", nl: "a\nb" });
  });

  it("escapes raw control characters inside strings", () => {
    expect(parseJsonTolerant('{"code": "line1\nline2\tend"}')).toEqual({ code: "line1\nline2\tend" });
  });

  it("repairs trailing commas, single quotes, unquoted keys and Python constants", () => {
    expect(parseJsonTolerant('{"a": 1, "b": [1, 2,],}')).toEqual({ a: 1, b: [1, 2] });
    expect(parseJsonTolerant("{'city': 'Tokyo', 'ok': True, 'x': None, 'n': False}")).toEqual({ city: "Tokyo", ok: true, x: null, n: false });
    expect(parseJsonTolerant('{city: "Paris", days: 3}')).toEqual({ city: "Paris", days: 3 });
  });

  it("repairs unescaped quotes inside a string value", () => {
    expect(parseJsonTolerant('{"cmd": "echo "hi" there"}')).toEqual({ cmd: 'echo "hi" there' });
  });

  it("never invents structure from prose or code", () => {
    expect(parseJsonTolerant("{invalid json}")).toBeUndefined();
    expect(parseJsonTolerant("[see the docs]")).toBeUndefined();
    expect(parseJsonTolerant('{ fmt.Println("hello") }')).toBeUndefined();
    expect(parseJsonTolerant('{"a": hello world}')).toBeUndefined();
    expect(parseJsonTolerant("just some words")).toBeUndefined();
    expect(parseJsonTolerant("")).toBeUndefined();
  });

  it("never completes a truncated or unbalanced value", () => {
    expect(parseJsonTolerant('{"name": "say_hello')).toBeUndefined();
    expect(parseJsonTolerant('{"a": {"b": 1}')).toBeUndefined();
    expect(parseJsonTolerant('{"a": [1, 2}')).toBeUndefined();
    expect(parseJsonTolerant('{"a": 1} trailing')).toBeUndefined();
  });
});

describe("parseJsonEndedByMarker", () => {
  it("gives a value short of its last closing brackets the ones it lacks", () => {
    expect(parseJsonEndedByMarker('[{"name": "send_email", "arguments": {"user": "ALAN"}}')).toEqual([{ name: "send_email", arguments: { user: "ALAN" } }]);
    expect(parseJsonEndedByMarker('{"name": "f", "arguments": {"a": [1, 2]}\n')).toEqual({ name: "f", arguments: { a: [1, 2] } });
    expect(matchBalanced('{"a": [1, 2]', 0)).toMatchObject({ ok: false, reason: "eof", depth: 1, missing: "}" });
  });

  it("completes nothing that stops after a key, a comma or inside a string, or that is followed by prose", () => {
    expect(parseJsonEndedByMarker('{"name": "f", "arguments":')).toBeUndefined();
    expect(parseJsonEndedByMarker('[{"name": "f"},')).toBeUndefined();
    expect(parseJsonEndedByMarker('{"name": "f", "arguments": {"q": "a}')).toBeUndefined();
    expect(parseJsonEndedByMarker('{"name": "f", "arguments": {"a": 1}\nI will run it.')).toBeUndefined();
  });
});

describe("repairJsonStrings", () => {
  it("changes nothing outside strings and nothing in valid strings", () => {
    const ok = '{"a": "x\\ty", "b": [1, 2]}';
    expect(repairJsonStrings(ok)).toBe(ok);
  });

  it("doubles an invalid escape and a trailing backslash", () => {
    expect(repairJsonStrings('{"a": "\\q"}')).toBe('{"a": "\\\\q"}');
    expect(repairJsonStrings('{"a": "\\u12"}')).toBe('{"a": "\\\\u12"}');
  });
});

describe("matchBalanced", () => {
  it("ignores brackets inside double- and single-quoted strings", () => {
    const text = '{"t": "He said \\"Hello {world}\\"", \'u\': \'}]\'} tail';
    const m = matchBalanced(text, 0);
    expect(m).toEqual({ ok: true, end: text.indexOf(" tail") });
  });

  it("treats an apostrophe in prose as text", () => {
    expect(matchBalanced("{ it's fine }", 0)).toEqual({ ok: true, end: 13 });
  });

  it("reports eof and mismatch", () => {
    expect(matchBalanced('{"a": [1, 2', 0)).toMatchObject({ ok: false, reason: "eof", depth: 2 });
    expect(matchBalanced('{"a": [1}', 0)).toMatchObject({ ok: false, reason: "mismatch" });
    expect(matchBalanced("abc", 0)).toMatchObject({ ok: false, reason: "not-open" });
  });
});

describe("scanJsonValues", () => {
  it("finds several values in prose and keeps scanning after a stray brace", () => {
    const text = 'Here {"a":1} and { broken and {"b":[1,2]} end';
    expect(scanJsonValues(text)).toEqual([
      { start: 5, end: 12, value: { a: 1 } },
      { start: 30, end: 41, value: { b: [1, 2] } },
    ]);
  });

  it("keeps scanning inside a balanced value that is not JSON", () => {
    const text = 'for { x := {"k": 2} }';
    expect(scanJsonValues(text)).toEqual([{ start: 11, end: 19, value: { k: 2 } }]);
  });

  it("keeps scanning after a mismatched value", () => {
    expect(scanJsonValues('{"a": [1}, {"b": 2}')).toEqual([{ start: 11, end: 19, value: { b: 2 } }]);
  });

  it("reports a truncated JSON value once and flags values inside it as enclosed", () => {
    const text = '{"type": "function", "function": {"name": "x", "parameters": {"a": 1}}';
    expect(scanJsonValues(text)).toEqual([
      { start: 0, end: text.length, value: undefined, truncated: true },
      { start: 33, end: text.length, value: { name: "x", parameters: { a: 1 } }, enclosed: true },
    ]);
  });

  it("does not return nested values of a parsed value separately", () => {
    expect(scanJsonValues('{"a": {"b": {"c": 1}}}').length).toBe(1);
  });

  it("returns nothing for code with braces", () => {
    expect(scanJsonValues('for { fmt.Println("hello") }')).toEqual([]);
  });

  it("keeps a raw drive path whose backslash sequences all happen to be valid escapes (\\t, \\n, \\b, \\r)", () => {
    expect(parseJsonTolerant('{"path": "C:\\tools\\bin\\nuget\\readme.txt"}')).toEqual({ path: "C:\\tools\\bin\\nuget\\readme.txt" });
    expect(parseJsonTolerant('{"a": {"p": "D:\\temp\\new"}, "n": 1}')).toEqual({ a: { p: "D:\\temp\\new" }, n: 1 });
    // Escaped paths and ordinary escapes are unchanged.
    expect(parseJsonTolerant('{"path": "C:\\\\temp\\\\new", "s": "a\\tb"}')).toEqual({ path: "C:\\temp\\new", s: "a\tb" });
    expect(parseJsonTolerant('{"re": "\\\\bclass\\\\s+", "t": "note:\\tb"}')).toEqual({ re: "\\bclass\\s+", t: "note:\tb" });
  });
});
