import { describe, expect, it } from "vitest";
import {
  ConfigError,
  DEFAULT_OLLAMA_HOST,
  normalizeOllamaHost,
  parseContextTokens,
  parseInterpreterBackend,
  parseToolshimMode,
  resolveConfig,
  resolveServeConfig,
} from "../../src/config.js";

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("normalizeOllamaHost", () => {
  const table: Array<[string, string]> = [
    ["", "http://127.0.0.1:11434"],
    ["   ", "http://127.0.0.1:11434"],
    ["localhost", "http://localhost:11434"],
    ["127.0.0.1", "http://127.0.0.1:11434"],
    ["myhost", "http://myhost:11434"],
    ["myhost:8080", "http://myhost:8080"],
    ["http://myhost", "http://myhost:11434"],
    ["http://myhost:80", "http://myhost:80"],
    ["http://myhost:80/", "http://myhost:80"],
    ["HTTP://MyHost:11434", "http://myhost:11434"],
    ["Http://h", "http://h:11434"],
    ["https://ollama.example.com", "https://ollama.example.com"],
    ["https://ollama.example.com:8443/", "https://ollama.example.com:8443"],
    ["0.0.0.0", "http://127.0.0.1:11434"],
    ["0.0.0.0:11500", "http://127.0.0.1:11500"],
    ["http://0.0.0.0:11434", "http://127.0.0.1:11434"],
    [":11500", "http://127.0.0.1:11500"],
    ["::1", "http://[::1]:11434"],
    ["fe80::1", "http://[fe80::1]:11434"],
    ["[::1]", "http://[::1]:11434"],
    ["[::1]:9000", "http://[::1]:9000"],
    ["http://[::1]:9000/", "http://[::1]:9000"],
    ["::", "http://[::1]:11434"],
    ["http://myhost:11434/ollama", "http://myhost:11434/ollama"],
    ["myhost/ollama/", "http://myhost:11434/ollama"],
    ["http://myhost:11434///", "http://myhost:11434"],
    ["  127.0.0.1:11434  ", "http://127.0.0.1:11434"],
  ];
  it.each(table)("%j → %s", (raw, expected) => {
    expect(normalizeOllamaHost(raw)).toBe(expected);
  });

  it.each(["ftp://myhost", "http://", "myhost:port", "myhost:99999", "[::1", "a b"])("rejects %j naming OLLAMA_HOST", (raw) => {
    const e = configError(() => normalizeOllamaHost(raw));
    expect(e.variable).toBe("OLLAMA_HOST");
    expect(e.value).toBe(raw);
    expect(e.message).toContain("OLLAMA_HOST");
  });
});

describe("parseToolshimMode", () => {
  it.each([
    ["auto", "auto"],
    ["AUTO", "auto"],
    ["1", "on"],
    ["true", "on"],
    ["Yes", "on"],
    ["ON", "on"],
    [" on ", "on"],
    ["0", "off"],
    ["FALSE", "off"],
    ["no", "off"],
    ["Off", "off"],
  ])("%j → %s", (raw, mode) => {
    expect(parseToolshimMode(raw)).toBe(mode);
  });

  it("rejects other values naming the variable, the value and the accepted values", () => {
    const e = configError(() => parseToolshimMode("maybe"));
    expect(e.variable).toBe("CODECITE_TOOLSHIM");
    expect(e.value).toBe("maybe");
    expect(e.accepted).toEqual(["auto", "1", "true", "yes", "on", "0", "false", "no", "off"]);
    expect(e.message).toBe(
      'invalid CODECITE_TOOLSHIM="maybe"; accepted: auto, 1, true, yes, on, 0, false, no, off',
    );
  });
});

