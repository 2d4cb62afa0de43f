import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { availableParallelism } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, loadConfigFiles, parseConfigFile, userConfigPath } from "../../src/config-file.js";
import { ConfigError, resolveConfig, resolveServeConfig } from "../../src/config.js";
import { runCli } from "../cli/run-cli.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let repo: string;
let home: string;
let env: Record<string, string>;

beforeEach(() => {
  repo = makeTempDir("codecite-cfg-repo-");
  home = makeTempDir("codecite-cfg-home-");
  env = { XDG_CONFIG_HOME: home };
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function userFile(text: string): string {
  const file = path.join(home, "codecite", "config.yml");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

function fileError(fn: () => unknown): ConfigFileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigFileError);
    return e as ConfigFileError;
  }
  throw new Error("expected a ConfigFileError");
}

describe("configuration file locations", () => {
  it("the user file is under $XDG_CONFIG_HOME, else ~/.config", () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: "/x/conf", HOME: "/home/u" })).toBe("/x/conf/codecite/config.yml");
    expect(userConfigPath({ HOME: "/home/u" })).toBe("/home/u/.config/codecite/config.yml");
    // A relative XDG_CONFIG_HOME is invalid per the XDG Base Directory spec and ignored.
    expect(userConfigPath({ XDG_CONFIG_HOME: "rel", HOME: "/home/u" })).toBe("/home/u/.config/codecite/config.yml");
  });

  it("missing files are simply absent", () => {
    const files = loadConfigFiles(repo, env);
    expect(files.repo).toBeUndefined();
    expect(files.user).toBeUndefined();
    expect(files.paths).toEqual({ repo: path.join(repo, ".codecite.yml"), user: path.join(home, "codecite", "config.yml") });
  });
});

describe("precedence: flags > environment > repository file > user file > defaults", () => {
  it("each layer wins over the ones below it, and the source says which", () => {
    userFile("model: user-model\ntoolshim: off\nnum_ctx: 4096\nmax_steps: 3\nprefetch: false\n");
    putFile(repo, ".codecite.yml", "model: repo-model\ntoolshim: on\n");
    const files = loadConfigFiles(repo, env);

    const fromFiles = resolveConfig({}, env, files);
    expect(fromFiles.model).toBe("repo-model");
    expect(fromFiles.toolshim).toBe("on");
    expect(fromFiles.contextTokens).toBe(4096);
    expect(fromFiles.maxSteps).toBe(3);
    expect(fromFiles.prefetch).toBe(false);
    expect(fromFiles.sources).toMatchObject({ model: "repo_file", toolshim: "repo_file", contextTokens: "user_file", maxSteps: "user_file", prefetch: "user_file", provider: "default" });
    expect(fromFiles.origins.model).toEqual({ file: path.join(repo, ".codecite.yml"), line: 1 });
    expect(fromFiles.origins.contextTokens).toEqual({ file: path.join(home, "codecite", "config.yml"), line: 3 });

    const fromEnv = resolveConfig({}, { ...env, CODECITE_MODEL: "env-model", CODECITE_NUM_CTX: "16384" }, files);
    expect(fromEnv.model).toBe("env-model");
    expect(fromEnv.contextTokens).toBe(16384);
    expect(fromEnv.sources).toMatchObject({ model: "env", contextTokens: "env", toolshim: "repo_file" });

    const fromFlags = resolveConfig({ model: "flag-model", toolshim: "auto", maxSteps: "5" }, { ...env, CODECITE_MODEL: "env-model" }, files);
    expect(fromFlags.model).toBe("flag-model");
    expect(fromFlags.toolshim).toBe("auto");
    expect(fromFlags.maxSteps).toBe(5);
    expect(fromFlags.sources).toMatchObject({ model: "flag", toolshim: "flag", maxSteps: "flag" });

    const none = resolveConfig({}, {}, undefined);
    expect(none).toMatchObject({ toolshim: "auto", prefetch: true });
    expect(none.maxSteps).toBeUndefined();
    expect(none.sources.maxSteps).toBe("default");
  });

  it("the user file may choose the server; the environment still beats it", () => {
    userFile("provider: ollama\nhost: 10.0.0.5\n");
    const files = loadConfigFiles(repo, env);
    expect(resolveConfig({}, env, files).ollamaHost).toBe("http://10.0.0.5:11434");
    expect(resolveConfig({}, { ...env, OLLAMA_HOST: "127.0.0.1:9" }, files).ollamaHost).toBe("http://127.0.0.1:9");
  });
});

