/**
 * What cited lines write, split by where it is written: code, string literals and comments. The
 * citation status (`citation-naming.ts`) compares a sentence with code tokens, so it must know
 * whether a word of the lines is an identifier of the code, a word of a comment or part of a
 * string. The lexer is a light one, shared by the languages codecite reads: strings in `"…"`,
 * `'…'` (closed on the same line, so a Rust lifetime `'a` opens none), `` `…` `` and Python's
 * triple quotes; comments by the comment syntax of the file's language (`#`, `//`, `/* … *\/`,
 * `--`; PHP's `#` but not its `#[…]` attributes), both `#` (followed by white space) and `//`
 * when the language is unknown. A string's interpolations are code: `${…}`, Ruby's `#{…}`, Swift's
 * `\(…)`, `{…}` in a Python f-string or a C# `$"…"`, `$name` in a double-quoted Kotlin, PHP,
 * Dart, Groovy or shell string. In prose and
 * data files (Markdown, plain text, JSON, CSV) the whole text is code and string at once. A string or
 * comment left open at the end of a line carries on to the next (triple quotes, block comments).
 * A line inside a block comment that the shown lines do not open (a JSDoc ` * ` line) is a comment.
 */

/** The comment syntax of a file, from its extension. */
type CommentStyle = "hash" | "slash" | "dash" | "both" | "text";

const HASH = ["py", "pyi", "rb", "sh", "bash", "zsh", "yml", "yaml", "toml", "r", "pl", "pm", "cmake", "mk", "nim", "ex", "exs", "jl", "tf", "ps1", "conf", "cfg", "ini"];
const SLASH = ["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "cs", "java", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "go", "rs", "kt", "kts", "swift", "scala", "dart", "php", "groovy", "gradle", "m", "mm", "zig", "css", "scss", "less", "proto", "sol", "v", "vue", "svelte"];
const DASH = ["sql", "lua", "hs", "elm", "ada", "adb", "ads"];
/** Prose and data files: every word is written there as it is (a Markdown heading, a JSON key), none is in a string or comment. */
const TEXT = ["md", "markdown", "txt", "rst", "adoc", "json", "jsonc", "json5", "csv", "tsv"];
const STYLE_BY_EXTENSION: ReadonlyMap<string, CommentStyle> = new Map<string, CommentStyle>([
  ...HASH.map((e) => [e, "hash"] as const),
  ...SLASH.map((e) => [e, "slash"] as const),
  ...DASH.map((e) => [e, "dash"] as const),
  ...TEXT.map((e) => [e, "text"] as const),
]);

/** Languages whose double-quoted strings interpolate `$name` (Kotlin, PHP, Dart, Groovy, Scala's `s"…"`, shells). */
const DOLLAR_TEMPLATES = new Set(["kt", "kts", "php", "dart", "groovy", "gradle", "scala", "sh", "bash", "zsh"]);
/** Interpolations every language's strings are read for: `${…}` (JS, Kotlin, PHP, shell), `#{…}` (Ruby), `\(…)` (Swift). */
const INTERPOLATION = /\$\{([^}]*)\}|#\{([^}]*)\}|\\\(([^)]*)\)/;

