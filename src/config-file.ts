/**
 * Configuration files (README "Configuration"): `.codecite.yml` in the repository root and
 * `config.yml` in `$XDG_CONFIG_HOME/codecite` (else `~/.config/codecite`). Keys mirror the
 * flags and variables (see {@link FILE_KEYS}); values are validated by `config.ts` with the same
 * messages as flags, naming the file and line instead of the flag.
 *
 * Format: a YAML 1.2 mapping (parsed with the `yaml` package; https://yaml.org/spec/1.2.2/),
 * at most {@link MAX_CONFIG_FILE_BYTES} bytes, scalar values only, plus the `serve:` mapping.
 *
 * A repository file is untrusted input: whoever wrote the repository wrote it. It may set only
 * how the model works on that repository (`model`, `toolshim`, `num_ctx`, `max_steps`,
 * `prefetch`); keys that choose a server, an address or a file to load (`host`, `provider`,
 * `serve:`, the interpreter's settings, GGUF paths) are refused with an error naming the file
 * and line — otherwise cloning a repository could send the user's questions (and a gateway's
 * client traffic) to a server of the repository author's choosing. So are the bounds of a
 * session on the user's machine (`max_calls_per_turn`, `timeout`): how long and how hard a
 * question may run is the user's decision, not the repository's. A repository file that is a
 * symbolic link is not read (it could point at a private file whose text an error would quote),
 * nor one with more than one hard link (another name of a file that may lie outside the
 * repository; the workspace refuses such files too, unless `CODECITE_ALLOW_HARD_LINKS=1`).
 * Neither file can hold a secret: API keys and the serve token come only from the environment
 * or flags, and `codecite config` never prints a secret.
 */
import { closeSync, constants as fsc, fstatSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Node as YamlNode, YAMLMap } from "yaml";
import { closeNames } from "./evidence/close-names.js";

/**
 * The `yaml` package, loaded when a configuration file is first parsed: commands that read no
 * configuration (the evidence commands) never pay for it. (`parseConfigFile` is synchronous, so
 * it is required, not imported; the package ships CommonJS beside ESM.)
 */
