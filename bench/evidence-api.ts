/**
 * Loads the evidence functions from the compiled tree (`dist/`), each on its own, so that a
 * missing or broken module makes only its rows "unavailable" instead of failing the benchmark.
 * The signatures are the agreed internal APIs (notes/TEAM.md): `Workspace.open(root)`,
 * `searchCode(ws, args)`, `findImporters(ws, args)`, `findSymbol(ws, args)`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The parts of an EvidenceResult the benchmark reads. */
export interface ResultLike {
  evidence: { path: string; start_line: number; end_line: number; kind: string; name: string }[];
  total: number;
  truncated: boolean;
  note?: string;
}

export type EvidenceFn = (ws: unknown, args: Record<string, unknown>) => Promise<ResultLike> | ResultLike;

export interface EvidenceApi {
  openWorkspace?: (root: string) => Promise<unknown>;
  searchCode?: EvidenceFn;
  findImporters?: EvidenceFn;
  findSymbol?: EvidenceFn;
  findReferences?: EvidenceFn;
  /** Why each missing piece is missing. */
  missing: Record<string, string>;
}

async function load(dist: string, file: string, name: string): Promise<{ value?: unknown; why?: string }> {
  const abs = path.join(dist, file);
  if (!existsSync(abs)) return { why: `${path.relative(process.cwd(), abs)} not built` };
  try {
    const mod = (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
    if (mod[name] === undefined) return { why: `${file} has no export ${name}` };
    return { value: mod[name] };
  } catch (err) {
    return { why: `importing ${file} failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
}

/** Loads what exists under `dist` (the compiled `src/`). */
export async function loadEvidenceApi(dist: string): Promise<EvidenceApi> {
  const api: EvidenceApi = { missing: {} };
  const ws = await load(dist, "evidence/sandbox/workspace.js", "Workspace");
  if (ws.value) {
    const W = ws.value as { open?: (root: string) => Promise<unknown> };
    if (typeof W.open === "function") api.openWorkspace = (root) => (W.open as (r: string) => Promise<unknown>)(root);
    else api.missing.Workspace = "Workspace.open is not a function";
  } else api.missing.Workspace = ws.why as string;
  const fns: [keyof Omit<EvidenceApi, "missing" | "openWorkspace">, string, string][] = [
    ["searchCode", "evidence/search.js", "searchCode"],
    ["findImporters", "evidence/importers.js", "findImporters"],
    ["findSymbol", "evidence/symbols.js", "findSymbol"],
    ["findReferences", "evidence/references.js", "findReferences"],
  ];
  for (const [key, file, name] of fns) {
    const r = await load(dist, file, name);
    if (typeof r.value === "function") api[key] = r.value as EvidenceFn;
    else api.missing[key] = r.why ?? `${name} is not a function`;
  }
  return api;
}
