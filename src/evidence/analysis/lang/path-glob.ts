/**
 * Matching repository paths against the wildcard patterns of a repository's own configuration
 * (`include` of a `tsconfig.json`), in time linear in the path times the pattern, whatever the
 * pattern: such a pattern is untrusted input.
 *
 * Syntax (TypeScript's `include`, https://www.typescriptlang.org/tsconfig/#include): `*` matches
 * any run of characters other than `/`, `?` one character other than `/`, `**` followed by `/` any
 * run of whole folders (none included), `**` elsewhere any run of characters; every other character
 * matches itself. The whole path must match.
 *
 * Why not a regular expression: the obvious translation (`*` → `[^/]*`, `**` → `.*`) runs on a
 * backtracking engine, where a pattern such as `src/**a**a**a…!` takes time exponential in the
 * number of stars on a path that almost matches (12 stars held a query for minutes). Here the
 * pattern is run as a set of positions, one step per character of the path (Thompson's
 * construction, https://swtch.com/~rsc/regexp/regexp1.html).
 */

/** One element of a pattern. */
type Token =
  | { kind: "char"; char: string }
  /** `?`: one character other than `/`. */
  | { kind: "one" }
  /** `*`: any run of characters other than `/`. */
  | { kind: "star" }
  /** `**` not followed by `/`: any run of characters. */
  | { kind: "any" }
  /** `**` followed by `/`: nothing, or any run of characters ending in `/`. */
  | { kind: "dirs" };

/** A compiled pattern; build with {@link compilePathGlob}. */
export interface PathGlob {
  readonly tokens: readonly Token[];
  /** How many characters a match consumes at least (one per `char` and `?`). */
  readonly minLength: number;
}

/** True for the tokens that may match nothing. */
function isRun(t: Token): boolean {
  return t.kind === "star" || t.kind === "any" || t.kind === "dirs";
}

/**
 * Compiles `pattern` (syntax in the module comment). Adjacent wildcards that match the same
 * strings as one are merged (`**` absorbs a `*` or `**` beside it; `**` + `/` repeated is one), so
 * the positions to track are at most three per character a match consumes, plus two.
 */
export function compilePathGlob(pattern: string): PathGlob {
  const tokens: Token[] = [];
  let minLength = 0;
  const push = (t: Token) => {
    const last = tokens[tokens.length - 1];
    if (last !== undefined && isRun(t) && isRun(last)) {
      if (last.kind === "any") return; // `.*` absorbs what follows it
      if (t.kind === "any") {
        // `.*` absorbs the runs before it back to the last consuming token
        while (tokens.length > 0 && isRun(tokens[tokens.length - 1] as Token)) tokens.pop();
      } else if (t.kind === last.kind) return; // `**/**/` is `**/`
    }
    tokens.push(t);
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const dirs = pattern[i + 2] === "/";
        push(dirs ? { kind: "dirs" } : { kind: "any" });
        i += dirs ? 2 : 1;
      } else push({ kind: "star" });
    } else if (c === "?") {
      push({ kind: "one" });
      minLength++;
    } else {
      push({ kind: "char", char: c });
      minLength++;
    }
  }
  return { tokens, minLength };
}

/**
 * True when the whole of `path` matches `glob`. Cost: at most `path.length` × `glob.tokens.length`
 * steps, and none when `path` is shorter than any match.
 */
export function pathGlobMatches(glob: PathGlob, path: string): boolean {
  const { tokens } = glob;
  const n = tokens.length;
  if (path.length < glob.minLength) return false;
  // at[i]: the match may go on with token i; inside[i]: it is within the `.*` of a `**/` token i
  // (which may end only after a `/`, so it does not let the match skip to token i + 1).
  let at = new Uint8Array(n + 1);
  let inside = new Uint8Array(n);
  let nextAt = new Uint8Array(n + 1);
  let nextInside = new Uint8Array(n);
  at[0] = 1;
  closeOver(tokens, at);
  for (let p = 0; p < path.length; p++) {
    const ch = path[p] as string;
    nextAt.fill(0);
    nextInside.fill(0);
    let alive = false;
    for (let i = 0; i < n; i++) {
      if (at[i] === 0 && inside[i] === 0) continue;
      const t = tokens[i] as Token;
      switch (t.kind) {
        case "char":
          if (t.char === ch) nextAt[i + 1] = 1;
          break;
        case "one":
          if (ch !== "/") nextAt[i + 1] = 1;
          break;
        case "star":
          if (ch !== "/") nextAt[i] = 1;
          break;
        case "any":
          nextAt[i] = 1;
          break;
        case "dirs":
          nextInside[i] = 1;
          if (ch === "/") nextAt[i + 1] = 1;
          break;
      }
      alive = true;
    }
    if (!alive) return false;
    closeOver(tokens, nextAt);
    [at, nextAt] = [nextAt, at];
    [inside, nextInside] = [nextInside, inside];
  }
  return at[n] === 1;
}

/**
 * Adds to `at` the positions reached by letting wildcards match nothing (in order, so chains
 * close in one pass). A `**` + `/` token is skipped only from its start (see `inside` above).
 */
function closeOver(tokens: readonly Token[], at: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++) if (at[i] === 1 && isRun(tokens[i] as Token)) at[i + 1] = 1;
}
