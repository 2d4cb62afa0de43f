/**
 * Advice as data: the notes of tool results and the messages and hints of tool errors, with
 * every tool, parameter and advised action kept as a typed {@link Term} instead of prose. Each
 * surface words the terms itself: the model sees tool and parameter names
 * ({@link renderForModel}: `read on with start_line=201`), the CLI sees commands and flags
 * (`src/cli/advice.ts`: `read on with --start-line 201`), and a surface that lacks an advised
 * option can leave that clause out because it knows which option the clause names.
 *
 * An {@link AdviceText} is a list of clauses (a sentence, or a part of one that ends in `;`),
 * each keeping its own punctuation and the white space after it; clauses of separate texts
 * joined with {@link joinAdvice} get one space between them. Texts are written with the
 * {@link advice} template tag, which splits after `.` or `;` followed by white space.
 */

/** A reference inside advice text; each surface renders it in its own terms. */
export type Term =
  /** A tool by its model-facing name (`search_code`). */
  | { kind: "tool"; tool: string }
  /** A parameter (`max_results`), or an assignment when `value` is given (`start_line=201`). */
  | { kind: "param"; param: string; value?: string | number }
  /** Parameters that narrow a query, shown as a parenthesised list: `(path, kind)`. */
  | { kind: "param_list"; params: readonly string[] }
  /** Turning a boolean parameter on or off: `set regex to true`. */
  | { kind: "set_flag"; param: string; value: boolean }
  /** Reading a line range of a file: `read_evidence with a line range`. */
  | { kind: "read_range" }
  /** Searching inside a folder: `search_code with path set to the folder`. */
  | { kind: "search_folder" }
  /**
   * A place in the repository: a repository-relative, `/`-separated `path`, with a 1-based `line`
   * when given (`src/a.py:60`); the CLI shows it as it shows records (from the current folder).
   */
  | { kind: "location"; path: string; line?: number }
  /**
   * The mark of output cut to fit a budget (`(flag truncated)` for the model). The clause it is
   * in says what was cut; a surface that says once, in its own words, how to see everything (the
   * CLI's note on `--all` and `--max-lines`) leaves such clauses out.
   */
  | { kind: "cut_mark" };

/** One clause: plain text and terms, in order, with its trailing punctuation. */
export type Clause = readonly (string | Term)[];

/** Advice text: clauses joined with one space when rendered. */
export type AdviceText = readonly Clause[];

/** A tool term. */
export const tool = (name: string): Term => ({ kind: "tool", tool: name });

/** A parameter term; with `value`, an assignment. */
export const param = (name: string, value?: string | number): Term =>
  value === undefined ? { kind: "param", param: name } : { kind: "param", param: name, value };

/** A location term (see {@link Term}). */
export const location = (path: string, line?: number): Term => (line === undefined ? { kind: "location", path } : { kind: "location", path, line });

/** The {@link Term} marking a clause about output cut to a budget. */
export const CUT_MARK: Term = { kind: "cut_mark" };

/**
 * Builds advice text from a template: interpolated strings and numbers become plain text,
 * interpolated {@link Term}s stay terms, interpolated advice texts are inlined. Clauses end at `.` or `;` followed by white space.
 */
export function advice(strings: TemplateStringsArray, ...values: readonly (string | number | Term | AdviceText)[]): AdviceText {
  const parts: (string | Term)[] = [];
  strings.forEach((s, i) => {
    parts.push(s);
    if (i < values.length) {
      const v = values[i]!;
      if (Array.isArray(v)) for (const clause of v as AdviceText) parts.push(...clause);
      else parts.push(typeof v === "object" ? (v as Term) : String(v));
    }
  });
  return splitClauses(parts);
}

/**
 * Text and terms joined with `separator` into advice text (each item its parts in order), for a
 * list whose length is not known when the template is written: `a (function, `{location}`), b …`.
 */
export function listAdvice(items: readonly (readonly (string | Term)[])[], separator = ", "): AdviceText {
  return splitClauses(items.flatMap((item, i) => (i === 0 ? [...item] : [separator, ...item])));
}

/**
 * `text` as one clause (its clauses' parts in order, so it renders the same), for a sentence whose
 * parts a surface must keep or leave out together: `cut (flag truncated); read_evidence shows whole ranges.`
 */
export function oneClause(text: AdviceText): AdviceText {
  return text.length <= 1 ? text : [text.flat()];
}

/** Plain text as advice text (split into clauses like {@link advice}). */
export function plain(text: string): AdviceText {
  return splitClauses([text]);
}

/** Names a note lists before it says how many more there are ({@link shortList}). */
const NOTE_LIST_NAMES = 5;

