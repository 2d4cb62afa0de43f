/**
 * A real third-party coding agent through `codecite serve`: Qwen Code (`@qwen-code/qwen-code`
 * on npm, its OpenAI-compatible setting: `--auth-type openai`, `OPENAI_BASE_URL`) completes one
 * tool-using task — read a file and report what it says — while the fake upstream writes the
 * model's call as text (`<tool_call>{…}</tool_call>`). Only the structured call the gateway makes
 * of that text lets the agent read the file, so the answer can hold the file's words only if the
 * agent ran the call.
 *
 * The agent is not a dependency: `scripts/third-party-agent.sh` installs it outside the
 * repository and runs this test with `CODECITE_QWEN_CODE` set to its `qwen` program. Without
 * that variable (or the program at `$TMPDIR/codecite-agents/node_modules/.bin/qwen`, where the
 * script installs it), the test is skipped.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAITurn } from "../helpers/fake-openai.js";

const QWEN = process.env.CODECITE_QWEN_CODE ?? path.join(os.tmpdir(), "codecite-agents", "node_modules", ".bin", "qwen");
const HAS_QWEN = existsSync(QWEN);
const SECRET = "PLUMTREE-42";
const MODEL = "qwen3:8b";

let upstream: FakeOpenAI | undefined;
let gateway: Gateway | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await gateway?.close();
  await upstream?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  gateway = upstream = scratch = undefined;
});

type Body = { messages?: Array<{ role: string; content?: unknown }>; tools?: Array<{ function: { name: string; parameters?: { properties?: Record<string, unknown> } } }> };

/**
 * The scripted model: asked with a `read_file` tool and no tool result yet, it writes the call as
 * text (Hermes `<tool_call>` markup, the file path in the tool's own path parameter); given the
 * result, it answers with it; any other request (the agent's side requests) gets a short reply.
 */
function model(file: string): (body: Record<string, unknown>) => FakeOpenAITurn {
  return (raw) => {
    const body = raw as Body;
    const last = body.messages?.at(-1);
    if (last?.role === "tool") return { content: `The file says: ${typeof last.content === "string" ? last.content : JSON.stringify(last.content)}`, chunkSize: 7 };
    const read = body.tools?.find((t) => t.function.name === "read_file");
    if (!read) return { content: "OK." };
    const props = Object.keys(read.function.parameters?.properties ?? {});
    const param = ["file_path", "absolute_path", "path"].find((p) => props.includes(p)) ?? props[0] ?? "file_path";
    return { content: `I will read the file.\n<tool_call>\n${JSON.stringify({ name: "read_file", arguments: { [param]: file } })}\n</tool_call>`, chunkSize: 7 };
  };
}

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!HAS_QWEN)("a third-party agent (Qwen Code) through serve's OpenAI API", () => {
  it("runs the call the upstream wrote as text and answers with the file's contents", async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codecite-qwen-"));
    const work = path.join(scratch, "work");
    const home = path.join(scratch, "home");
    mkdirSync(work);
    mkdirSync(home);
    const file = path.join(work, "notes.txt");
    writeFileSync(file, `The secret word is ${SECRET}.\n`);

    upstream = await startFakeOpenAI({ models: [MODEL], reply: model(file) });
    gateway = createGateway({ upstream: { api: "openai", baseURL: upstream.baseURL }, provider: new OpenAIProvider({ baseURL: upstream.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");

    const r = await run(QWEN, ["--auth-type", "openai", "--model", MODEL, "--approval-mode", "yolo", "--bare", "What is the secret word in notes.txt? Read the file."], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: home, OPENAI_API_KEY: "unused", OPENAI_BASE_URL: `http://127.0.0.1:${a.port}/v1`, OPENAI_MODEL: MODEL, NO_COLOR: "1" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`The file says: The secret word is ${SECRET}.`);

    // The agent got a structured call from the text: its next request carries the call and its result.
    const withResult = upstream.chatRequests().find((b) => (b as Body).messages?.at(-1)?.role === "tool") as
      | { messages: Array<{ role: string; content?: unknown; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }> }
      | undefined;
    expect(withResult).toBeDefined();
    const assistant = withResult!.messages.findLast((m) => m.role === "assistant" && m.tool_calls !== undefined);
    expect(assistant?.tool_calls?.[0]?.function.name).toBe("read_file");
    expect(Object.values(JSON.parse(assistant!.tool_calls![0]!.function.arguments) as Record<string, unknown>)).toContain(file);
    const result = withResult!.messages.at(-1)!;
    expect(result.tool_call_id).toBe(assistant!.tool_calls![0]!.id);
    expect(JSON.stringify(result.content)).toContain(SECRET);
    expect(gateway.stats.model(MODEL)).toMatchObject({ recovered: { "dialect:hermes_json": 1 }, refusals: 0 });
  });
});
