/**
 * Facts (definitions and imports) of many files: the one place where files are parsed.
 * Helper C puts the persistent cache and parser workers behind {@link loadFacts}, keeping its
 * signature; {@link factsFromSource} is the pure per-file step a worker can run.
 */
import { ToolError } from "./evidence.js";
import { languageFor } from "./lang/index.js";
import type { FileFacts } from "./lang/language.js";
import { extractFacts } from "./tree-sitter.js";
import { mapLimit } from "./concurrency.js";
import { SkippedFileError, type FileEntry, type Workspace } from "./workspace.js";

/** Why a file has no facts: read refused (`binary`, `too_large`, `denied`, `unreadable`), `no_parser`, `parse_failed`. */
export type FactsSkipReason = "binary" | "too_large" | "denied" | "unreadable" | "no_parser" | "parse_failed";

/**
 * What {@link loadFacts} returns: path → facts for every file that was parsed, in input order, plus
 * the files that were not, with the reason.
 */
export class FactsMap extends Map<string, FileFacts> {
  /** path → why it has no facts. */
  readonly skipped = new Map<string, FactsSkipReason>();

  /** Counts of {@link skipped} by reason. */
  skipCounts(): Partial<Record<FactsSkipReason, number>> {
    const out: Partial<Record<FactsSkipReason, number>> = {};
    for (const r of this.skipped.values()) out[r] = (out[r] ?? 0) + 1;
    return out;
  }
}

/**
 * Parses one file's text and extracts its facts with the language chosen by the path's ending.
 * Lines of the facts are 1-based and match `TextFile.lines` when `source` is those lines joined
 * with `\n` (as {@link loadFacts} does).
 * @returns `undefined` when no language handles the path.
 * @throws Error when the grammar cannot be loaded or the parser gives up.
 */
export async function factsFromSource(path: string, source: string): Promise<FileFacts | undefined> {
  const lang = languageFor(path);
  if (lang === undefined) return undefined;
  return extractFacts(lang, source);
}

/** Throws the abort reason (a `ToolError TIMEOUT` unless the signal gave a `ToolError`). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    throw reason instanceof ToolError ? reason : new ToolError("TIMEOUT", "the query was cancelled before it finished");
  }
}

/**
 * Reads (through the workspace: deny-list, size cap, binary check) and parses `files`.
 * Files without a language, refused by the workspace, or that fail to parse are left out and
 * counted in `skipped`. Files are read a few at a time; parsing is sequential (one WASM parser).
 * @throws ToolError `TIMEOUT` when `signal` aborts.
 */
export async function loadFacts(ws: Workspace, files: readonly FileEntry[], signal?: AbortSignal): Promise<FactsMap> {
  const out = new FactsMap();
  const results = await mapLimit(files, 8, async (entry): Promise<FileFacts | FactsSkipReason> => {
    throwIfAborted(signal);
    const lang = languageFor(entry.path);
    if (lang === undefined) return "no_parser";
    let lines: string[];
    try {
      lines = (await ws.readText(entry.path)).lines;
    } catch (err) {
      if (err instanceof SkippedFileError) return err.reason;
      if (err instanceof ToolError && err.code === "DENIED") return "denied";
      return "unreadable";
    }
    throwIfAborted(signal);
    try {
      return await extractFacts(lang, lines.join("\n"));
    } catch {
      return "parse_failed";
    }
  });
  throwIfAborted(signal);
  files.forEach((entry, i) => {
    const r = results[i];
    if (r === undefined) return;
    if (typeof r === "string") out.skipped.set(entry.path, r);
    else out.set(entry.path, r);
  });
  return out;
}

/** A `note` fragment for skipped files, e.g. "2 files not parsed (1 binary, 1 over the size limit)"; `undefined` when none. */
export function describeFactsSkips(facts: FactsMap): string | undefined {
  const c = facts.skipCounts();
  const words: [FactsSkipReason, string][] = [
    ["binary", "binary"],
    ["too_large", "over the size limit"],
    ["denied", "denied"],
    ["unreadable", "unreadable"],
    ["parse_failed", "failed to parse"],
  ];
  const parts = words.filter(([k]) => (c[k] ?? 0) > 0).map(([k, w]) => `${c[k]} ${w}`);
  if (parts.length === 0) return undefined;
  const n = words.reduce((s, [k]) => s + (c[k] ?? 0), 0);
  return `${n} file${n === 1 ? "" : "s"} not parsed (${parts.join(", ")})`;
}
