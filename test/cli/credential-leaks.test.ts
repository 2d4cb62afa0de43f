/**
 * Leaks (issue 9, kind 12): credentials in `OLLAMA_HOST` / `OPENAI_BASE_URL` are sent as an HTTP
 * Basic `Authorization` header (fetch refuses URLs with credentials) and never printed — not in
 * errors, `config` or the provider's `location`; `INTERNAL` errors carry no absolute
 * host path. CLI runs use the built CLI and the fake Ollama.
 */
import { afterEach, describe, expect, it } from "vitest";
import { hideHostPaths, toFailure, ToolError } from "../../src/evidence/evidence.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { redactCredentials, splitCredentials } from "../../src/llm/server-address.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { closedPort } from "../helpers/closed-port.js";
import { RAG_APP, runCli } from "./run-cli.js";

const SECRET = "TOPSECRETpw";

describe("redaction and Basic auth (unit)", () => {
  it("redacts user info in URLs and bare host forms", () => {
    expect(redactCredentials(`http://me:${SECRET}@box:11434/x`)).toBe("http://***@box:11434/x");
    expect(redactCredentials(`me:${SECRET}@box:11434`)).toBe("***@box:11434");
    expect(redactCredentials(`see https://tok${SECRET}@h/v1 and http://a:b@c`)).toBe("see https://***@h/v1 and http://***@c");
    expect(redactCredentials("http://box:11434")).toBe("http://box:11434");
  });

  it("splits credentials into an Authorization header (RFC 7617), percent-decoded", () => {
    expect(splitCredentials("http://me:p%40ss@box:11434/x")).toEqual({
      url: "http://box:11434/x",
      authorization: `Basic ${Buffer.from("me:p@ss").toString("base64")}`,
    });
    expect(splitCredentials("http://box:11434")).toEqual({ url: "http://box:11434" });
  });

  it("providers keep credentials out of `location`; OpenAI refuses URL credentials plus an API key", () => {
    expect(new OllamaProvider({ host: `me:${SECRET}@127.0.0.1:1` }).location).toBe("http://127.0.0.1:1");
    expect(new OpenAIProvider({ baseURL: `http://me:${SECRET}@127.0.0.1:1/v1` }).location).not.toContain(SECRET);
    let message = "";
    try {
      new OpenAIProvider({ baseURL: `http://me:${SECRET}@127.0.0.1:1/v1`, apiKey: "sk-x" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe("the server address http://***@127.0.0.1:1/v1 carries credentials and OPENAI_API_KEY is set too");
  });

  it("INTERNAL errors hide absolute host paths", () => {
    expect(new ToolError("INTERNAL", "EIO: i/o error, open '/home/alice/proj/a.py'").message).toBe("EIO: i/o error, open '<path>'");
    expect(toFailure(new Error("ENOSPC: no space, write '/var/tmp/x'")).error.message).toBe("ENOSPC: no space, write '<path>'");
    expect(hideHostPaths("fatal: /w/r/.git/x: bad", "/w/r")).toBe("fatal: ./.git/x: bad");
    expect(new ToolError("NOT_FOUND", "no such file: src/a.py").message).toBe("no such file: src/a.py");
  });
});

describe("CLI (built)", () => {
  let server: FakeOllama | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("ask works with user info in OLLAMA_HOST: sent as Basic auth, never printed", async () => {
    server = await startFakeOllama({ turns: [{ repeat: true, content: "No evidence needed." }] });
    const host = server.host.replace("http://", `http://me:${SECRET}@`);
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--model", "qwen3:8b", "--json"], { env: { OLLAMA_HOST: host } });
    expect(r.code).toBe(0);
    const chat = server.requests.find((q) => q.path === "/api/chat");
    expect(chat?.headers.authorization).toBe(`Basic ${Buffer.from(`me:${SECRET}`).toString("base64")}`);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it("config and an unreachable server never print the credentials", async () => {
    const port = await closedPort();
    const env = { OLLAMA_HOST: `http://me:${SECRET}@127.0.0.1:${port}` };
    for (const args of [["config"], ["config", "--json"], ["ask", "q", "--root", RAG_APP, "--model", "m"]]) {
      const r = await runCli(args, { env });
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(SECRET);
      expect(r.stdout + r.stderr).toContain(`127.0.0.1:${port}`);
    }
  });

  it("a bad address with credentials is refused without printing them", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP], { env: { OLLAMA_HOST: `http://me:${SECRET}@box:99999` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("***@box:99999");
    expect(r.stderr).not.toContain(SECRET);
  });
});