let yamlPackage: typeof import("yaml") | undefined;
const yaml = (): typeof import("yaml") => (yamlPackage ??= createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/** Largest configuration file read, in bytes (a settings file is a few hundred bytes). */
const MAX_CONFIG_FILE_BYTES = 65_536;

/** The repository file's name, in the root given by `--root`. */
const REPO_CONFIG_NAME = ".codecite.yml";

/** Which file a setting came from. */
export type ConfigFileKind = "repo" | "user";

/** One key a configuration file may hold. */
interface FileKey {
  /** What the key mirrors, for messages: the flag (or the variable when there is no flag). */
  mirrors: string;
  /** A repository file may set it (it neither chooses a server nor a file to load). */
  repo: boolean;
  /** Why a repository file may not set it, for the error (default: it chooses a server, an address or a model file). */
  refusal?: string;
}

/** Why the session bounds are the user's to set. */
const USER_BOUND = "a repository cannot set how long or how hard a question runs on your machine";

/**
 * Every accepted key (`serve.*` are the keys of the `serve:` mapping) and what it mirrors.
 * Values are validated in `config.ts` exactly as the flag or variable named here.
 */
const FILE_KEYS: Readonly<Record<string, FileKey>> = {
  model: { mirrors: "--model", repo: true },
  toolshim: { mirrors: "--toolshim", repo: true },
  num_ctx: { mirrors: "--num-ctx", repo: true },
  max_steps: { mirrors: "--max-steps", repo: true },
  prefetch: { mirrors: "--no-prefetch", repo: true },
  max_calls_per_turn: { mirrors: "--max-calls-per-turn", repo: false, refusal: USER_BOUND },
  timeout: { mirrors: "--timeout", repo: false, refusal: USER_BOUND },
  provider: { mirrors: "--provider", repo: false },
  host: { mirrors: "--host", repo: false },
  toolshim_backend: { mirrors: "CODECITE_TOOLSHIM_BACKEND", repo: false },
  toolshim_ollama_model: { mirrors: "CODECITE_TOOLSHIM_OLLAMA_MODEL", repo: false },
  toolshim_model: { mirrors: "CODECITE_TOOLSHIM_MODEL", repo: false },
  local_model: { mirrors: "CODECITE_LOCAL_MODEL", repo: false },
  "serve.port": { mirrors: "serve --port", repo: false },
  "serve.listen": { mirrors: "serve --listen", repo: false },
  "serve.upstream": { mirrors: "serve --upstream", repo: false },
  "serve.provider": { mirrors: "serve --provider", repo: false },
  "serve.workers": { mirrors: "serve --workers", repo: false },
};

/** A setting as a file states it: its text (numbers and booleans as YAML wrote them) and where. */
export interface FileSetting {
  /** The scalar's value as text (`8192`, `true`, `qwen3:8b`). */
  raw: string;
  /** Absolute path of the file. */
  file: string;
  /** 1-based line of the value. */
  line: number;
  /** The value is a YAML number or boolean (messages show it as written, without quotes). */
  typed: boolean;
}

/** One parsed configuration file. */
export interface ConfigFile {
  kind: ConfigFileKind;
  /** Absolute path. */
  path: string;
  /** Settings by key (`serve.port` for the `serve:` mapping's `port`). */
  settings: ReadonlyMap<string, FileSetting>;
}

/** The configuration files that apply to one run; absent when the file does not exist. */
export interface ConfigFiles {
  repo?: ConfigFile;
  user?: ConfigFile;
  /** Where each file is looked for (shown by `codecite config`). */
  paths: { repo: string; user: string };
}

/**
 * What to do about a problem as one clause of its file's hint: a verb and what it acts on
 * (`fix or remove` `num_ctx`), so that the fixes of one file read as one sentence
 * (`Fix or remove num_ctx and max_steps in …`).
 */
export interface ProblemFix {
  verb: string;
  subject: string;
}

/** One thing wrong in a configuration file: where (`line` 1-based; 0 when the whole file is at fault), what, and what to do. */
export interface ConfigFileProblem {
  file: string;
  line: number;
  message: string;
  /** The whole hint when this is the only problem. */
  hint: string;
  /** The hint as a clause, when it is one (see {@link ProblemFix}). */
  fix?: ProblemFix;
  /** Set when `message` states its own position (a YAML syntax error: line and column). */
  positioned?: boolean;
}

/** `file:line: message` (`file: message` for the whole file, or a message that states its position). */
function located(p: ConfigFileProblem): string {
  return `${p.line > 0 && p.positioned !== true ? `${p.file}:${p.line}` : p.file}: ${p.message}`;
}

/** `a`, `a and b`, `a, b and c`. */
function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]!}`;
}

/**
 * The hint of several problems: one sentence per file (the problem's own hint when it is the
 * file's only one), whose fixes with the same verb share it: `Fix or remove num_ctx and
 * max_steps in F.`, or `In F: rename "modle" to model; fix or remove num_ctx.`; a problem whose
 * hint is no clause adds that hint once.
 */
function combinedHint(problems: readonly ConfigFileProblem[]): string {
  const sentences: string[] = [];
  for (const file of new Set(problems.map((p) => p.file))) {
    const own = problems.filter((p) => p.file === file);
    if (own.length === 1) {
      sentences.push(own[0]!.hint);
      continue;
    }
    const byVerb = new Map<string, string[]>();
    const whole: string[] = [];
    for (const p of own) {
      if (p.fix === undefined) {
        if (!whole.includes(p.hint)) whole.push(p.hint);
        continue;
      }
      const subjects = byVerb.get(p.fix.verb) ?? [];
      if (!subjects.includes(p.fix.subject)) subjects.push(p.fix.subject);
      byVerb.set(p.fix.verb, subjects);
    }
    const clauses = [...byVerb].map(([verb, subjects]) => `${verb} ${joinAnd(subjects)}`);
    if (clauses.length === 1) sentences.push(`${clauses[0]!.charAt(0).toUpperCase()}${clauses[0]!.slice(1)} in ${file}.`);
    else if (clauses.length > 1) sentences.push(`In ${file}: ${clauses.join("; ")}.`);
    sentences.push(...whole);
  }
  return sentences.join(" ");
}

/**
 * Most problems a {@link ConfigFileError} lists (and takes hints from): a 64 KiB repository file
 * of bad keys holds thousands, and each listed line repeats the accepted keys, so an unbounded
 * list would print some 750 KB of error (and a 340 KB hint) for every command run in that
 * repository.
 */
const MAX_LISTED_PROBLEMS = 20;

/** One problem as one line; several as a heading naming the files and an indented line each (at most {@link MAX_LISTED_PROBLEMS}, then how many more). */
function listLines(problems: readonly ConfigFileProblem[]): string[] {
  if (problems.length === 1) return [located(problems[0]!)];
  const files = [...new Set(problems.map((p) => p.file))];
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${located(p)}`);
  const more = problems.length - MAX_LISTED_PROBLEMS;
  if (more > 0) listed.push(`  … and ${more} more ${more === 1 ? "problem" : "problems"} (fix these, then run again to see them)`);
  return [`${problems.length} problems in ${files.join(" and ")}:`, ...listed];
}

