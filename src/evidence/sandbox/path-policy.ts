/**
 * Lexical path policy: turns a path written by a user or a model into a normalized
 * repository-relative path, or refuses it with a typed `ToolError`. No file system access
 * happens here; `Workspace.resolve` adds the real-path containment check.
 *
 * Rules (the containment check of modelcontextprotocol/servers `src/filesystem/path-validation.ts`,
 * hardened against CVE-2025-53110, a sibling folder sharing the root's prefix):
 * - A NUL byte, a path over {@link MAX_PATH_CHARS} characters, or a segment over
 *   {@link MAX_SEGMENT_BYTES} UTF-8 bytes → `INVALID_ARGUMENT`.
 * - `~` and `$HOME` are never expanded; `%2e%2e` is never decoded: they are literal names.
 * - On POSIX a backslash is a literal name character; on Windows it is a separator.
 * - An absolute path is accepted only when it lies inside the root (compared segment-wise, so
 *   `/w/proj-evil` is not inside `/w/proj`); it is normalised to the relative form. Any other
 *   absolute path → `OUTSIDE_ROOT`.
 * - `.` and empty segments are dropped (`./src/./a.ts`, `src//a.ts` → `src/a.ts`); `..` is
 *   resolved lexically and any escape above the root → `OUTSIDE_ROOT`.
 * - The empty string → `INVALID_ARGUMENT`. The root itself normalises to `""`.
 */
import path from "node:path";
import { ToolError } from "../evidence.js";

/** Longest accepted path, in UTF-16 code units (Linux PATH_MAX is 4096 bytes). */
const MAX_PATH_CHARS = 4096;
/** Longest accepted path segment, in UTF-8 bytes (NAME_MAX on common file systems). */
const MAX_SEGMENT_BYTES = 255;

const IS_WINDOWS = process.platform === "win32";

/** Splits an absolute root such as `/w/proj` into its segments (`["w", "proj"]`). */
function rootSegments(root: string): string[] {
  return root.split(/[\\/]+/).filter((s) => s !== "");
}

/**
 * Normalizes `input` against the given absolute roots (the real root and, when different, the
 * root as the caller spelled it). Returns the repository-relative path (`""` for the root).
 * @throws ToolError `INVALID_ARGUMENT` (empty, NUL, too long, not a string) or `OUTSIDE_ROOT`.
 */
export function normalizeRelative(input: unknown, roots: readonly string[]): string {
  if (typeof input !== "string") {
    throw new ToolError("INVALID_ARGUMENT", "path must be a string", 'Pass a repository-relative path such as "src/main.py".');
  }
  if (input.includes("\0")) {
    throw new ToolError("INVALID_ARGUMENT", "path contains a NUL byte", "Pass a plain repository-relative path.");
  }
  if (input.trim() === "") {
    throw new ToolError(
      "INVALID_ARGUMENT",
      "path is empty",
      'Pass a repository-relative path such as "src/main.py", or "." for the repository root.',
    );
  }
  if (input.length > MAX_PATH_CHARS) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `path is too long (${input.length} characters, limit ${MAX_PATH_CHARS})`,
      "Pass a shorter repository-relative path.",
    );
  }
  const raw = IS_WINDOWS ? input.replace(/\\/g, "/") : input;
  let segments = raw.split("/");
  const absolute = raw.startsWith("/") || (IS_WINDOWS && path.win32.isAbsolute(input));
  if (absolute) {
    const abs = segments.filter((s) => s !== "" && s !== ".");
    const inside = roots.map((r) => stripRoot(abs, rootSegments(r))).find((rest) => rest !== undefined);
    if (inside === undefined) {
      throw new ToolError(
        "OUTSIDE_ROOT",
        "path is outside the repository root",
        "Use a repository-relative path such as src/main.py.",
      );
    }
    segments = inside;
  }
  const out: string[] = [];
  for (const seg of segments) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) {
        throw new ToolError(
          "OUTSIDE_ROOT",
          "path is outside the repository root",
          "Only files inside the repository can be read; use a repository-relative path without '..'.",
        );
      }
      out.pop();
      continue;
    }
    if (Buffer.byteLength(seg, "utf8") > MAX_SEGMENT_BYTES) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `a path segment is too long (limit ${MAX_SEGMENT_BYTES} bytes)`,
        "File and folder names are at most 255 bytes; check the path.",
      );
    }
    out.push(seg);
  }
  return out.join("/");
}

/**
 * When `abs` (segments, possibly with `..`) lies inside `root` (segments), returns the
 * remaining segments; otherwise `undefined`. `..` is resolved first so `/w/proj/../x` is outside.
 */
function stripRoot(abs: readonly string[], root: readonly string[]): string[] | undefined {
  const resolved: string[] = [];
  for (const seg of abs) {
    if (seg === "..") resolved.pop();
    else resolved.push(seg);
  }
  if (resolved.length < root.length) return undefined;
  for (let i = 0; i < root.length; i++) {
    const a = resolved[i];
    const b = root[i];
    if (IS_WINDOWS ? a?.toLowerCase() !== b?.toLowerCase() : a !== b) return undefined;
  }
  return resolved.slice(root.length);
}

/**
 * True when `p` is a clean repository-relative path: non-empty, `/`-separated, not absolute, no
 * empty, `.` or `..` segment, no NUL byte. Paths reported by git come from the repository's own
 * index and trees, which a hostile repository can forge (`../outside`); such paths are refused.
 */
export function isCleanRelative(p: string): boolean {
  if (UNCLEAN.test(p)) return false;
  return !(process.platform === "win32" && (p.includes("\\") || /^[A-Za-z]:/.test(p)));
}

/**
 * A NUL byte, or a segment that is empty, `.` or `..` (zero to two dots between the start or a
 * `/` and the end or a `/`): `""`, `/abs`, `a//b`, `a/`, `./a`, `a/../b`. One regex test instead
 * of a split per path (the ignore-file scan and search's hit filter check every folder and file:
 * perf, issue 17).
 */
const UNCLEAN = /(?:^|\/)\.{0,2}(?:\/|$)|\0/;

/** Converts a native relative path to the `/`-separated form used in evidence. */
export function toPosix(rel: string): string {
  return path.sep === "/" ? rel : rel.split(path.sep).join("/");
}