/** The lower-case extension of a path without its dot (`""` when it has none). */
export function extensionOf(path: string | undefined): string {
  if (path === undefined) return "";
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** The text of cited lines, split by where it is written. */
export interface CodeLexemes {
  /** The text outside strings and comments (each string and comment replaced by a space). */
  code: string;
  /** The contents of the string literals, in order. */
  strings: string[];
  /** The text of the comments, joined by newlines. */
  comments: string;
}

/** Splits cited lines into code, string contents and comments (see the module comment); `path` gives the comment syntax. */
export function lexLines(lines: readonly string[], path?: string): CodeLexemes {
  const style = STYLE_BY_EXTENSION.get(extensionOf(path)) ?? "both";
  if (style === "text") return { code: lines.join("\n"), strings: [lines.join("\n")], comments: "" };
  const ext = extensionOf(path);
  // PHP comments with `#` too, but `#[…]` is an attribute.
  const hash = style === "hash" || style === "both" || ext === "php";
  const slash = style === "slash" || style === "both" || ext === "php";
  const rust = ext === "rs";
  const dollarTemplates = DOLLAR_TEMPLATES.has(ext);
  const code: string[] = [];
  const strings: string[] = [];
  const comments: string[] = [];
  let open: { kind: "string"; close: string; text: string; prefix: string } | { kind: "block" } | undefined;
  // A string's interpolations are code (`${req.path}`, `#{user}`, `\(name)`, `{name}` in a Python
  // f-string or a C# `$"…"`, `$name` in a double-quoted Kotlin, PHP, Dart, Groovy or shell string).
  const literal = (text: string, prefix = "", quote = "") => {
    const braces = /[fF]/.test(prefix) || (ext === "cs" && prefix.includes("$"));
    const dollar = dollarTemplates && quote === '"';
    const re = new RegExp(`${INTERPOLATION.source}${braces ? /|\{([^{}]*)\}/.source : ""}${dollar ? /|\$([A-Za-z_]\w*)/.source : ""}`, "g");
    for (const m of text.matchAll(re)) code.push(` ${m.slice(1).find((g) => g !== undefined) ?? ""} `);
    strings.push(text.replace(re, " "));
    code.push(" ");
  };
  for (const [n, line] of lines.entries()) {
    let i = 0;
    if (open === undefined && n === 0 && slash && /^\s*\*(?:\s|\/|$)/.test(line)) open = { kind: "block" };
    while (i < line.length) {
      if (open?.kind === "block") {
        const end = line.indexOf("*/", i);
        comments.push(line.slice(i, end < 0 ? line.length : end));
        if (end < 0) break;
        i = end + 2;
        open = undefined;
        code.push(" ");
        continue;
      }
      if (open?.kind === "string") {
        const end = findClose(line, i, open.close);
        if (end < 0) {
          open.text += `${line.slice(i)}\n`;
          break;
        }
        literal(open.text + line.slice(i, end), open.prefix, open.close[0]);
        i = end + open.close.length;
        open = undefined;
        code.push(" ");
        continue;
      }
      const c = line[i]!;
      const rest = line.slice(i);
      if ((hash && c === "#" && (style === "hash" || (ext === "php" ? !rest.startsWith("#[") : /^#(?:\s|$)/.test(rest)))) || (slash && rest.startsWith("//")) || (style === "dash" && rest.startsWith("--"))) {
        comments.push(rest);
        break;
      }
      if (slash && rest.startsWith("/*")) {
        open = { kind: "block" };
        i += 2;
        continue;
      }
      const triple = /^("""|''')/.exec(rest)?.[1];
      if (triple !== undefined) {
        open = { kind: "string", close: triple, text: "", prefix: prefixOf(line, i) };
        i += 3;
        continue;
      }
      // A Rust lifetime or label (`'a`, `'static`) opens no string.
      const lifetime = c === "'" && rust && /^'[A-Za-z_]\w*(?!['\w])/.test(rest);
      if (c === '"' || c === "`" || (c === "'" && !lifetime && findClose(line, i + 1, "'") >= 0)) {
        const end = findClose(line, i + 1, c);
        if (end < 0 && c === '"') {
          literal(line.slice(i + 1), prefixOf(line, i), c);
          break;
        }
        if (end < 0) {
          open = { kind: "string", close: c, text: `${line.slice(i + 1)}\n`, prefix: prefixOf(line, i) };
          break;
        }
        literal(line.slice(i + 1, end), prefixOf(line, i), c);
        i = end + 1;
        continue;
      }
      code.push(c);
      i++;
    }
    code.push("\n");
  }
  if (open?.kind === "string") literal(open.text, open.prefix, open.close[0]);
  return { code: code.join(""), strings, comments: comments.join("\n") };
}

/** The string prefix written right before the quote at `i` (`f`, `rf`, `$`, `@$`), `""` when none. */
function prefixOf(line: string, i: number): string {
  return /(?<![A-Za-z0-9_])[A-Za-z$@]{1,2}$/.exec(line.slice(Math.max(0, i - 3), i))?.[0] ?? "";
}

/** Where `close` next occurs in `line` from `from`, skipping characters escaped with `\`; -1 when it does not. */
function findClose(line: string, from: number, close: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") {
      i++;
      continue;
    }
    if (line.startsWith(close, i)) return i;
  }
  return -1;
}