/**
 * A configuration file that cannot be used: unreadable, not YAML, not a mapping, an unknown key,
 * a key a repository file may not set, or a bad value. `file` and `line` (1-based; 0 when the
 * whole file is at fault) say where. The message never quotes more than the offending value.
 * A file with several bad keys is one error holding every one (`problems`, in file order; `file`,
 * `line` are the first's, `hint` says what to do about those listed, one sentence per file), so
 * that one pass fixes the file; its message lists the first {@link MAX_LISTED_PROBLEMS} and says
 * how many more there are.
 */
export class ConfigFileError extends Error {
  override readonly name = "ConfigFileError";
  /** Every problem found, the first being the one `file` and `line` describe. */
  readonly problems: readonly ConfigFileProblem[];
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
    /** What to do about it. */
    readonly hint: string,
    problems?: readonly ConfigFileProblem[],
  ) {
    const all = problems ?? [{ file, line, message, hint }];
    super(listLines(all).join("\n"));
    this.problems = all;
  }

  /** The message's lines: the problem, or a heading and one line per problem (a reporter shows each line on its own). */
  lines(): string[] {
    return listLines(this.problems);
  }

  /** One error for `problems` (at least one): the problem itself when alone, else a list of them, each with its file and line, and one hint sentence per file for those listed. */
  static of(problems: readonly ConfigFileProblem[]): ConfigFileError {
    const first = problems[0]!;
    if (problems.length === 1) return new ConfigFileError(first.file, first.line, first.message, first.hint, problems);
    return new ConfigFileError(first.file, first.line, first.message, combinedHint(problems.slice(0, MAX_LISTED_PROBLEMS)), problems);
  }
}

/** `$XDG_CONFIG_HOME/codecite/config.yml`, else `~/.config/codecite/config.yml` (XDG Base Directory spec). */
export function userConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME?.trim() || os.homedir(), ".config");
  return path.join(base, "codecite", "config.yml");
}

/** The keys a file of `kind` accepts, `serve.*` written out (`serve` alone is only their parent). */
function acceptedKeys(kind: ConfigFileKind): string[] {
  return Object.entries(FILE_KEYS)
    .filter(([, k]) => kind === "user" || k.repo)
    .map(([name]) => name);
}

/**
 * A YAML syntax error in plain words, by the `yaml` package's error code (its `ErrorCode`), the
 * parser's message telling apart the cases one code covers. The file's own text is never quoted
 * (the parser's messages can quote it, and a repository file could hold anything).
 */