describe("parseInterpreterBackend", () => {
  it.each([
    ["", "ollama"],
    ["ollama", "ollama"],
    ["OLLAMA", "ollama"],
    ["local", "local"],
    ["llama.cpp", "local"],
    ["llama_cpp", "local"],
    [" Local ", "local"],
  ])("%j → %s", (raw, backend) => {
    expect(parseInterpreterBackend(raw)).toBe(backend);
  });

  it("rejects unknown backends", () => {
    const e = configError(() => parseInterpreterBackend("vllm"));
    expect(e.variable).toBe("CODECITE_TOOLSHIM_BACKEND");
    expect(e.accepted).toEqual(["ollama", "local", "llama.cpp", "llama_cpp"]);
  });
});

describe("resolveConfig", () => {
  it("uses the defaults when nothing is set", () => {
    const c = resolveConfig({}, {});
    expect(c.provider).toBe("ollama");
    expect(c.model).toBeUndefined();
    expect(c.ollamaHost).toBe(DEFAULT_OLLAMA_HOST);
    expect(c.toolshim).toBe("auto");
    expect(c.interpreter).toEqual({ backend: "ollama", ollamaModel: "mistral-nemo" });
    expect(c.openai).toEqual({});
    expect(c.sources.toolshim).toBe("default");
  });

  it("reads every variable", () => {
    const c = resolveConfig(
      {},
      {
        OLLAMA_HOST: "0.0.0.0:11500",
        CODECITE_MODEL: "qwen2.5-coder:7b",
        CODECITE_TOOLSHIM: "yes",
        CODECITE_TOOLSHIM_BACKEND: "llama.cpp",
        CODECITE_TOOLSHIM_OLLAMA_MODEL: "qwen3:4b",
        CODECITE_TOOLSHIM_MODEL: "/models/interp.gguf",
        CODECITE_LOCAL_MODEL: "/models/local.gguf",
        OPENAI_BASE_URL: "http://127.0.0.1:8000/v1/",
        OPENAI_API_KEY: "sk-test",
      },
    );
    expect(c.ollamaHost).toBe("http://127.0.0.1:11500");
    expect(c.model).toBe("qwen2.5-coder:7b");
    expect(c.toolshim).toBe("on");
    expect(c.interpreter).toEqual({ backend: "local", ollamaModel: "qwen3:4b", localModel: "/models/interp.gguf" });
    expect(c.localModel).toBe("/models/local.gguf");
    expect(c.openai).toEqual({ baseURL: "http://127.0.0.1:8000/v1", apiKey: "sk-test" });
    expect(c.sources.ollamaHost).toBe("env");
  });

  it("falls back from CODECITE_TOOLSHIM_MODEL to CODECITE_LOCAL_MODEL for the local interpreter", () => {
    const c = resolveConfig({}, { CODECITE_TOOLSHIM_BACKEND: "local", CODECITE_LOCAL_MODEL: " /m/a.gguf " });
    expect(c.interpreter.localModel).toBe("/m/a.gguf");
    const none = resolveConfig({}, { CODECITE_TOOLSHIM_BACKEND: "local", CODECITE_TOOLSHIM_MODEL: "  " });
    expect(none.interpreter.localModel).toBeUndefined();
  });

  it("lets flags beat variables", () => {
    const c = resolveConfig(
      { model: "llama3.1:8b", host: "myhost:9999", toolshim: "off", provider: "ollama" },
      { CODECITE_MODEL: "qwen3:8b", OLLAMA_HOST: "otherhost", CODECITE_TOOLSHIM: "on", CODECITE_PROVIDER: "openai" },
    );
    expect(c.model).toBe("llama3.1:8b");
    expect(c.ollamaHost).toBe("http://myhost:9999");
    expect(c.toolshim).toBe("off");
    expect(c.provider).toBe("ollama");
    expect(c.sources).toMatchObject({ model: "flag", ollamaHost: "flag", toolshim: "flag", provider: "flag" });
  });

  it("treats blank variables as unset", () => {
    const c = resolveConfig({}, { CODECITE_MODEL: "  ", OLLAMA_HOST: "", CODECITE_TOOLSHIM: "", CODECITE_PROVIDER: " " });
    expect(c.model).toBeUndefined();
    expect(c.ollamaHost).toBe(DEFAULT_OLLAMA_HOST);
    expect(c.toolshim).toBe("auto");
    expect(c.provider).toBe("ollama");
  });

  it("sends --host to the OpenAI base URL with --provider openai", () => {
    const c = resolveConfig({ provider: "openai", host: "127.0.0.1:8080" }, { OLLAMA_HOST: "h2" });
    expect(c.openai.baseURL).toBe("http://127.0.0.1:8080");
    expect(c.ollamaHost).toBe("http://h2:11434");
  });

  it.each([
    [{}, { CODECITE_TOOLSHIM: "sometimes" }, "CODECITE_TOOLSHIM", "sometimes"],
    [{ toolshim: "always" }, {}, "--toolshim", "always"],
    [{}, { CODECITE_TOOLSHIM_BACKEND: "vllm" }, "CODECITE_TOOLSHIM_BACKEND", "vllm"],
    [{}, { CODECITE_PROVIDER: "anthropic" }, "CODECITE_PROVIDER", "anthropic"],
    [{ provider: "gpt" }, {}, "--provider", "gpt"],
    [{}, { OLLAMA_HOST: "ftp://x" }, "OLLAMA_HOST", "ftp://x"],
    [{ host: "h:abc" }, {}, "--host", "h:abc"],
    [{}, { CODECITE_PROVIDER: "openai" }, "OPENAI_BASE_URL", ""],
    [{}, { CODECITE_PROVIDER: "openai", OPENAI_BASE_URL: "ftp://x" }, "OPENAI_BASE_URL", "ftp://x"],
  ])("flags %j env %j → ConfigError naming %s", (flags, env, variable, value) => {
    const e = configError(() => resolveConfig(flags, env));
    expect(e.variable).toBe(variable);
    expect(e.value).toBe(value);
    expect(e.message).toContain(variable);
    expect(e.accepted.length).toBeGreaterThan(0);
  });

  it("validates the interpreter backend even when the shim is off", () => {
    const e = configError(() => resolveConfig({ toolshim: "off" }, { CODECITE_TOOLSHIM_BACKEND: "gpu" }));
    expect(e.variable).toBe("CODECITE_TOOLSHIM_BACKEND");
  });
});