describe("errors name the file and the line", () => {
  it("an unknown key", () => {
    putFile(repo, ".codecite.yml", "model: qwen3:8b\n\ncolour: blue\n");
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.file).toBe(path.join(repo, ".codecite.yml"));
    expect(e.line).toBe(3);
    expect(e.message).toBe(`${path.join(repo, ".codecite.yml")}:3: unknown key "colour"; accepted: model, toolshim, num_ctx, max_steps, prefetch`);
  });

  it("a misspelt key gets the closest accepted keys; serve is only the parent of serve.*", () => {
    const file = path.join(home, "codecite", "config.yml");
    userFile("serve:\n  prot: 8080\n");
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.line).toBe(2);
    expect(e.message).toBe(
      `${file}:2: unknown key "serve.prot"; did you mean serve.port? accepted: model, toolshim, num_ctx, max_steps, prefetch, max_calls_per_turn, timeout, provider, host, toolshim_backend, toolshim_ollama_model, toolshim_model, local_model, serve.port, serve.listen, serve.upstream, serve.provider, serve.workers`,
    );
    expect(e.hint).toBe(`Rename "serve.prot" to serve.port (or remove it) in ${file}.`);
    userFile("max_step: 4\n");
    expect(fileError(() => loadConfigFiles(repo, env)).message).toContain('unknown key "max_step"; did you mean max_steps? accepted:');
    // serve with a value of its own: it holds the serve.* keys.
    userFile("serve: 8080\n");
    const bare = fileError(() => loadConfigFiles(repo, env));
    expect(bare.message).toBe(`${file}:1: serve holds its settings indented below it (port, listen, upstream, provider, workers), not a value of its own`);
  });

  it("a bad value, with the flag's message", () => {
    userFile("# mine\ntoolshim: sometimes\n");
    const files = loadConfigFiles(repo, env);
    let flagMessage = "";
    try {
      resolveConfig({ toolshim: "sometimes" }, {});
    } catch (err) {
      flagMessage = (err as ConfigError).message;
    }
    expect(flagMessage).toBe('invalid --toolshim="sometimes"; accepted: auto, 1, true, yes, on, 0, false, no, off');
    const e = fileError(() => resolveConfig({}, env, files));
    expect(e.line).toBe(2);
    // The value as the file reads (`toolshim: "sometimes"`), not as a variable would.
    expect(e.message).toBe(`${path.join(home, "codecite", "config.yml")}:2: invalid toolshim: "sometimes"; accepted: auto, 1, true, yes, on, 0, false, no, off`);
    expect(e.hint).toBe(`Fix or remove toolshim in ${path.join(home, "codecite", "config.yml")}.`);
  });

  it("a number out of range is shown as the file writes it: a number without quotes, text in quotes", () => {
    putFile(repo, ".codecite.yml", "max_steps: 500\n");
    const e = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(e.message).toBe(`${path.join(repo, ".codecite.yml")}:1: invalid max_steps: 500; accepted: an integer from 1 to 100`);
    const user = userFile('num_ctx: 4096.5\nmax_steps: "0"\nprefetch: 3\n');
    putFile(repo, ".codecite.yml", "num_ctx: 8k\n");
    expect(fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env))).lines().slice(1)).toEqual([
      `  ${user}:1: invalid num_ctx: 4096.5 (not a whole number of tokens); accepted: an integer from 2048 to 1048576 (tokens)`,
      `  ${user}:2: invalid max_steps: "0"; accepted: an integer from 1 to 100`,
      `  ${user}:3: invalid prefetch: 3; accepted: 1, true, yes, on, 0, false, no, off`,
      `  ${path.join(repo, ".codecite.yml")}:1: invalid num_ctx: "8k" (not a whole number of tokens); accepted: an integer from 2048 to 1048576 (tokens)`,
    ]);
  });

  it("a repository file may lower num_ctx and max_steps, never raise them above the user's value or the default", () => {
    const repoFile = path.join(repo, ".codecite.yml");
    // Lower than the defaults (8192 tokens, 8 steps): taken.
    putFile(repo, ".codecite.yml", "num_ctx: 4096\nmax_steps: 3\n");
    const lower = resolveConfig({}, env, loadConfigFiles(repo, env));
    expect([lower.contextTokens, lower.maxSteps, lower.sources.contextTokens]).toEqual([4096, 3, "repo_file"]);
    // Higher than the defaults: a problem naming the file and line, as an invalid value is.
    putFile(repo, ".codecite.yml", "num_ctx: 1048576\nmax_steps: 100\n");
    const e = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(e.lines().slice(1)).toEqual([
      `  ${repoFile}:1: num_ctx: 1048576 is above what a repository file may set (8192, the default)`,
      `  ${repoFile}:2: max_steps: 100 is above what a repository file may set (8, the default)`,
    ]);
    expect(e.hint).toBe(`Remove num_ctx and max_steps in ${repoFile}.`);
    // The user's own value is the bound when the user file sets one.
    userFile("num_ctx: 32768\nmax_steps: 20\n");
    putFile(repo, ".codecite.yml", "num_ctx: 16384\nmax_steps: 20\n");
    const within = resolveConfig({}, env, loadConfigFiles(repo, env));
    expect([within.contextTokens, within.maxSteps, within.sources.maxSteps]).toEqual([16384, 20, "repo_file"]);
    putFile(repo, ".codecite.yml", "num_ctx: 65536\n");
    const raised = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(raised.message).toBe(`${repoFile}:1: num_ctx: 65536 is above what a repository file may set (32768, your user file's value)`);
    expect(raised.hint).toBe(`A repository may lower num_ctx, not raise it: remove it from ${repoFile}, or set it in your user file or with a flag.`);
    // A flag or the environment is the user's own choice: the repository file is then not read for it.
    const flagged = resolveConfig({ numCtx: "131072" }, env, loadConfigFiles(repo, env));
    expect([flagged.contextTokens, flagged.sources.contextTokens]).toEqual([131072, "flag"]);
  });

  it("YAML that does not parse, a list at the top, a nested value", () => {
    // A syntax error in plain words, with its line and column; only the first (the rest are its echoes).
    const syntax = (text: string): string => fileError(() => parseConfigFile(text, "/f.yml", "user")).message;
    expect(syntax("model: [a\n")).toBe("/f.yml: YAML syntax error at line 2, column 1: a list opened with [ is not closed with ]");
    expect(syntax("model: a\n  bad: : yaml\n")).toBe(
      '/f.yml: YAML syntax error at line 1, column 8: a value runs on into another "key: value", on its line or on an indented line below it (is a line indented by mistake, or does a value hold ": " without quotes?)',
    );
    expect(syntax("model: x\n\tnum_ctx: 4\n")).toBe("/f.yml: YAML syntax error at line 2, column 1: a tab indents this line; YAML indents with spaces only");
    expect(syntax('model: "x\n')).toBe("/f.yml: YAML syntax error at line 2, column 1: a quoted value has no closing quote");
    expect(syntax("model: x\nnum_ctx 4\n")).toBe('/f.yml: YAML syntax error at line 2, column 1: a line is not "key: value" (a key, a colon and a space, then the value)');
    expect(syntax("model: @x\n")).toBe("/f.yml: YAML syntax error at line 1, column 8: a value starts with a character YAML reserves (such as @, ` or %); put the value in quotes");
    expect(syntax('model: "\\q"\n')).toBe("/f.yml: YAML syntax error at line 1, column 9: a double-quoted value holds an unknown \\ escape; write \\\\ for a backslash, or use single quotes");
    // The hint names the line to look at (the mistake may be the line next to it: an unclosed [ is found at the end) and how to check.
    expect(fileError(() => parseConfigFile("model: [a\n", "/f.yml", "user"))).toMatchObject({ line: 2, hint: "Fix line 2 of /f.yml or a line next to it, then check it with `codecite config`." });
    expect(fileError(() => parseConfigFile("model: a\n  bad: : yaml\n", "/f.yml", "user")).hint).toBe("Fix line 1 of /f.yml or a line next to it, then check it with `codecite config`.");
    expect(fileError(() => parseConfigFile("- a\n- b\n", "/f.yml", "user"))).toMatchObject({
      message: "/f.yml:1: the file must be a mapping of keys to values (key: value)",
      hint: 'Write /f.yml as one "key: value" a line, e.g. "model: qwen3:8b".',
    });
    expect(fileError(() => parseConfigFile("model:\n  name: x\n", "/f.yml", "user")).message).toBe(
      "/f.yml:2: model needs a single value (text, number or true/false)",
    );
    expect(fileError(() => parseConfigFile("model: a\nmodel: b\n", "/f.yml", "user")).message).toBe('/f.yml:2: "model" appears twice (first on line 1)');
  });

  it("every bad key is reported, each with its file and line, in one error", () => {
    const file = path.join(repo, ".codecite.yml");
    putFile(repo, ".codecite.yml", "model: qwen3:8b\ncolour: blue\nhost: evil.example.com\nmax_step: 4\nprefetch:\n  - a\nserve:\n  port: 1\n");
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.problems.map((p) => [p.file, p.line])).toEqual([[file, 2], [file, 3], [file, 4], [file, 6], [file, 7]]);
    expect(e.message.split("\n")).toEqual([
      `5 problems in ${file}:`,
      `  ${file}:2: unknown key "colour"; accepted: model, toolshim, num_ctx, max_steps, prefetch`,
      `  ${file}:3: host is not accepted in a repository file (a repository cannot choose servers, addresses or model files)`,
      `  ${file}:4: unknown key "max_step"; did you mean max_steps? accepted: model, toolshim, num_ctx, max_steps, prefetch`,
      `  ${file}:6: prefetch needs a single value (text, number or true/false)`,
      `  ${file}:7: serve settings are not accepted in a repository file (a repository cannot choose addresses or servers)`,
    ]);
    expect(e.file).toBe(file);
    expect(e.line).toBe(2);
    // One hint sentence for the file, naming it once.
    expect(e.hint).toBe(`In ${file}: remove or rename "colour"; remove host and serve; rename "max_step" to max_steps; fix prefetch.`);
    // Two keys that appear twice: both lines.
    expect(fileError(() => parseConfigFile("model: a\nmodel: b\ntoolshim: on\ntoolshim: off\n", "/f.yml", "user")).problems.map((p) => p.line)).toEqual([2, 4]);
  });

  it("a file of thousands of bad keys: the message lists 20 of them and how many more, the hint those 20's", () => {
    // A hostile repository's 64 KiB .codecite.yml of unknown keys (k0: 1 … k7345: 1): before, every
    // command in it printed a 747,109-character error and a 336,805-character hint.
    let text = "";
    for (let i = 0; text.length < 65_000; i++) text += `k${i}: 1\n`;
    const keys = text.split("\n").length - 1;
    const e = fileError(() => parseConfigFile(text, "/r/.codecite.yml", "repo"));
    expect(e.problems).toHaveLength(keys);
    const lines = e.message.split("\n");
    expect(lines).toHaveLength(22);
    expect(lines[0]).toBe(`${keys} problems in /r/.codecite.yml:`);
    expect(lines[1]).toBe('  /r/.codecite.yml:1: unknown key "k0"; accepted: model, toolshim, num_ctx, max_steps, prefetch');
    expect(lines[20]).toBe('  /r/.codecite.yml:20: unknown key "k19"; accepted: model, toolshim, num_ctx, max_steps, prefetch');
    expect(lines[21]).toBe(`  … and ${keys - 20} more problems (fix these, then run again to see them)`);
    expect(e.lines()).toEqual(lines);
    expect(e.hint).toBe(`Remove or rename ${Array.from({ length: 19 }, (_, i) => `"k${i}"`).join(", ")} and "k19" in /r/.codecite.yml.`);
    expect(e.message.length).toBeLessThan(3_000);
    // 21 problems: the 21st is counted, not listed.
    const e21 = fileError(() => parseConfigFile(text.split("\n").slice(0, 21).join("\n"), "/r/.codecite.yml", "repo"));
    expect(e21.message.split("\n").at(-1)).toBe("  … and 1 more problem (fix these, then run again to see them)");
  });

  it("brackets nested tens of thousands deep: a ConfigFileError at the line where they pass 32, not the end of the process", () => {
    // Before, the YAML parser's recursion over 65,000 `{` ended the test process in V8
    // ("RegExpCompiler Allocation failed - process out of memory").
    for (const [text, line] of [["{".repeat(65_000), 1], ["model: a\nserve:\n  x: [" + "[a, ".repeat(16_000), 3], ["a: {\n".repeat(40), 33]] as const) {
      const e = fileError(() => parseConfigFile(text, "/r/.codecite.yml", "repo"));
      expect(e.problems).toHaveLength(1);
      expect(e.line).toBe(line);
      expect(e.message).toBe(`/r/.codecite.yml: brackets ([ ] { }) nested more than 32 deep at line ${line}`);
    }
    // Brackets in values, balanced or a few: read as before.
    expect(parseConfigFile('model: "a{b}[c]"\ntoolshim: on # {[\n', "/r/.codecite.yml", "repo").settings.get("model")?.raw).toBe("a{b}[c]");
  });

  it("a key that appears twice is listed with the file's other problems, in file order, in the serve mapping too", () => {
    // Before, the parser's duplicate check (uniqueKeys) stopped the file before its keys were checked.
    const e = fileError(() => parseConfigFile("model: a\ncolour: x\nmodel: b\nserve:\n  port: 1\n  port: 2\nmax_step: 3\n", "/u.yml", "user"));
    expect(e.problems.map((p) => [p.line, p.message.split(";")[0]])).toEqual([
      [2, 'unknown key "colour"'],
      [3, '"model" appears twice (first on line 1)'],
      [6, '"serve.port" appears twice (first on line 5)'],
      [7, 'unknown key "max_step"'],
    ]);
    // The same key spelt as a quoted string is the same key.
    const quoted = fileError(() => parseConfigFile('model: a\n"model": b\n', "/u.yml", "user"));
    expect(quoted.message).toBe('/u.yml:2: "model" appears twice (first on line 1)');
    expect(quoted.hint).toBe('Keep one "model" in /u.yml.');
  });

  it("keys named like Object.prototype's members are unknown keys, in either file", () => {
    // Before, a user file's toString/constructor/__proto__ became settings without a word, and a
    // repository file's toString was "not accepted in a repository file … set it with undefined".
    const user = fileError(() => parseConfigFile("toString: 1\nconstructor: 2\n__proto__: 3\nhasOwnProperty: x\n", "/u.yml", "user"));
    expect(user.problems.map((p) => [p.line, p.message.split(";")[0]])).toEqual([
      [1, 'unknown key "toString"'],
      [2, 'unknown key "constructor"'],
      [3, 'unknown key "__proto__"'],
      [4, 'unknown key "hasOwnProperty"'],
    ]);
    const repo = fileError(() => parseConfigFile("model: m\ntoString: 1\n", "/r/.codecite.yml", "repo"));
    expect(repo.message).toBe('/r/.codecite.yml:2: unknown key "toString"; accepted: model, toolshim, num_ctx, max_steps, prefetch');
    expect(repo.hint).toBe('Remove or rename "toString" in /r/.codecite.yml.');
    expect(fileError(() => parseConfigFile("serve:\n  constructor: 1\n", "/u.yml", "user")).message).toContain('unknown key "serve.constructor"');
  });

  it("bad keys in the user file and the repository file are reported together", () => {
    const user = userFile("num_ctxx: 4096\n");
    putFile(repo, ".codecite.yml", "model: m\nprovider: openai\n");
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.problems.map((p) => `${p.file}:${p.line}`)).toEqual([`${user}:1`, `${path.join(repo, ".codecite.yml")}:2`]);
    expect(e.message.split("\n")[0]).toBe(`2 problems in ${user} and ${path.join(repo, ".codecite.yml")}:`);
  });

  it("a bad value shadowed by the repository file's is reported with the other bad values, in one round", () => {
    const user = userFile("num_ctx: 5\nmax_steps: 0\nprovider: openai\nhost: ftp://nowhere\n");
    const repoFile = path.join(repo, ".codecite.yml");
    putFile(repo, ".codecite.yml", "model: x\nnum_ctx: 100\n");
    const e = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    // Before, the user's num_ctx (below the repository's) was reported only once the repository file was fixed.
    expect(e.problems.map((p) => [p.file, p.line, p.message.split(";")[0]])).toEqual([
      [user, 1, "invalid num_ctx: 5 (below 2048)"],
      [user, 2, "invalid max_steps: 0"],
      [user, 4, 'invalid host: "ftp://nowhere" (unsupported scheme ftp)'],
      [repoFile, 2, "invalid num_ctx: 100 (below 2048)"],
    ]);
    // Precedence is unchanged: the repository file beats a good user file (lowering it: a repository
    // may not raise it), a flag or variable beats both and, above a file it cannot edit, is no error
    // (the values below it are not read).
    userFile("num_ctx: 4096\nmax_steps: 3\n");
    putFile(repo, ".codecite.yml", "num_ctx: 2048\n");
    expect(resolveConfig({}, env, loadConfigFiles(repo, env))).toMatchObject({ contextTokens: 2048, maxSteps: 3, sources: { contextTokens: "repo_file", maxSteps: "user_file" } });
    putFile(repo, ".codecite.yml", "num_ctx: 100\n");
    expect(resolveConfig({ numCtx: "2048" }, env, loadConfigFiles(repo, env))).toMatchObject({ contextTokens: 2048, sources: { contextTokens: "flag" } });
    expect(resolveConfig({}, { ...env, CODECITE_NUM_CTX: "16384" }, loadConfigFiles(repo, env))).toMatchObject({ contextTokens: 16384, sources: { contextTokens: "env" } });
  });

  it("an empty file and a file of comments set nothing", () => {
    expect(parseConfigFile("", "/f.yml", "repo").settings.size).toBe(0);
    expect(parseConfigFile("# nothing\n", "/f.yml", "repo").settings.size).toBe(0);
  });
});