function yamlSyntaxReason(code: string, parserMessage: string): string {
  switch (code) {
    case "TAB_AS_INDENT":
      return "a tab indents this line; YAML indents with spaces only";
    case "MISSING_CHAR":
      if (/quote/i.test(parserMessage)) return "a quoted value has no closing quote";
      if (/map values/i.test(parserMessage)) return 'a line is not "key: value" (a key, a colon and a space, then the value)';
      return "a closing character is missing";
    case "BLOCK_AS_IMPLICIT_KEY":
    case "MULTILINE_IMPLICIT_KEY":
      return 'a value runs on into another "key: value", on its line or on an indented line below it (is a line indented by mistake, or does a value hold ": " without quotes?)';
    case "BAD_INDENT":
      if (/flow sequence/i.test(parserMessage)) return "a list opened with [ is not closed with ]";
      if (/flow map/i.test(parserMessage)) return "a mapping opened with { is not closed with }";
      return "this line is indented wrongly for where it stands";
    case "BAD_DQ_ESCAPE":
      return "a double-quoted value holds an unknown \\ escape; write \\\\ for a backslash, or use single quotes";
    case "BAD_SCALAR_START":
      return "a value starts with a character YAML reserves (such as @, ` or %); put the value in quotes";
    case "MULTIPLE_DOCS":
      return 'the file holds more than one YAML document (a "---" line between settings); keep one';
    case "ALIAS_PROPS":
    case "BAD_ALIAS":
    case "BAD_PROP_ORDER":
    case "MULTIPLE_ANCHORS":
    case "MULTIPLE_TAGS":
      return "anchors (&), aliases (*) and tags (!) are not used in settings; write the value itself";
    case "KEY_OVER_1024_CHARS":
      return "a key is longer than 1024 characters";
    case "BLOCK_IN_FLOW":
      return "an indented block stands inside [ ] or { }";
    case "BAD_DIRECTIVE":
      return "a line starting with % is not a directive YAML knows";
    case "UNEXPECTED_TOKEN":
      return "a character stands where YAML expects none (a stray ], }, or a value where a key belongs)";
    default:
      return code.toLowerCase().replace(/_/g, " ");
  }
}

/**
 * Deepest nesting of brackets a configuration file may have: its values are scalars and the
 * `serve:` mapping. The YAML parser reads flow collections (`[`, `{`) by recursion, and tens of
 * thousands nested (a 64 KiB file of `{`) ended the process in V8 ("RegExpCompiler Allocation
 * failed - process out of memory", not an exception) or took it seconds to refuse.
 */
const MAX_BRACKET_DEPTH = 32;

/**
 * The line (1-based) of the first `[` or `{` nested more than {@link MAX_BRACKET_DEPTH} deep, or 0.
 * Every bracket of the text counts, quoted or in a comment too (a config needs none nested).
 */
function tooDeepLine(text: string): number {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_BRACKET_DEPTH) return line;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return 0;
}

/**
 * Parses the text of one configuration file.
 * @param file absolute path, for messages.
 * @throws ConfigFileError for YAML errors, brackets nested more than {@link MAX_BRACKET_DEPTH} deep,
 *   a top level that is not a mapping, a non-scalar value,
 *   an unknown or duplicated key, and (repository file) a key only the user file may set; one
 *   error listing every such key, each with its line.
 */
