/**
 * Where a path written in an answer leads in the repository, for the agent's grounding check:
 * the repository-relative path and its line count, or why it is not a citable file. The path
 * is checked through the Workspace (lexical rules, deny-list, symbolic links leaving the
 * root), so nothing outside the root or on the deny-list is ever read.
 *
 * A path that is not a repository path but the end of exactly one walkable file's path
 * (`sessions.py` → `src/requests/sessions.py`, `requests/sessions.py` → the same) resolves to
 * that file; two or more such files make it ambiguous and they are named (at most
 * {@link MAX_CANDIDATES}).
 */
import { ToolError } from "../evidence/evidence.js";
import { treeSnapshot } from "../evidence/analysis/project-view.js";
import type { Workspace } from "../evidence/sandbox/workspace.js";

/** Candidates named for an ambiguous file name. */
const MAX_CANDIDATES = 5;

/** A cited path as found in the repository, or why it is not a citable file. */
export type LocatedFile =
  | { ok: true; path: string; lines: number }
  | { ok: false; reason: string; candidates?: string[] };

async function lineCount(ws: Workspace, rel: string): Promise<LocatedFile> {
  try {
    const f = await ws.readText(rel);
    return { ok: true, path: f.path, lines: f.lines.length };
  } catch (err) {
    if (err instanceof ToolError) return { ok: false, reason: `${err.code}: ${err.message}` };
    return { ok: false, reason: `${rel} cannot be read` };
  }
}

/**
 * Looks `path` up (see the module comment). Never throws: every failure is a `reason`
 * (`DENIED: …`, `OUTSIDE_ROOT: …`, `NOT_FOUND: …`, or an ambiguous name with `candidates`).
 */
export async function locateFile(ws: Workspace, path: string, signal?: AbortSignal): Promise<LocatedFile> {
  const exact = await lineCount(ws, path);
  if (exact.ok || !exact.reason.startsWith("NOT_FOUND")) return exact;
  let files: readonly string[];
  try {
    files = (await treeSnapshot(ws, signal ? { signal } : {})).files;
  } catch {
    return exact;
  }
  const tail = `/${path.replace(/^\/+/, "")}`;
  const matches = files.filter((f) => f.endsWith(tail));
  if (matches.length === 1) return lineCount(ws, matches[0]!);
  if (matches.length > 1) {
    return {
      ok: false,
      reason: `${matches.length} files are named ${path}; cite the full path`,
      candidates: matches.slice(0, MAX_CANDIDATES),
    };
  }
  return { ok: false, reason: `NOT_FOUND: no file ${path} in the repository` };
}
