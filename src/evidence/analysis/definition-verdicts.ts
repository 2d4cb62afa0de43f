/**
 * The definitions load of `find_symbol` with its lexical screen (`definition-scan.ts`): of the files
 * that must be parsed (their facts neither cached nor known by content hash), a file where the
 * name cannot stand as a definition's name is read but not parsed (`FactsMap.screened`, not in
 * the fact cache). So that later queries of the same name do not read such a file again, each
 * verdict is kept with the file's state (`KeptStat`: size, mtime, ctime, inode, under the fact
 * cache's racy rule), for later processes of the same tree too (`project-view.ts` `saveDerived`,
 * side-table value `symbols:ruled-out`; the importers' kept scans work alike, `importers.ts`
 * `KeptScan`): a file still in that state is ruled out for that name again without being read.
 *
 * Per file, the {@link MAX_NAMES_PER_FILE} most recent names ruled out are kept; the whole value
 * above {@link MAX_KEPT_CHARS} characters starts again from the current query's files.
 */
import type { FileStat } from "../../fact-cache/fact-index.js";
import { mayDefine } from "./definition-scan.js";
import { loadFacts, type FactsMap } from "./facts.js";
import { familyOf, languageFor } from "./lang/index.js";
import type { ProjectView } from "./lang/language.js";
import { memoize } from "./lang/project-files.js";
import { keptStat, keptStatHolds, loadDerived, saveDerived, type KeptStat } from "./project-view.js";
import type { Workspace } from "../sandbox/workspace.js";

/** Names kept per ruled-out file (the most recent ones). */
const MAX_NAMES_PER_FILE = 32;

/** Above this many characters the kept verdicts start again from the current query's files. */
const MAX_KEPT_CHARS = 4_000_000;

/** The side-table value (`loadDerived`) of the kept verdicts. */
const DERIVED_NAME = "symbols:ruled-out";

/** Names the screen ruled out in one file, with the file's state when it was read. */
interface RuledOut {
  stat: KeptStat;
  names: string[];
}

interface KeptVerdicts {
  byFile: Map<string, RuledOut>;
  changed: boolean;
}

/** The verdicts an earlier process of this walk kept (loaded once per view). */
function keptVerdicts(view: ProjectView): KeptVerdicts {
  return memoize(view, "symbols:kept-ruled-out", () => {
    const saved = loadDerived<[string, RuledOut][]>(view, DERIVED_NAME);
    return { byFile: new Map(Array.isArray(saved) ? saved : []), changed: false };
  });
}

/** Keeps the verdicts for later processes when this load added some (see the module comment). */
function saveVerdicts(view: ProjectView, kept: KeptVerdicts, files: readonly FileStat[]): void {
  if (!kept.changed) return;
  let entries = [...kept.byFile];
  if (JSON.stringify(entries).length > MAX_KEPT_CHARS) {
    const now = new Set(files.map((f) => f.path));
    entries = entries.filter(([f]) => now.has(f));
    if (JSON.stringify(entries).length > MAX_KEPT_CHARS) return;
  }
  saveDerived(view, DERIVED_NAME, entries);
  kept.changed = false;
}

/**
 * The definitions-tier facts of `files` for a query of `name` (see the module comment): files
 * ruled out for `name` before and unchanged since are in `screened` without being read; of the
 * others, those that must be parsed are screened first, and the ones ruled out are kept.
 * @param files as `statFiles` gives them now.
 * @throws ToolError `TIMEOUT` when `signal` aborts (as `loadFacts`).
 */
export async function loadDefinitionFacts(ws: Workspace, view: ProjectView, files: readonly FileStat[], name: string, signal?: AbortSignal): Promise<FactsMap> {
  const kept = keptVerdicts(view);
  const checkedMs = Date.now();
  const ruledOutBefore: string[] = [];
  const toLoad: FileStat[] = [];
  for (const st of files) {
    const k = kept.byFile.get(st.path);
    if (k !== undefined && k.names.includes(name) && keptStatHolds(k.stat, st)) ruledOutBefore.push(st.path);
    else toLoad.push(st);
  }
  const statOf = new Map(toLoad.map((st) => [st.path, st] as const));
  const facts = await loadFacts(ws, toLoad, signal, "definitions", {
    screen: (file, source) => {
      const lang = languageFor(file);
      if (lang === undefined || mayDefine(familyOf(lang), source, name)) return true;
      const st = statOf.get(file);
      if (st !== undefined) {
        const prev = kept.byFile.get(file);
        const names = prev !== undefined && keptStatHolds(prev.stat, st) ? prev.names.filter((n) => n !== name) : [];
        names.push(name);
        kept.byFile.set(file, { stat: keptStat(st, checkedMs), names: names.slice(-MAX_NAMES_PER_FILE) });
        kept.changed = true;
      }
      return false;
    },
  });
  for (const file of ruledOutBefore) facts.screened.add(file);
  saveVerdicts(view, kept, files);
  return facts;
}