describe("a repository file is untrusted", () => {
  it.each([
    ["host: evil.example.com\n", "host"],
    ["provider: openai\n", "provider"],
    ["toolshim_ollama_model: x\n", "toolshim_ollama_model"],
    ["local_model: /tmp/x.gguf\n", "local_model"],
  ])("refuses %j", (text, key) => {
    putFile(repo, ".codecite.yml", `model: m\n${text}`);
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.line).toBe(2);
    expect(e.message).toContain(`${key} is not accepted in a repository file`);
  });

  it("refuses serve settings", () => {
    putFile(repo, ".codecite.yml", "serve:\n  upstream: http://evil.example.com\n");
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.line).toBe(1);
    expect(e.message).toContain("serve settings are not accepted in a repository file");
  });

  it("a model from the repository file is not used as a GGUF path for llama-cpp", () => {
    putFile(repo, ".codecite.yml", "model: ../../evil.gguf\n");
    const files = loadConfigFiles(repo, env);
    expect(() => resolveConfig({ provider: "llama-cpp" }, env, files)).toThrow(/CODECITE_LOCAL_MODEL/);
  });

  it("is not read through a symbolic link, and never quotes the target", () => {
    const secret = path.join(home, "secret.txt");
    writeFileSync(secret, "api_key: sk-very-secret\n");
    symlinkSync(secret, path.join(repo, ".codecite.yml"));
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.message).toContain("is a symbolic link");
    expect(e.message).not.toContain("sk-very-secret");
  });

  it("is not read when it has another name (a hard link: it may be a file outside the repository), and never quotes it", () => {
    const secret = path.join(home, "secret.yml");
    writeFileSync(secret, "model: sk-very-secret\n");
    linkSync(secret, path.join(repo, ".codecite.yml"));
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.message).toBe(`${path.join(repo, ".codecite.yml")}: has 2 hard links; a repository's configuration file must be a file of its own`);
    expect(e.hint).toBe("Replace it by a copy, or set CODECITE_ALLOW_HARD_LINKS=1.");
    // As the workspace does, CODECITE_ALLOW_HARD_LINKS=1 allows it.
    expect(loadConfigFiles(repo, { ...env, CODECITE_ALLOW_HARD_LINKS: "1" }).repo?.settings.get("model")?.raw).toBe("sk-very-secret");
  });
});

