import { describe, expect, it } from "vitest";
import {
  parsePythonCallAt,
  parsePythonCallListAt,
  parsePythonCallSequence,
  parsePythonLiteral,
} from "../../../src/toolshim/python-literal.js";

describe("parsePythonLiteral", () => {
  it("maps Python literals to JSON", () => {
    expect(
      parsePythonLiteral("{'a': [1, 2.5, -3e2, 0x1F, 1_000], 'b': (1,), 'c': None, 'd': True, 'e': {1, 2}, 'f': ()}"),
    ).toEqual({ a: [1, 2.5, -300, 31, 1000], b: [1], c: null, d: true, e: [1, 2], f: [] });
  });

  it("handles both quote styles, escapes, raw and triple-quoted strings, and concatenation", () => {
    expect(parsePythonLiteral(`'it\\'s'`)).toBe("it's");
    expect(parsePythonLiteral(`"say \\"hi\\"\\n"`)).toBe('say "hi"\n');
    expect(parsePythonLiteral(`r'C:\\new\\tmp'`)).toBe("C:\\new\\tmp");
    expect(parsePythonLiteral(`'''a\nb'''`)).toBe("a\nb");
    expect(parsePythonLiteral(`'ab' "cd"`)).toBe("abcd");
    expect(parsePythonLiteral(`'\\x41\\u00e9\\q'`)).toBe("Aé\\q");
  });

  it("accepts JSON spellings of the constants", () => {
    expect(parsePythonLiteral("[true, false, null]")).toEqual([true, false, null]);
  });

  it("rejects names, expressions and trailing text", () => {
    expect(parsePythonLiteral("foo")).toBeUndefined();
    expect(parsePythonLiteral("1 + 2")).toBeUndefined();
    expect(parsePythonLiteral("[1, 2] x")).toBeUndefined();
    expect(parsePythonLiteral("'unterminated")).toBeUndefined();
  });
});

describe("parsePythonCallAt / parsePythonCallListAt", () => {
  it("reads keyword and positional arguments", () => {
    const r = parsePythonCallAt("brave_search.call(query='x', n=3)", 0);
    expect(r?.call).toMatchObject({ name: "brave_search.call", kwargs: { query: "x", n: 3 }, positional: [] });
    expect(parsePythonCallAt("f(1, 'a')", 0)?.call.positional).toEqual([1, "a"]);
  });

  it("rejects a positional argument after a keyword argument", () => {
    expect(parsePythonCallAt("f(a=1, 2)", 0)).toBeUndefined();
  });

  it("reads a call list without spaces and with nested literals", () => {
    const text = "[get_weather(city='LA',metric='C'),register_user(name='Doe',age=9,tags=['a',\"b\"],meta={'k': None})]";
    const r = parsePythonCallListAt(text, 0);
    expect(r?.end).toBe(text.length);
    expect(r?.calls.map((c) => [c.name, c.kwargs])).toEqual([
      ["get_weather", { city: "LA", metric: "C" }],
      ["register_user", { name: "Doe", age: 9, tags: ["a", "b"], meta: { k: null } }],
    ]);
  });

  it("does not treat an empty list or a list of values as a call list", () => {
    expect(parsePythonCallListAt("[]", 0)).toBeUndefined();
    expect(parsePythonCallListAt("[1, 2]", 0)).toBeUndefined();
  });

  it("accepts `key: value` only when asked (Gemma paren form)", () => {
    expect(parsePythonCallAt('f(city: "Paris")', 0)).toBeUndefined();
    expect(parsePythonCallAt('f(city: "Paris")', 0, { colonKwargs: true })?.call.kwargs).toEqual({ city: "Paris" });
  });
});

describe("parsePythonCallSequence", () => {
  it("reads calls one per line, with or without list brackets", () => {
    const text = 'get_weather(location="NYC")\nget_time(tz=null)';
    expect(parsePythonCallSequence(text, 0, text.length)?.map((c) => c.name)).toEqual(["get_weather", "get_time"]);
    const listed = "[a(x=1), b()]";
    expect(parsePythonCallSequence(listed, 0, listed.length)?.map((c) => c.name)).toEqual(["a", "b"]);
  });

  it("fails on a cut call", () => {
    const text = 'get_weather(location="NY';
    expect(parsePythonCallSequence(text, 0, text.length)).toBeUndefined();
  });

  it("reads Python statements when asked: print(call), name = call, print(name) of an assigned name", () => {
    const calls = (text: string, statements = true) =>
      parsePythonCallSequence(text, 0, text.length, { statements })?.map((c) => [c.name, c.kwargs]);
    expect(calls("print(get_weather(city='Paris'))")).toEqual([["get_weather", { city: "Paris" }]]);
    expect(calls("print(default_api.get_weather(city='Paris'))")).toEqual([["default_api.get_weather", { city: "Paris" }]]);
    expect(calls("r = get_weather(city='Paris')\nprint(r)\nget_time()")).toEqual([["get_weather", { city: "Paris" }], ["get_time", {}]]);
    // A tool that is itself named print is a plain call.
    expect(calls("print(text='hi')")).toEqual([["print", { text: "hi" }]]);
    // print() of a literal stays a call of print with a positional argument (no tool call can be
    // made of it); of a name never assigned, or of an expression, it is not a call sequence.
    expect(parsePythonCallSequence('print("hello")', 0, 14, { statements: true })?.map((c) => [c.name, c.positional])).toEqual([["print", ["hello"]]]);
    expect(calls("print(r)")).toBeUndefined();
    expect(calls("print(get_weather(city='Paris') + 1)")).toBeUndefined();
    // Without the option, statements are not calls.
    expect(calls("print(get_weather(city='Paris'))", false)).toBeUndefined();
    expect(calls("r = get_weather(city='Paris')", false)).toBeUndefined();
  });
});

describe("Windows paths in Python strings", () => {
  it("keeps the backslashes of a raw drive path written without r'…', and ordinary escapes elsewhere", () => {
    expect(parsePythonLiteral("'C:\\new\\file.py'")).toBe("C:\\new\\file.py");
    expect(parsePythonLiteral("'C:\\new\\file.py'")).toBe(parsePythonLiteral("r'C:\\new\\file.py'"));
    expect(parsePythonLiteral("'C:\\\\temp'")).toBe("C:\\temp");
    expect(parsePythonLiteral("'tab\\there'")).toBe("tab\there");
  });
});

