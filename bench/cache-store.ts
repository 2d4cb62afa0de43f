/**
 * Cache store comparison: the SQLite FactStore against the simplest alternative, one NDJSON
 * file rewritten atomically (write a temp file, then rename), for N files of realistic facts.
 * Measures: write everything, load everything, N per-file lookups, update one file, size on disk.
 *
 * Run alone: `node --import tsx bench/cache-store.ts [--files N] [--runs N]`.
 */
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FactStore, type FactEntry } from "../src/fact-cache/fact-store.js";
import { median, timeMs } from "./stats.js";

interface Facts {
  symbols: { name: string; container?: string; kind: string; start_line: number; end_line: number }[];
  imports: { specifier: string; names?: string[]; start_line: number; end_line: number; flags?: string[] }[];
}

/** Deterministic facts of a mid-sized module: 24 definitions and 9 imports (about 2.5 KB of JSON). */
function factsFor(i: number): Facts {
  const symbols: Facts["symbols"] = [];
  for (let k = 0; k < 24; k++) {
    symbols.push({
      name: `handle_item_${i}_${k}`,
      ...(k % 3 ? { container: `Service${i % 97}` } : {}),
      kind: k % 3 ? "method" : "function",
      start_line: 10 + k * 20,
      end_line: 28 + k * 20,
    });
  }
  const imports: Facts["imports"] = [];
  for (let k = 0; k < 9; k++) {
    imports.push({
      specifier: `acme.pkg${(i + k) % 70}.module_${(i * 7 + k) % 100}`,
      names: [`Thing${k}`, `helper_${k}`],
      start_line: 1 + k,
      end_line: 1 + k,
      ...(k === 8 ? { flags: ["type_checking"] } : {}),
    });
  }
  return { symbols, imports };
}

/** The simple alternative: every entry as one JSON line; saved by writing a temp file and renaming it. */
class NdjsonStore {
  constructor(readonly file: string) {}
  load(): Map<string, FactEntry<Facts>> {
    const map = new Map<string, FactEntry<Facts>>();
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return map;
    }
    for (const line of text.split("\n")) {
      if (!line) continue;
      const e = JSON.parse(line) as FactEntry<Facts>;
      map.set(e.path, e);
    }
    return map;
  }
  save(map: Map<string, FactEntry<Facts>>): void {
    const parts: string[] = [];
    for (const e of map.values()) parts.push(JSON.stringify(e));
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, parts.join("\n") + "\n");
    renameSync(tmp, this.file);
  }
}

export interface StoreRow {
  operation: string;
  sqlite_ms: number;
  ndjson_ms: number;
}

export interface StoreComparison {
  files: number;
  runs: number;
  rows: StoreRow[];
  sqlite_bytes: number;
  ndjson_bytes: number;
}

/** Runs the comparison in a temporary folder (removed afterwards). Values are medians over `runs`. */
export async function compareCacheStores(files = 5000, runs = 5): Promise<StoreComparison> {
  const tmp = mkdtempSync(path.join(tmpdir(), "codecite-bench-store-"));
  const entries: FactEntry<Facts>[] = Array.from({ length: files }, (_, i) => ({
    path: `src/acme/pkg${i % 70}/module_${i}.py`,
    size: 30_000 + i,
    mtimeMs: 1_700_000_000_000 + i,
    hash: i.toString(16).padStart(40, "0"),
    checkedMs: 1_800_000_000_000,
    value: factsFor(i),
  }));
  const samples: Record<string, { sqlite: number[]; ndjson: number[] }> = {};
  const add = (op: string, kind: "sqlite" | "ndjson", ms: number) => {
    samples[op] ??= { sqlite: [], ndjson: [] };
    samples[op][kind].push(ms);
  };
  let sqliteBytes = 0;
  let ndjsonBytes = 0;
  try {
    for (let r = 0; r < runs; r++) {
      const root = path.join(tmp, `root${r}`);
      const dir = path.join(tmp, `cache${r}`);
      // SQLite
      add("write all (empty cache)", "sqlite", (await timeMs(() => {
        const s = FactStore.open(root, { version: "bench", dir });
        s.putMany(entries);
        s.close();
      })).ms);
      add("load all (open + read + JSON.parse)", "sqlite", (await timeMs(() => {
        const s = FactStore.open(root, { version: "bench", dir });
        const n = s.entries().length;
        s.close();
        if (n !== files) throw new Error(`sqlite loaded ${n}`);
      })).ms);
      add(`${files} per-file stat lookups`, "sqlite", (await timeMs(() => {
        const s = FactStore.open(root, { version: "bench", dir });
        let hits = 0;
        for (const e of entries) if (s.get(e.path, e.size, e.mtimeMs)) hits++;
        s.close();
        if (hits !== files) throw new Error(`sqlite hits ${hits}`);
      })).ms);
      const s = FactStore.open(root, { version: "bench", dir });
      const edited = { ...(entries[17] as FactEntry<Facts>), mtimeMs: 1_750_000_000_000 };
      add("update one file (store open)", "sqlite", (await timeMs(() => s.putMany([edited]))).ms);
      sqliteBytes = statSync(s.file as string).size;
      s.close();
      // NDJSON
      const nd = new NdjsonStore(path.join(tmp, `facts${r}.ndjson`));
      add("write all (empty cache)", "ndjson", (await timeMs(() => nd.save(new Map(entries.map((e) => [e.path, e]))))).ms);
      let loaded = new Map<string, FactEntry<Facts>>();
      add("load all (open + read + JSON.parse)", "ndjson", (await timeMs(() => {
        loaded = nd.load();
        if (loaded.size !== files) throw new Error(`ndjson loaded ${loaded.size}`);
      })).ms);
      add(`${files} per-file stat lookups`, "ndjson", (await timeMs(() => {
        const m = nd.load();
        let hits = 0;
        for (const e of entries) {
          const x = m.get(e.path);
          if (x && x.size === e.size && x.mtimeMs === e.mtimeMs) hits++;
        }
        if (hits !== files) throw new Error(`ndjson hits ${hits}`);
      })).ms);
      add("update one file (store open)", "ndjson", (await timeMs(() => {
        loaded.set(edited.path, edited);
        nd.save(loaded);
      })).ms);
      ndjsonBytes = statSync(nd.file).size;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return {
    files,
    runs,
    rows: Object.entries(samples).map(([operation, s]) => ({
      operation,
      sqlite_ms: round(median(s.sqlite)),
      ndjson_ms: round(median(s.ndjson)),
    })),
    sqlite_bytes: sqliteBytes,
    ndjson_bytes: ndjsonBytes,
  };
}

const round = (x: number) => Math.round(x * 10) / 10;

if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join("bench", "cache-store.ts"))) {
  const arg = (name: string, d: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const result = await compareCacheStores(arg("--files", 5000), arg("--runs", 5));
  console.log(`cache store, ${result.files} files, median of ${result.runs} runs`);
  for (const r of result.rows) {
    console.log(`${r.operation.padEnd(40)} sqlite ${String(r.sqlite_ms).padStart(8)} ms   ndjson ${String(r.ndjson_ms).padStart(8)} ms`);
  }
  console.log(`size on disk: sqlite ${(result.sqlite_bytes / 1e6).toFixed(1)} MB, ndjson ${(result.ndjson_bytes / 1e6).toFixed(1)} MB`);
}
