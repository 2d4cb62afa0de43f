/**
 * Child process for the two-writer test: waits for "go" on stdin, then opens the store and
 * writes `count` entries named `<prefix>/<i>.py` in transactions of `batch`, reading each batch
 * back. Prints one JSON line: {kind, reason, dropped, readBack}.
 * Usage: node --import tsx store-writer.ts <root> <cacheDir> <prefix> <count> <batch>
 */
import { createInterface } from "node:readline";
import { FactStore } from "../../../src/fact-cache/fact-store.js";

const [root, dir, prefix, count, batch] = process.argv.slice(2) as [string, string, string, string, string];

export function writeEntries(store: FactStore, pre: string, n: number, size: number): number {
  let readBack = 0;
  for (let start = 0; start < n; start += size) {
    const entries = [];
    for (let i = start; i < Math.min(n, start + size); i++) {
      entries.push({ path: `${pre}/${i}.py`, size: i, mtimeMs: 1, hash: `${pre}${i}`, value: { i, pre }, checkedMs: 1e13 });
    }
    store.putMany(entries);
    for (const e of entries) if (store.get(e.path, e.size, 1)) readBack++;
  }
  return readBack;
}

if (process.argv[1]?.endsWith("store-writer.ts")) {
  process.stdout.write("ready\n");
  const rl = createInterface({ input: process.stdin });
  rl.once("line", () => {
    rl.close();
    process.stdin.destroy();
    const store = FactStore.open(root, { version: "two-writers", dir });
    const readBack = writeEntries(store, prefix, Number(count), Number(batch));
    process.stdout.write(
      `${JSON.stringify({ kind: store.kind, reason: store.reason ?? null, dropped: store.droppedWrites, readBack })}\n`,
    );
    store.close();
  });
}
