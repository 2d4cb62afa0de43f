/**
 * What an agent session has learned: every evidence record from successful tool results
 * (deduplicated, in order of arrival), the first result of every distinct call, so that an
 * identical repeated call is answered from it instead of running the tool again, and the lines
 * actually shown to the model (`markShown`, fed with the tool messages of each request as
 * sent, after truncation and context compaction).
 *
 * Shown lines of a record: its snippet lines from `start_line` on, at most up to `end_line` (a
 * snippet cut to its first lines counts only those; a record without a snippet counts none). A
 * `diff` record maps its hunk lines to new-file lines (` ` and `+` lines; `-` lines and the
 * `@@` header are skipped); a hunk flagged `old_lines` maps ` ` and `-` lines to old-file lines.
 */
import type { Evidence } from "../tools/index.js";
import type { DispatchResult } from "../tools/registry.js";

/** JSON with object keys sorted at every level: equal arguments give equal keys. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function evidenceKey(e: Evidence): string {
  return `${e.path}\0${e.start_line}\0${e.end_line}\0${e.kind}\0${e.name}`;
}

/** The evidence and call results of one `runAgent` session (see the module comment). */
export class EvidenceLog {
  readonly #evidence: Evidence[] = [];
  readonly #evidenceKeys = new Set<string>();
  readonly #results = new Map<string, DispatchResult>();
  readonly #shown = new Map<string, Map<number, string>>();

  /** Key of a call: tool name plus canonical arguments. */
  static callKey(tool: string, args: unknown): string {
    return `${tool}\0${stableStringify(args ?? {})}`;
  }

  /** The first result of an identical earlier call, if any. */
  previous(tool: string, args: unknown): DispatchResult | undefined {
    return this.#results.get(EvidenceLog.callKey(tool, args));
  }

  /** Records a call's result and keeps its evidence records (success envelopes only). */
  record(tool: string, args: unknown, result: DispatchResult): void {
    const key = EvidenceLog.callKey(tool, args);
    if (!this.#results.has(key)) this.#results.set(key, result);
    if (!result.ok || !("evidence" in result)) return;
    for (const e of result.evidence) {
      const k = evidenceKey(e);
      if (this.#evidenceKeys.has(k)) continue;
      this.#evidenceKeys.add(k);
      this.#evidence.push(e);
    }
  }

  /** All evidence gathered, deduplicated by path, range, kind and name, in order of arrival. */
  evidence(): Evidence[] {
    return [...this.#evidence];
  }

  /** Records the lines a tool message's content shows (the JSON result envelope as sent). */
  markShown(content: string): void {
    let v: unknown;
    try {
      v = JSON.parse(content);
    } catch {
      return;
    }
    if (typeof v !== "object" || v === null || !Array.isArray((v as { evidence?: unknown }).evidence)) return;
    for (const r of (v as { evidence: unknown[] }).evidence) {
      if (typeof r !== "object" || r === null) continue;
      const e = r as Partial<Evidence>;
      if (typeof e.path !== "string" || typeof e.start_line !== "number" || typeof e.end_line !== "number") continue;
      if (typeof e.snippet !== "string" || e.snippet === "") continue;
      let lines = this.#shown.get(e.path);
      if (!lines) this.#shown.set(e.path, (lines = new Map()));
      for (const [n, text] of shownLinesOf(e as Evidence)) if (n <= e.end_line) lines.set(n, text);
    }
  }

  /** The lines shown to the model so far: path → line number → text. */
  shown(): ReadonlyMap<string, ReadonlyMap<number, string>> {
    return this.#shown;
  }
}

/** `[line number, text]` of the lines a record's snippet shows (see the module comment). */
function shownLinesOf(e: Evidence): Array<[number, string]> {
  const raw = e.snippet.split("\n");
  const out: Array<[number, string]> = [];
  if (e.kind === "diff") {
    const old = e.flags?.includes("old_lines") === true;
    let n = e.start_line;
    for (const l of raw) {
      if (l.startsWith("@@") || l.startsWith("\\")) continue;
      const mark = l[0];
      const keep = mark === " " || (old ? mark === "-" : mark === "+");
      if (!keep) continue;
      out.push([n, l.slice(1)]);
      n++;
    }
    return out;
  }
  raw.forEach((text, i) => out.push([e.start_line + i, text]));
  return out;
}