/**
 * A list of names short enough for a note a small model reads: the first `max` joined with `, `,
 * then `and N more` (`a.swift, b.swift, c.swift, d.swift, e.swift and 38 more`); the whole list
 * when it has at most `max` names. Whoever writes the note says the full count where it matters
 * (`43 files: …`).
 */
export function shortList(names: readonly string[], max = NOTE_LIST_NAMES): string {
  if (names.length <= max) return names.join(", ");
  return `${names.slice(0, max).join(", ")} and ${names.length - max} more`;
}

/** {@link shortList} of items holding terms (each item its parts in order, as {@link listAdvice} takes them). */
export function shortListAdvice(items: readonly (readonly (string | Term)[])[], max = NOTE_LIST_NAMES): AdviceText {
  const shown = items.length <= max ? items : [...items.slice(0, max - 1), [...items[max - 1]!, ` and ${items.length - max} more`]];
  return listAdvice(shown);
}

/** Joins several texts (absent or empty ones are skipped) into one. */
export function joinAdvice(...texts: readonly (AdviceText | undefined)[]): AdviceText {
  return texts.flatMap((t) => t ?? []);
}

function splitClauses(parts: readonly (string | Term)[]): AdviceText {
  // Merge adjacent strings, then cut strings at clause ends.
  const clauses: (string | Term)[][] = [];
  let current: (string | Term)[] = [];
  const push = (p: string | Term): void => {
    const last = current[current.length - 1];
    if (typeof p === "string" && typeof last === "string") current[current.length - 1] = last + p;
    else if (p !== "") current.push(p);
  };
  for (const p of parts) {
    if (typeof p !== "string") {
      push(p);
      continue;
    }
    // Each clause keeps the white space after its end, so rendering restores the text exactly.
    const pieces = p.split(/(?<=[.;]\s+)(?=\S)/);
    pieces.forEach((piece, i) => {
      if (i > 0) {
        if (current.length > 0) clauses.push(current);
        current = [];
      }
      push(piece);
    });
  }
  if (current.length > 0) clauses.push(current);
  return clauses;
}

/** How a surface words one term; `undefined` drops the clause the term is in. */
export type TermRenderer = (term: Term, clause: Clause) => string | undefined;

/**
 * Renders advice text with a surface's term renderer; clauses with a term the surface cannot
 * word are left out (and a `;` before a left-out clause becomes a sentence end).
 */
export function renderAdvice(text: AdviceText, renderTerm: TermRenderer): string {
  const kept: string[] = [];
  let endedSentence = false;
  for (const clause of text) {
    let out = "";
    let dropped = false;
    for (const part of clause) {
      if (typeof part === "string") {
        out += part;
        continue;
      }
      const r = renderTerm(part, clause);
      if (r === undefined) {
        dropped = true;
        break;
      }
      // An empty rendering (an empty option list) takes the space before it along.
      if (r === "" && out.endsWith(" ")) out = out.slice(0, -1);
      out += r;
    }
    if (!dropped) {
      kept.push(endedSentence ? out.charAt(0).toUpperCase() + out.slice(1) : out);
      endedSentence = false;
    } else if (kept.length > 0 && kept[kept.length - 1]!.trimEnd().endsWith(";")) {
      const last = kept[kept.length - 1]!;
      const body = last.trimEnd();
      kept[kept.length - 1] = `${body.slice(0, -1)}.${last.slice(body.length)}`;
      endedSentence = true;
    }
  }
  // Clauses of one text keep their own spacing; texts joined by joinAdvice get one space.
  let joined = "";
  for (const k of kept) joined += joined === "" || /\s$/.test(joined) ? k : ` ${k}`;
  if (kept.length < text.length) joined = joined.trimEnd();
  return kept.length > 0 && text.length > 0 && startsUpper(text[0]!) ? joined.charAt(0).toUpperCase() + joined.slice(1) : joined;
}

function startsUpper(clause: Clause): boolean {
  const first = clause[0];
  return typeof first === "string" && /^[A-Z]/.test(first);
}

/** The model's words: tool and parameter names as the tool definitions spell them. */
function modelTerm(term: Term): string {
  switch (term.kind) {
    case "tool":
      return term.tool;
    case "param":
      return term.value === undefined ? term.param : `${term.param}=${term.value}`;
    case "param_list":
      return `(${term.params.join(", ")})`;
    case "set_flag":
      return `set ${term.param} to ${term.value}`;
    case "read_range":
      return "read_evidence with a line range";
    case "search_folder":
      return "search_code with path set to the folder";
    case "location":
      return term.line === undefined ? term.path : `${term.path}:${term.line}`;
    case "cut_mark":
      return "(flag truncated)";
  }
}

/** Advice text in the model's words (the `note` and `hint` strings of the tool result envelope). */
export function renderForModel(text: AdviceText | string): string {
  return typeof text === "string" ? text : renderAdvice(text, modelTerm);
}