describe("serve settings", () => {
  it("port, listen and upstream from the user file; flags beat them", () => {
    userFile("serve:\n  port: 12000\n  upstream: 127.0.0.1:11500\n");
    const files = loadConfigFiles(repo, env);
    const s = resolveServeConfig({}, env, files);
    expect(s).toMatchObject({ port: 12000, listen: "127.0.0.1" });
    expect(s.upstream.ollamaHost).toBe("http://127.0.0.1:11500");
    expect(s.upstream.sources.ollamaHost).toBe("user_file");
    expect(resolveServeConfig({ port: "13000", upstream: "127.0.0.1:9" }, env, files)).toMatchObject({ port: 13000, upstream: { ollamaHost: "http://127.0.0.1:9" } });
  });

  it("serve's worker count: --workers over the user file's serve.workers over the default (2 with two cores or more, else 1)", () => {
    expect(resolveServeConfig({}, env, loadConfigFiles(repo, env))).toMatchObject({ workers: availableParallelism() >= 2 ? 2 : 1, sources: { workers: "default" } });
    userFile("serve:\n  workers: 3\n");
    const files = loadConfigFiles(repo, env);
    expect(resolveServeConfig({}, env, files)).toMatchObject({ workers: 3, sources: { workers: "user_file" } });
    expect(resolveServeConfig({ workers: "1" }, env, files)).toMatchObject({ workers: 1, sources: { workers: "flag" } });
    // A repository file may not set it (it is under serve:).
    putFile(repo, ".codecite.yml", "serve:\n  workers: 8\n");
    expect(fileError(() => loadConfigFiles(repo, env)).problems.map((p) => p.line)).toEqual([1]);
  });

  it("every bad serve value of the user file is reported with the others, each with its line (not as a flag)", () => {
    const user = userFile('num_ctx: 5\nserve:\n  port: abc\n  listen: "!!"\n  upstream: "http://[bad"\n');
    const e = fileError(() => resolveServeConfig({}, env, loadConfigFiles(repo, env)));
    // Before: only 'invalid --upstream="http://[bad"', with the hint to fix a flag that was never given.
    expect(e.problems.map((p) => [p.line, p.message.split(";")[0]])).toEqual([
      [1, "invalid num_ctx: 5 (below 2048)"],
      [3, 'invalid serve.port: "abc"'],
      [4, 'invalid serve.listen: "!!"'],
      [5, 'invalid serve.upstream: "http://[bad" (unclosed [)'],
    ]);
    expect(e.problems.every((p) => p.file === user)).toBe(true);
    // A provider serve cannot forward to, from a file, is named with its file and line too.
    userFile("serve:\n  provider: llama-cpp\n");
    expect(fileError(() => resolveServeConfig({}, env, loadConfigFiles(repo, env))).message).toBe(
      `${user}:2: invalid serve.provider: "llama-cpp" (serve forwards to a server); accepted: ollama, openai`,
    );
    // serve's own settings beat the general ones, whose bad values below them are still reported.
    userFile("provider: nope\nserve:\n  provider: openai\n  upstream: http://127.0.0.1:8000/v1\n");
    expect(fileError(() => resolveServeConfig({}, env, loadConfigFiles(repo, env))).problems.map((p) => p.line)).toEqual([1]);
    userFile("provider: ollama\nserve:\n  provider: openai\n  upstream: http://127.0.0.1:8000/v1\n");
    expect(resolveServeConfig({}, { ...env, CODECITE_PROVIDER: "ollama", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }, loadConfigFiles(repo, env)).upstream).toMatchObject({
      provider: "openai",
      openai: { baseURL: "http://127.0.0.1:8000/v1" },
      sources: { provider: "user_file", openaiBaseURL: "user_file" },
      origins: { provider: { file: user, line: 3 }, openaiBaseURL: { file: user, line: 4 } },
    });
  });

  it("a non-loopback listen address needs a token, which is never echoed", () => {
    expect(() => resolveServeConfig({ listen: "0.0.0.0" }, {})).toThrow(/listening beyond this machine needs a token/);
    expect(resolveServeConfig({ listen: "0.0.0.0", token: "abcdefghijklmnop" }, {}).token).toBe("abcdefghijklmnop");
    expect(resolveServeConfig({ listen: "::1" }, {}).token).toBeUndefined();
    let message = "";
    try {
      resolveServeConfig({ token: "short-secret" }, {});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('invalid --token="(hidden)"; accepted: a token of at least 16 characters');
  });
});

describe("session bounds: max_calls_per_turn and timeout (user file only)", () => {
  it("layers flag > environment > user file, each with its source and the file line", () => {
    const file = userFile("# bounds\nmax_calls_per_turn: 4\ntimeout: 120\n");
    const files = loadConfigFiles(repo, env);
    const fromFile = resolveConfig({}, env, files);
    expect(fromFile).toMatchObject({ maxCallsPerTurn: 4, timeoutSeconds: 120 });
    expect(fromFile.sources).toMatchObject({ maxCallsPerTurn: "user_file", timeoutSeconds: "user_file" });
    expect(fromFile.origins).toMatchObject({ maxCallsPerTurn: { file, line: 2 }, timeoutSeconds: { file, line: 3 } });
    const fromEnv = resolveConfig({}, { ...env, CODECITE_MAX_CALLS_PER_TURN: "8", CODECITE_TIMEOUT: "30" }, files);
    expect(fromEnv).toMatchObject({ maxCallsPerTurn: 8, timeoutSeconds: 30, sources: { maxCallsPerTurn: "env", timeoutSeconds: "env" } });
    const fromFlags = resolveConfig({ maxCallsPerTurn: "2", timeout: "5" }, { ...env, CODECITE_MAX_CALLS_PER_TURN: "8", CODECITE_TIMEOUT: "30" }, files);
    expect(fromFlags).toMatchObject({ maxCallsPerTurn: 2, timeoutSeconds: 5, sources: { maxCallsPerTurn: "flag", timeoutSeconds: "flag" } });
    // A blank variable counts as unset: the file's value stands.
    expect(resolveConfig({}, { ...env, CODECITE_TIMEOUT: " " }, files)).toMatchObject({ timeoutSeconds: 120, sources: { timeoutSeconds: "user_file" } });
    const none = resolveConfig({}, env);
    expect(none.maxCallsPerTurn).toBeUndefined();
    expect(none.timeoutSeconds).toBeUndefined();
    expect(none.sources).toMatchObject({ maxCallsPerTurn: "default", timeoutSeconds: "default" });
  });

  it.each([
    ["max_calls_per_turn: 8\n", "max_calls_per_turn"],
    ["timeout: 86400\n", "timeout"],
  ])("a repository file may not set %j", (text, key) => {
    putFile(repo, ".codecite.yml", `model: m\n${text}`);
    const e = fileError(() => loadConfigFiles(repo, env));
    expect(e.line).toBe(2);
    expect(e.message).toBe(
      `${path.join(repo, ".codecite.yml")}:2: ${key} is not accepted in a repository file (a repository cannot set how long or how hard a question runs on your machine)`,
    );
    expect(e.hint).toBe(`Remove ${key} from ${path.join(repo, ".codecite.yml")}; set it with ${key === "timeout" ? "--timeout" : "--max-calls-per-turn"}, its environment variable or your user configuration file.`);
  });

  it("a bad value is a typed error naming the flag, the variable, or the file and line", () => {
    const configError = (fn: () => unknown): ConfigError => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return e as ConfigError;
      }
      throw new Error("expected a ConfigError");
    };
    const flag = configError(() => resolveConfig({ timeout: "10m" }, {}));
    expect(flag).toMatchObject({ variable: "--timeout", value: "10m", accepted: ["an integer from 1 to 86400 (seconds)"] });
    expect(flag.message).toBe('invalid --timeout="10m"; accepted: an integer from 1 to 86400 (seconds)');
    expect(configError(() => resolveConfig({ timeout: "86401" }, {})).message).toBe('invalid --timeout="86401"; accepted: an integer from 1 to 86400 (seconds)');
    const variable = configError(() => resolveConfig({}, { CODECITE_MAX_CALLS_PER_TURN: "0" }));
    expect(variable.message).toBe('invalid CODECITE_MAX_CALLS_PER_TURN="0"; accepted: an integer from 1 to 1000 (tool calls)');
    expect(variable.hint).toBe("Fix or remove the CODECITE_MAX_CALLS_PER_TURN environment variable.");
    expect(configError(() => resolveConfig({ maxCallsPerTurn: "2.5" }, {})).message).toBe('invalid --max-calls-per-turn="2.5"; accepted: an integer from 1 to 1000 (tool calls)');

    const file = userFile("max_calls_per_turn: 1001\ntimeout: -5\n");
    const e = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(e.line).toBe(1);
    // Both bad values, each with its line (before, only the first).
    expect(e.problems.map((p) => `${p.line}: ${p.message}`)).toEqual([
      "1: invalid max_calls_per_turn: 1001; accepted: an integer from 1 to 1000 (tool calls)",
      "2: invalid timeout: -5; accepted: an integer from 1 to 86400 (seconds)",
    ]);
    expect(e.hint).toBe(`Fix or remove max_calls_per_turn and timeout in ${file}.`);
    const one = userFile("max_calls_per_turn: 1001\n");
    const e1 = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(e1.message).toBe(`${one}:1: invalid max_calls_per_turn: 1001; accepted: an integer from 1 to 1000 (tool calls)`);
    expect(e1.hint).toBe(`Fix or remove max_calls_per_turn in ${one}.`);
    userFile("max_calls_per_turn: 1001\ntimeout: -5\n");
    // Bad values of both files at once: the user file's, then the repository file's, in line
    // order; a host is not judged when the provider beside it is bad (it is read as the provider says).
    const user = userFile("provider: nope\nhost: http://127.0.0.1:8000/v1\nnum_ctx: 12\n");
    const repoFile = path.join(repo, ".codecite.yml");
    putFile(repo, ".codecite.yml", "toolshim: maybe\nmax_steps: 0\n");
    const both = fileError(() => resolveConfig({}, env, loadConfigFiles(repo, env)));
    expect(both.problems.map((p) => [p.file, p.line, p.message.split(";")[0]])).toEqual([
      [user, 1, 'invalid provider: "nope"'],
      [user, 3, "invalid num_ctx: 12 (below 2048)"],
      [repoFile, 1, 'invalid toolshim: "maybe"'],
      [repoFile, 2, "invalid max_steps: 0"],
    ]);
    // One hint sentence per file.
    expect(both.hint).toBe(`Fix or remove provider and num_ctx in ${user}. Fix or remove toolshim and max_steps in ${repoFile}.`);
    rmSync(repoFile);
    userFile("max_calls_per_turn: 1001\ntimeout: -5\n");
    // A flag over a bad file value: the file's value is never read, so it is no error.
    expect(resolveConfig({ maxCallsPerTurn: "3", timeout: "9" }, env, loadConfigFiles(repo, env))).toMatchObject({ maxCallsPerTurn: 3, timeoutSeconds: 9 });
  });
});

