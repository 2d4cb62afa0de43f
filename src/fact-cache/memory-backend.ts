/**
 * In-memory fact backend: a Map, lost when the process exits. Used when the cache folder is
 * unwritable, is inside the project, or SQLite is unavailable, and in tests.
 */
import type { FactBackend, FactRow, RowRefresh } from "./fact-backend.js";

export class MemoryBackend implements FactBackend {
  readonly kind = "memory" as const;
  readonly #rows = new Map<string, FactRow>();

  get(path: string): FactRow | undefined {
    return this.#rows.get(path);
  }

  putMany(rows: readonly FactRow[]): void {
    for (const row of rows) this.#rows.set(row.path, { ...row });
  }

  refreshMany(rows: readonly RowRefresh[]): void {
    for (const r of rows) {
      const row = this.#rows.get(r.path);
      if (row && row.hash === r.hash && row.version === r.version) {
        row.size = r.size;
        row.mtimeMs = r.mtimeMs;
        row.checkedMs = r.checkedMs;
      }
    }
  }

  deleteMany(paths: readonly string[]): void {
    for (const p of paths) this.#rows.delete(p);
  }

  paths(): string[] {
    return [...this.#rows.keys()];
  }

  all(): FactRow[] {
    return [...this.#rows.values()].map((r) => ({ ...r }));
  }

  close(): void {
    this.#rows.clear();
  }
}
