/**
 * Hostile tool lists sent to `codecite serve`: the client's tools (names, schemas) meet the
 * model's text in the gateway's own process, so nothing in them may make the gateway run
 * unbounded work for every client at once or fail blaming the upstream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { fitsSchema } from "../../src/toolshim/schema.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let ollama: FakeOllama | undefined;
let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await ollama?.close();
  gateway = ollama = undefined;
});

/** A gateway whose upstream writes `text` as the assistant's whole reply to every chat. */
async function start(text: string): Promise<string> {
  ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }], respond: () => ({ content: text, repeat: true }) });
  const host = ollama.host;
  gateway = createGateway({ upstream: { api: "ollama", host }, provider: new OllamaProvider({ host, timeoutMs: 10_000 }) });
  return `http://127.0.0.1:${(await gateway.listen(0, "127.0.0.1")).port}`;
}

async function chat(base: string, tools: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "qwen3:8b", stream: false, tools, messages: [{ role: "user", content: "go" }] }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** A tool `grep` whose `needle` parameter carries `pattern` (a regular expression written by the client). */
const grepTool = (pattern: string) => ({
  type: "function",
  function: { name: "grep", description: "search", parameters: { type: "object", properties: { needle: { type: "string", pattern } }, required: ["needle"] } },
});

describe("serve: a client's tool schema never makes the gateway run the client's regular expressions", () => {
  // `^(a+)+$` on "a"×32 + "!" backtracks 2^32 times: the gateway's one thread was held 66 s for
  // every client (measured on 7660f4f), and 40 characters would take hours. The client's own tool
  // server judges `pattern`; the gateway recovers the call as written.
  it("a call whose argument a catastrophic `pattern` would judge is passed on as written (a short one here, so the old code only refuses it)", async () => {
    const base = await start('<tool_call>{"name": "grep", "arguments": {"needle": "aaaa!"}}</tool_call>');
    const { status, body } = await chat(base, [grepTool("^(a+)+$")]);
    expect(status).toBe(200);
    const message = body.message as { content: string; tool_calls?: Array<{ function: { name: string; arguments: unknown } }> };
    expect(message.content).toBe("");
    expect(message.tool_calls?.map((c) => c.function)).toEqual([{ index: 0, name: "grep", arguments: { needle: "aaaa!" } }]);
  });

  it("the schema validator and the shim's fit check ignore `pattern` and `patternProperties`, and keep a property named pattern", () => {
    const schema = {
      type: "object",
      properties: { needle: { type: "string", pattern: "^(a+)+$" }, pattern: { type: "string", minLength: 2 } },
      patternProperties: { "^(x+)+$": { type: "number" } },
      additionalProperties: false,
      required: ["needle"],
    };
    const validate = schemaValidator([{ name: "grep", parameters: schema }]);
    expect(validate({ name: "grep", arguments: { needle: "aaaa!" } })).toEqual({ ok: true, args: { needle: "aaaa!" } });
    expect(validate({ name: "grep", arguments: { needle: "b", xxxx: "not a number" } }).ok).toBe(true);
    // The property called `pattern` is still checked as declared.
    expect(validate({ name: "grep", arguments: { needle: "b", pattern: "x" } }).ok).toBe(false);
    expect(fitsSchema({ needle: "aaaa!" }, schema)).toBe(true);
    expect(fitsSchema({ needle: "b", pattern: "x" }, schema)).toBe(false);
  });
});

describe("serve: a client's tool schema never makes the gateway follow its references", () => {
  // A reference makes a schema a graph: `{"$ref": "#"}` overflowed the stack when a call was
  // judged (a 502 "upstream: Maximum call stack size exceeded"), and definitions that are each an
  // `anyOf` of two references to the next were walked as a tree, 2^n checks of one argument
  // (20 definitions: 11 s of the gateway's one thread; these 40 would take days).
  it("a schema referring to itself, and 40 definitions doubling through anyOf, are passed on as written", async () => {
    const base = await start('<tool_call>{"name": "grep", "arguments": {"needle": "x"}}</tool_call>');
    const defs: Record<string, unknown> = { a40: { type: "number" } };
    for (let i = 0; i < 40; i++) defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
    for (const parameters of [
      { $ref: "#", type: "object", properties: { needle: { $ref: "#" } } },
      { type: "object", $defs: defs, properties: { needle: { $ref: "#/$defs/a0" } }, required: ["needle"] },
    ]) {
      const { status, body } = await chat(base, [{ type: "function", function: { name: "grep", description: "search", parameters } }]);
      expect(status).toBe(200);
      const message = body.message as { content: string; tool_calls?: Array<{ function: { name: string; arguments: unknown } }> };
      expect(message.tool_calls?.map((c) => c.function)).toEqual([{ index: 0, name: "grep", arguments: { needle: "x" } }]);
    }
  });

  it("the schema validator keeps what a reference sits beside, and a property named $ref", () => {
    const validate = schemaValidator([
      { name: "t", parameters: { type: "object", properties: { n: { $ref: "#/$defs/x", type: "number" }, $ref: { type: "string" } }, $defs: { x: {} } } },
    ]);
    expect(validate({ name: "t", arguments: { n: 1, $ref: "r" } })).toEqual({ ok: true, args: { n: 1, $ref: "r" } });
    expect(validate({ name: "t", arguments: { n: "one" } }).ok).toBe(false);
    expect(validate({ name: "t", arguments: { n: 1, $ref: 2 } }).ok).toBe(false);
  });
});

describe("serve: a tool list is bounded like a body", () => {
  // The gateway matches the model's text against the offered names with one regular expression:
  // a name of 40,000 characters made V8 refuse it ("Regular expression too large") and the chat
  // failed as a 502 blaming the upstream; 50,000 tools of 64 characters took 4.4 s to compile.
  it("a name over 256 characters, or over 1,024 tools, is 400 naming the field and the limit, in each API's shape; nothing reaches the upstream", async () => {
    const base = await start("hello");
    const tool = (name: string) => ({ type: "function", function: { name, parameters: { type: "object", properties: {} } } });
    const long = await chat(base, [tool("ok"), tool("n".repeat(40_000))]);
    expect(long).toEqual({ status: 400, body: { error: "tools[1].function.name is 40000 characters long; a tool name has at most 256" } });
    const many = await chat(base, Array.from({ length: 1_025 }, (_, i) => tool(`tool_${i}`)));
    expect(many).toEqual({ status: 400, body: { error: "tools has 1025 tools; at most 1024 are accepted" } });
    const openai = await fetch(`${base}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "qwen3:8b", tools: [tool("n".repeat(257))], messages: [{ role: "user", content: "go" }] }),
    });
    expect(openai.status).toBe(400);
    expect(await openai.json()).toEqual({ error: { message: "tools[0].function.name is 257 characters long; a tool name has at most 256", type: "invalid_request_error", param: null, code: null } });
    expect(ollama!.chatRequests()).toHaveLength(0);
    // At the limits the chat is served.
    const fits = await chat(base, [...Array.from({ length: 1_023 }, (_, i) => tool(`tool_${i}`)), tool("n".repeat(256))]);
    expect(fits.status).toBe(200);
    expect((fits.body.message as { content: string }).content).toBe("hello");
  });
});