describe("required settings of the chosen provider", () => {
  it("--provider llama-cpp without a GGUF file names CODECITE_LOCAL_MODEL and says to set it", () => {
    const e = configError(() => resolveConfig({ provider: "llama-cpp" }, {}));
    expect(e.variable).toBe("CODECITE_LOCAL_MODEL");
    expect(e.value).toBe("");
    expect(e.message).toBe("CODECITE_LOCAL_MODEL is not set (required when the provider is llama-cpp); accepted: the path of a .gguf model file");
    expect(e.hint).toBe("Set the CODECITE_LOCAL_MODEL environment variable, or pass --model <file.gguf>.");
  });

  it("--provider llama-cpp takes the file from --model, CODECITE_MODEL or CODECITE_LOCAL_MODEL", () => {
    expect(resolveConfig({ provider: "llama-cpp", model: "/m/a.gguf" }, {}).model).toBe("/m/a.gguf");
    expect(resolveConfig({ provider: "llama-cpp" }, { CODECITE_LOCAL_MODEL: "/m/b.gguf" }).model).toBe("/m/b.gguf");
    expect(resolveConfig({}, { CODECITE_PROVIDER: "llama-cpp", CODECITE_MODEL: "/m/c.gguf" }).model).toBe("/m/c.gguf");
  });

  it("a missing value says it is not set and where to set it, a bad one says Fix or remove", () => {
    // Before: 'invalid OPENAI_BASE_URL="" (required with --provider openai (or set --host)); …' and a hint without --host.
    for (const [flags, env] of [[{ provider: "openai" }, {}], [{}, { CODECITE_PROVIDER: "openai", OPENAI_BASE_URL: " " }]] as const) {
      const missing = configError(() => resolveConfig(flags, env));
      expect(missing.message).toBe("OPENAI_BASE_URL is not set (required when the provider is openai); accepted: an http(s) URL such as http://127.0.0.1:8080/v1");
      expect(missing.hint).toBe("Set the OPENAI_BASE_URL environment variable, or pass --host.");
    }
    // serve takes the address from --upstream.
    expect(configError(() => resolveServeConfig({ provider: "openai" }, {})).hint).toBe("Set the OPENAI_BASE_URL environment variable, or pass --upstream.");
    expect(configError(() => resolveConfig({ toolshim: "always" }, {})).hint).toBe("Fix or remove the --toolshim flag.");
  });

  it("an OpenAI base URL with a bad scheme says why", () => {
    const e = configError(() => resolveConfig({}, { CODECITE_PROVIDER: "openai", OPENAI_BASE_URL: "ftp://x" }));
    expect(e.message).toBe('invalid OPENAI_BASE_URL="ftp://x" (unsupported scheme ftp); accepted: an http(s) URL such as http://127.0.0.1:8080/v1');
  });
});