export function parseConfigFile(text: string, file: string, kind: ConfigFileKind): ConfigFile {
  const { LineCounter, isMap, isScalar, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const deep = tooDeepLine(text);
  if (deep > 0) {
    throw ConfigFileError.of([
      {
        file,
        line: deep,
        message: `brackets ([ ] { }) nested more than ${MAX_BRACKET_DEPTH} deep at line ${deep}`,
        hint: `Fix line ${deep} of ${file}: its values are scalars and the serve: mapping, then check it with \`codecite config\`.`,
        positioned: true,
      },
    ]);
  }
  // Keys that appear twice are found by `visit` below, one Set per mapping: the parser's own check
  // (`uniqueKeys`) compares each key with every earlier one, so a 64 KiB file of distinct keys cost
  // it some 300 ms more than the parse itself (7,346 keys).
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 0 : lineCounter.linePos(offset).line);
  const problems: ConfigFileProblem[] = [];
  const problem = (line: number, message: string, hint: string, fix?: ProblemFix): void => {
    problems.push({ file, line, message, hint, ...(fix !== undefined ? { fix } : {}) });
  };
  // The first syntax error only: those after it are mostly its echoes (one misplaced indent gives three).
  const syntax = doc.errors[0];
  if (syntax !== undefined) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw ConfigFileError.of([
      {
        file,
        line: at.line,
        message: `YAML syntax error at line ${at.line}, column ${at.col}: ${yamlSyntaxReason(syntax.code, syntax.message)}`,
        // Where to look, and how to check the fix (every command reads the file; config only shows it).
        hint: `Fix line ${at.line} of ${file} or a line next to it, then check it with \`codecite config\`.`,
        positioned: true,
      },
    ]);
  }
  const settings = new Map<string, FileSetting>();
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) return { kind, path: file, settings };
  if (!isMap(root)) throw new ConfigFileError(file, lineOf(root.range?.[0]), "the file must be a mapping of keys to values (key: value)", `Write ${file} as one "key: value" a line, e.g. "model: qwen3:8b".`);

  const visit = (map: YAMLMap<unknown, unknown>, prefix: string): void => {
    // Each key of this mapping and the line it first appears on.
    const keys = new Map<string, number>();
    for (const pair of map.items) {
      const keyNode = pair.key as YamlNode | null;
      const keyLine = lineOf(keyNode?.range?.[0]);
      const key = isScalar(keyNode) ? String(keyNode.value) : "";
      const full = prefix + key;
      // The key as messages show it: quoted and escaped, a long one cut.
      const shown = JSON.stringify(full.length > 60 ? `${full.slice(0, 57)}...` : full);
      if (isScalar(keyNode)) {
        const first = keys.get(key);
        if (first !== undefined) {
          problem(keyLine, `${shown} appears twice (first on line ${first})`, `Keep one ${shown} in ${file}.`, { verb: "keep one", subject: shown });
          continue;
        }
        keys.set(key, keyLine);
      }
      // Own keys only: "toString", "constructor" or "__proto__" are not settings (Object.prototype's).
      const spec = Object.hasOwn(FILE_KEYS, full) ? FILE_KEYS[full] : undefined;
      const valueNode = pair.value as YamlNode | null;
      if (prefix === "" && key === "serve" && (isMap(valueNode) || kind === "user")) {
        if (kind === "repo") {
          problem(keyLine, "serve settings are not accepted in a repository file (a repository cannot choose addresses or servers)", `Remove serve from ${file}; put it in your user configuration file.`, {
            verb: "remove",
            subject: "serve",
          });
          continue;
        }
        if (!isMap(valueNode)) {
          const serveKeys = acceptedKeys(kind).filter((k) => k.startsWith("serve."));
          problem(keyLine, `serve holds its settings indented below it (${serveKeys.map((k) => k.slice(6)).join(", ")}), not a value of its own`, `Write serve: on its own line and, below it, e.g. "  port: 8080" in ${file}.`);
          continue;
        }
        visit(valueNode, "serve.");
        continue;
      }
      if (!spec) {
        const accepted = acceptedKeys(kind);
        // A misspelt key gets the accepted keys closest to it (the "did you mean" of the evidence tools).
        const near = closeNames(full, accepted, 3);
        const guess = near.length > 0 ? `did you mean ${near.join(" or ")}? ` : "";
        const fix = near.length > 0 ? { verb: "rename", subject: `${shown} to ${near[0]!}` } : { verb: "remove or rename", subject: shown };
        const hint = near.length > 0 ? `Rename ${shown} to ${near[0]!} (or remove it) in ${file}.` : `Remove or rename ${shown} in ${file}.`;
        problem(keyLine, `unknown key ${shown}; ${guess}accepted: ${accepted.join(", ")}`, hint, fix);
        continue;
      }
      if (kind === "repo" && !spec.repo) {
        problem(
          keyLine,
          `${full} is not accepted in a repository file (${spec.refusal ?? "a repository cannot choose servers, addresses or model files"})`,
          `Remove ${full} from ${file}; set it with ${spec.mirrors}, its environment variable or your user configuration file.`,
          { verb: "remove", subject: full },
        );
        continue;
      }
      if (!isScalar(valueNode) || valueNode.value === null || typeof valueNode.value === "object") {
        problem(lineOf(valueNode?.range?.[0]) || keyLine, `${full} needs a single value (text, number or true/false)`, `Fix ${full} in ${file}.`, { verb: "fix", subject: full });
        continue;
      }
      const typed = typeof valueNode.value === "number" || typeof valueNode.value === "boolean";
      settings.set(full, { raw: String(valueNode.value), file, line: lineOf(valueNode.range?.[0]) || keyLine, typed });
    }
  };
  visit(root, "");
  if (problems.length > 0) throw ConfigFileError.of(problems);
  return { kind, path: file, settings };
}

