/**
 * In-memory fact backend: a Map, lost when the process exits. Used when the cache folder is
 * unwritable, is inside the project, or SQLite is unavailable, and in tests.
 */
import type { FactBackend, FactRow, RowRefresh } from "./fact-backend.js";

export class MemoryBackend implements FactBackend {
  readonly kind = "memory" as const;
  readonly #rows = new Map<string, FactRow>();
  readonly #meta = new Map<string, string>();

  get(path: string, withDetail: boolean): FactRow | undefined {
    const row = this.#rows.get(path);
    return row && !withDetail ? { ...row, detail: null } : row;
  }

  putMany(rows: readonly FactRow[]): void {
    for (const row of rows) {
      const old = this.#rows.get(row.path);
      const keep = row.detail === null && old !== undefined && old.hash === row.hash && old.version === row.version;
      this.#rows.set(row.path, { ...row, detail: keep ? old.detail : row.detail });
    }
  }

  refreshMany(rows: readonly RowRefresh[]): void {
    for (const r of rows) {
      const row = this.#rows.get(r.path);
      if (row && row.hash === r.hash && row.version === r.version) {
        row.size = r.size;
        row.mtimeMs = r.mtimeMs;
        row.ctimeMs = r.ctimeMs;
        row.ino = r.ino;
        row.checkedMs = r.checkedMs;
      }
    }
  }

  deleteMany(paths: readonly string[]): void {
    for (const p of paths) this.#rows.delete(p);
  }

  hasVersion(version: string): boolean {
    for (const row of this.#rows.values()) if (row.version === version) return true;
    return false;
  }

  paths(): string[] {
    return [...this.#rows.keys()];
  }

  all(): FactRow[] {
    return [...this.#rows.values()].map((r) => ({ ...r }));
  }

  getMeta(key: string): string | undefined {
    return this.#meta.get(key);
  }

  putMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.#meta.delete(key);
    else this.#meta.set(key, value);
  }

  clear(): void {
    this.#rows.clear();
  }

  close(): void {
    this.#rows.clear();
    this.#meta.clear();
  }
}