describe("context size (--num-ctx, CODECITE_NUM_CTX)", () => {
  it.each([
    ["2048", 2048],
    ["8192", 8192],
    [" 16384 ", 16384],
    ["1048576", 1_048_576],
  ])("%j → %d", (raw, tokens) => {
    expect(parseContextTokens(raw)).toBe(tokens);
  });

  it.each([
    ["2047", "below 2048"],
    ["1048577", "above 1048576"],
    ["8k", "not a whole number of tokens"],
    ["8192.5", "not a whole number of tokens"],
    ["-4096", "not a whole number of tokens"],
    ["", "not a whole number of tokens"],
  ])("rejects %j (%s), naming the variable and the accepted range", (raw, why) => {
    const e = configError(() => parseContextTokens(raw));
    expect(e.variable).toBe("CODECITE_NUM_CTX");
    expect(e.value).toBe(raw);
    expect(e.accepted).toEqual(["an integer from 2048 to 1048576 (tokens)"]);
    expect(e.message).toBe(`invalid CODECITE_NUM_CTX=${JSON.stringify(raw)} (${why}); accepted: an integer from 2048 to 1048576 (tokens)`);
  });

  it("is unset by default (the agent's 8192 applies), read from the variable, and beaten by the flag", () => {
    const none = resolveConfig({}, {});
    expect(none.contextTokens).toBeUndefined();
    expect(none.sources.contextTokens).toBe("default");
    const env = resolveConfig({}, { CODECITE_NUM_CTX: "16384" });
    expect(env.contextTokens).toBe(16384);
    expect(env.sources.contextTokens).toBe("env");
    const flag = resolveConfig({ numCtx: "4096" }, { CODECITE_NUM_CTX: "16384" });
    expect(flag.contextTokens).toBe(4096);
    expect(flag.sources.contextTokens).toBe("flag");
    expect(resolveConfig({}, { CODECITE_NUM_CTX: "  " }).contextTokens).toBeUndefined();
  });

  it("a bad value names the variable or the flag it came from", () => {
    const fromEnv = configError(() => resolveConfig({}, { CODECITE_NUM_CTX: "lots" }));
    expect(fromEnv.variable).toBe("CODECITE_NUM_CTX");
    expect(fromEnv.hint).toBe("Fix or remove the CODECITE_NUM_CTX environment variable.");
    const fromFlag = configError(() => resolveConfig({ numCtx: "1024" }, { CODECITE_NUM_CTX: "8192" }));
    expect(fromFlag.variable).toBe("--num-ctx");
    expect(fromFlag.message).toBe('invalid --num-ctx="1024" (below 2048); accepted: an integer from 2048 to 1048576 (tokens)');
    expect(fromFlag.hint).toBe("Fix or remove the --num-ctx flag.");
  });
});