/**
 * Reads one file; `undefined` when it does not exist. The checks are made on the opened
 * descriptor, so a file replaced after a check cannot be read instead: it is opened without
 * waiting for a FIFO's writer (`O_NONBLOCK`: a read by name would wait for ever) and, in a
 * repository, without following a symbolic link (`O_NOFOLLOW`: a link could lead outside).
 */
function readConfigFile(file: string, kind: ConfigFileKind, allowHardLinks = false): ConfigFile | undefined {
  const flags = fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0) | (kind === "repo" ? (fsc.O_NOFOLLOW ?? 0) : 0);
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(file, flags);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigFileError(file, 0, "is not a regular file", `Remove ${file} or make it a file.`);
    if (kind === "repo" && stat.nlink > 1 && !allowHardLinks) {
      throw new ConfigFileError(file, 0, `has ${stat.nlink} hard links; a repository's configuration file must be a file of its own`, "Replace it by a copy, or set CODECITE_ALLOW_HARD_LINKS=1.");
    }
    if (stat.size > MAX_CONFIG_FILE_BYTES) throw new ConfigFileError(file, 0, `is larger than ${MAX_CONFIG_FILE_BYTES} bytes`, `Shorten ${file}.`);
    text = readFileSync(fd, "utf8");
  } catch (err) {
    if (err instanceof ConfigFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    // ELOOP: O_NOFOLLOW met a link as the last component (Linux, macOS); EMLINK on FreeBSD.
    if (kind === "repo" && (code === "ELOOP" || code === "EMLINK")) {
      throw new ConfigFileError(file, 0, "is a symbolic link; a repository's configuration file must be a regular file", `Replace ${file} by a regular file or remove it.`);
    }
    throw new ConfigFileError(file, 0, `cannot be read (${code ?? "error"})`, `Check the permissions of ${file}.`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (text.length > MAX_CONFIG_FILE_BYTES) throw new ConfigFileError(file, 0, `is larger than ${MAX_CONFIG_FILE_BYTES} bytes`, `Shorten ${file}.`);
  return parseConfigFile(text, file, kind);
}

/**
 * Reads the configuration files that apply to a run over `root`: `root/.codecite.yml` and the
 * user file ({@link userConfigPath}). A missing file is simply absent.
 * @throws ConfigFileError when a file exists but cannot be used (see {@link parseConfigFile}).
 */
export function loadConfigFiles(root: string | undefined, env: Readonly<Record<string, string | undefined>>): ConfigFiles {
  const repoPath = path.resolve(root ?? ".", REPO_CONFIG_NAME);
  const userPath = userConfigPath(env);
  const files: ConfigFiles = { paths: { repo: repoPath, user: userPath } };
  // Both files are read before any error is reported: the error lists the problems of both.
  const problems: ConfigFileProblem[] = [];
  const read = (file: string, kind: ConfigFileKind, allowHardLinks?: boolean): ConfigFile | undefined => {
    try {
      return readConfigFile(file, kind, allowHardLinks);
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      problems.push(...err.problems);
      return undefined;
    }
  };
  const user = read(userPath, "user");
  if (user) files.user = user;
  const repo = read(repoPath, "repo", env.CODECITE_ALLOW_HARD_LINKS === "1");
  if (repo) files.repo = repo;
  if (problems.length > 0) throw ConfigFileError.of(problems);
  return files;
}
