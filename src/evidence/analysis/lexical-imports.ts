/**
 * The imports of files whose language reads them from the text without a parse
 * (`LanguageSpec.lexicalImports`: C/C++ `#include`s, Python import statements), for queries that need a file's imports and
 * nothing else: `find_importers` (its candidate importers) and `find_references` (the headers of
 * an include closure). A file is read through the workspace (deny-list, size cap, binary check: a
 * refusal gives the skip reason `loadFacts` would give) and its imports are extracted, each with
 * its statement's lines, as `loadFacts` of `facts.ts` gives them (`parse-task.ts`). A file whose
 * language answers `undefined` for its text (Python dynamic imports, text the reader does not follow)
 * is listed in `parse`: its imports come from its facts.
 *
 * Kept like derived facts: per file `(size, mtime, ctime, inode)` and when it was stat'ed, with the
 * fact cache's racy rule (`project-view.ts` `keptStat`, `keptStatHolds`), in memory for the view
 * and for later processes of the same walk (`loadDerived`/`saveDerived`, side-table value
 * `lexical:imports`), so a warm query `lstat`s the files and reads none.
 */
import type { FileStat } from "../../fact-cache/fact-index.js";
import { throwIfAborted } from "../evidence.js";
import type { ImportScan } from "./import-scan.js";
import { mapLimit } from "../concurrency.js";
import type { Workspace } from "../sandbox/workspace.js";
import { readRefusal, type FactsSkipReason } from "./facts.js";
import { languageFor } from "./lang/index.js";
import type { ImportRef, ProjectView } from "./lang/language.js";
import { memoize } from "./lang/project-files.js";
import { keptStat, keptStatHolds, loadDerived, saveDerived, statFiles, type KeptStat } from "./project-view.js";

/**
 * One file's imports; `text` is its text when this load read it (not when they were kept), `scan`
 * the import screen's scan of that text when its language's reader gave it in the same pass
 * (`LanguageSpec.lexicalImports`' `onScan`).
 */
export interface LexicalFile {
  imports: readonly ImportRef[];
  text?: string;
  scan?: ImportScan;
}

/** What {@link loadLexicalImports} returns. */
export interface LexicalImports {
  /** path → imports, for the files read or kept, in input order. */
  files: Map<string, LexicalFile>;
  /** path → why it could not be read. */
  skipped: Map<string, FactsSkipReason>;
  /** Files whose imports must come from a parse (their language's reader answered `undefined`), in input order. */
  parse: string[];
}

interface KeptEntry {
  stat: KeptStat;
  imports: ImportRef[];
  /** The reader answered `undefined`: the file is parsed for its imports. */
  parse?: true;
}

interface Kept {
  byFile: Map<string, KeptEntry>;
  changed: boolean;
}

/** The side-table name of the kept imports. */
const KEPT_NAME = "lexical:imports";

/** Above this many characters of JSON the kept imports are not saved (the next process reads again). */
const MAX_KEPT_CHARS = 16_000_000;

/** Files read at once. */
const READ_CONCURRENCY = 8;

/** Whether `file`'s imports can be read without a parse (its language has `lexicalImports`). */
export function readsImportsLexically(file: string): boolean {
  return languageFor(file)?.lexicalImports !== undefined;
}

function kept(project: ProjectView): Kept {
  return memoize(project, "lexical:kept-imports", () => {
    const saved = loadDerived<[string, KeptEntry][]>(project, KEPT_NAME);
    return { byFile: new Map(Array.isArray(saved) ? saved : []), changed: false };
  });
}

/**
 * The imports of `files` (repository-relative; each must satisfy {@link readsImportsLexically}):
 * kept ones whose stat still holds, the others read and extracted (see the module comment). Files
 * gone since they were listed are left out.
 * @throws ToolError `TIMEOUT` when `signal` aborts.
 */
export async function loadLexicalImports(ws: Workspace, project: ProjectView, files: readonly string[], signal?: AbortSignal): Promise<LexicalImports> {
  throwIfAborted(signal);
  const store = kept(project);
  const checkedMs = Date.now();
  const stats = statFiles(ws, files);
  const found = new Map<string, LexicalFile>();
  const skipped = new Map<string, FactsSkipReason>();
  const toParse = new Set<string>();
  const toRead: FileStat[] = [];
  for (const st of stats) {
    const k = store.byFile.get(st.path);
    if (k !== undefined && keptStatHolds(k.stat, st)) {
      if (k.parse) toParse.add(st.path);
      else found.set(st.path, { imports: k.imports });
    } else toRead.push(st);
  }
  const read = new Map<string, LexicalFile>();
  await mapLimit(toRead, READ_CONCURRENCY, async (st) => {
    throwIfAborted(signal);
    let text: string;
    try {
      // Without a thread-pool round trip per step; a refusal is asked of readText, which says why.
      text = (ws.readTextSync(st.path) ?? (await ws.readText(st.path))).lines.join("\n");
    } catch (err) {
      store.byFile.delete(st.path);
      skipped.set(st.path, readRefusal(err));
      return;
    }
    let scan: ImportScan | undefined;
    const imports = languageFor(st.path)?.lexicalImports?.(text, (s) => {
      scan = s;
    });
    if (imports === undefined) {
      store.byFile.set(st.path, { stat: keptStat(st, checkedMs), imports: [], parse: true });
      store.changed = true;
      toParse.add(st.path);
      return;
    }
    if (imports.length > 0) {
      const lines = text.split("\n");
      for (const ref of imports) ref.lines = lines.slice(ref.start_line - 1, ref.end_line);
    }
    store.byFile.set(st.path, { stat: keptStat(st, checkedMs), imports });
    store.changed = true;
    read.set(st.path, scan === undefined ? { imports, text } : { imports, text, scan });
  });
  // In input order, as `loadFacts` gives its facts.
  const out = new Map<string, LexicalFile>();
  for (const st of stats) {
    const f = found.get(st.path) ?? read.get(st.path);
    if (f !== undefined) out.set(st.path, f);
  }
  return { files: out, skipped, parse: stats.map((st) => st.path).filter((p) => toParse.has(p)) };
}

/** Keeps the imports read by this view's loads for later processes (see the module comment). */
export function saveLexicalImports(project: ProjectView): void {
  const store = kept(project);
  if (!store.changed) return;
  store.changed = false;
  saveDerived(project, KEPT_NAME, [...store.byFile], MAX_KEPT_CHARS);
}
