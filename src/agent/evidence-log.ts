/**
 * What an agent session has learned: every evidence record from successful tool results
 * (deduplicated, in order of arrival) and the first result of every distinct call, so that an
 * identical repeated call is answered from it instead of running the tool again.
 */
import type { Evidence } from "../tools/index.js";
import type { DispatchResult } from "../tools/registry.js";

/** JSON with object keys sorted at every level: equal arguments give equal keys. */
export function stableStringify(value: unknown): string {
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
}