describe("codecite config", () => {
  it("--json prints each setting with its source and file line; secrets are not shown", async () => {
    userFile("num_ctx: 4096\nserve:\n  port: 12001\n");
    putFile(repo, ".codecite.yml", "model: repo-model\n");
    const r = await runCli(["config", "--root", repo, "--json"], {
      env: { XDG_CONFIG_HOME: home, CODECITE_TOOLSHIM: "on", OPENAI_API_KEY: "sk-secret-value", CODECITE_SERVE_TOKEN: "a-token-of-sixteen-chars" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("sk-secret-value");
    expect(r.stdout).not.toContain("a-token-of-sixteen-chars");
    const out = JSON.parse(r.stdout) as { settings: Record<string, unknown>; files: unknown };
    expect(out.settings.model).toEqual({ value: "repo-model", source: "repo_file", file: path.join(repo, ".codecite.yml"), line: 1 });
    expect(out.settings.num_ctx).toEqual({ value: 4096, source: "user_file", file: path.join(home, "codecite", "config.yml"), line: 1 });
    expect(out.settings.toolshim).toEqual({ value: "on", source: "env" });
    // An unset session bound shows the value ask and chat use (README "Configuration"), not null ("no limit").
    expect(out.settings.max_steps).toEqual({ value: 8, source: "default" });
    expect(out.settings.max_calls_per_turn).toEqual({ value: 16, source: "default" });
    expect(out.settings.timeout).toEqual({ value: 600, source: "default" });
    expect(out.settings.openai_api_key).toEqual({ value: "(set)", source: "env" });
    expect(out.settings["serve.port"]).toEqual({ value: 12001, source: "user_file" });
    expect(out.settings["serve.token"]).toEqual({ value: "(set)", source: "env" });
    expect(out.files).toEqual({
      repo: { path: path.join(repo, ".codecite.yml"), found: true },
      user: { path: path.join(home, "codecite", "config.yml"), found: true },
    });
  });

  it("shows the session bounds with their sources (user file, environment)", async () => {
    const file = userFile("timeout: 120\nmax_calls_per_turn: 3\n");
    const cliEnv = { XDG_CONFIG_HOME: home, CODECITE_MAX_CALLS_PER_TURN: "5" };
    const r = await runCli(["config", "--root", repo, "--json"], { env: cliEnv });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { settings: Record<string, unknown> };
    expect(out.settings.timeout).toEqual({ value: 120, source: "user_file", file, line: 1 });
    expect(out.settings.max_calls_per_turn).toEqual({ value: 5, source: "env" });
    const human = await runCli(["config", "--root", repo], { env: cliEnv });
    // The name column is as wide as the longest name, max_calls_per_turn.
    expect(human.stdout.split("\n")).toContain(`timeout${" ".repeat(11)}  120  (user file ${file}:1)`);
    expect(human.stdout.split("\n")).toContain("max_calls_per_turn  5  (environment)");
    expect(human.stdout.split("\n")).toContain(`num_ctx${" ".repeat(11)}  8192  (default)`);
    expect(human.stdout.split("\n")).toContain(`max_steps${" ".repeat(9)}  8  (default)`);
  });

  it("a repository file with several bad keys: the command names every one with its line", async () => {
    const file = path.join(repo, ".codecite.yml");
    putFile(repo, ".codecite.yml", "colour: blue\nmodel: m\nhost: evil.example.com\n");
    const r = await runCli(["config", "--root", repo], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(2);
    const lines = r.stderr.split("\n");
    expect(lines).toContain(`codecite: error: 2 problems in ${file}:`);
    expect(lines.filter((l) => l.startsWith(`  ${file}:`)).map((l) => l.slice(2 + file.length).split(" ")[0])).toEqual([":1:", ":3:"]);
  });

  it("a setting only serve refuses: every setting is printed, the refused one flagged with serve's own fix, exit 0", async () => {
    const env = { XDG_CONFIG_HOME: home, CODECITE_PROVIDER: "llama-cpp", CODECITE_LOCAL_MODEL: "/models/q.gguf" };
    const r = await runCli(["config", "--root", repo, "--json"], { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { settings: Record<string, { problem?: unknown }> };
    expect(Object.keys(out.settings)).toHaveLength(17);
    expect(out.settings.provider).toEqual({ value: "llama-cpp", source: "env" });
    expect(out.settings.model).toEqual({ value: "/models/q.gguf", source: "env" });
    expect(out.settings["serve.provider"]).toEqual({
      value: "llama-cpp",
      source: "env",
      problem: {
        message: 'invalid CODECITE_PROVIDER="llama-cpp" (serve forwards to a server); accepted: ollama, openai',
        hint: "Pass --provider ollama or --provider openai (with --upstream) to codecite serve, or set serve.provider in the user file.",
        serve_only: true,
      },
    });
    expect(Object.entries(out.settings).filter(([, v]) => v.problem !== undefined).map(([k]) => k)).toEqual(["serve.provider"]);
    const human = await runCli(["config", "--root", repo], { env: { ...env, NO_COLOR: "1" } });
    expect(human.code).toBe(0);
    expect(human.stderr).toBe("");
    const lines = human.stdout.split("\n");
    const at = lines.indexOf("serve.provider      llama-cpp  (environment)");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(`${" ".repeat(20)}✗ codecite serve refuses it: invalid CODECITE_PROVIDER="llama-cpp" (serve forwards to a server); accepted: ollama, openai`);
    expect(lines).toContain("serve.port          11435  (default)");
  });

  it("settings every command refuses: each flagged on its row, the others still shown, exit 2 with the error on stderr", async () => {
    const file = userFile("num_ctx: 100\nmodel: m\n");
    const env = { XDG_CONFIG_HOME: home, CODECITE_PROVIDER: "llama-cpp", CODECITE_TOOLSHIM: "maybe", NO_COLOR: "1" };
    const r = await runCli(["config", "--root", repo, "--json"], { env });
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { settings: Record<string, { value: unknown; source: string; problem?: { message: string; serve_only: boolean } }> };
    expect(out.settings.toolshim).toMatchObject({ value: "maybe", source: "env", problem: { message: 'invalid CODECITE_TOOLSHIM="maybe"; accepted: auto, 1, true, yes, on, 0, false, no, off', serve_only: false } });
    expect(out.settings.num_ctx).toMatchObject({ value: "100", source: "user_file", file, line: 1, problem: { message: "invalid num_ctx: 100 (below 2048); accepted: an integer from 2048 to 1048576 (tokens)" } });
    // The user file's model is a model name, not a GGUF file the llama-cpp provider could load: it is the model, not refused.
    expect(out.settings.model).toMatchObject({ value: "m", source: "user_file" });
    expect(out.settings.max_steps).toEqual({ value: 8, source: "default" });
    expect(r.stderr).toBe("codecite: error: 2 settings are refused: toolshim, num_ctx\nhint: Each is shown above with its hint.\n");
    // The same refusals stop ask, as before.
    const ask = await runCli(["ask", "where?", "--root", repo], { env });
    expect(ask.code).toBe(2);
  });

  it("a bad repository file stops every command with exit 2, naming file and line", async () => {
    putFile(repo, ".codecite.yml", "host: evil.example.com\n");
    const r = await runCli(["config", "--root", repo], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join(repo, ".codecite.yml")}:1: host is not accepted in a repository file`);
    const ask = await runCli(["ask", "where?", "--root", repo, "--json"], { env: { XDG_CONFIG_HOME: home } });
    expect(ask.code).toBe(2);
    expect(JSON.parse(ask.stdout)).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
  });
});
