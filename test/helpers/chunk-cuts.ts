/**
 * Cutting a model's raw output into streamed chunks for the parity tests (the tool shim's stream
 * filter and serve's shim turn must give what the whole text gives, however it arrives).
 */

/** Cut positions between the two halves of a surrogate pair of `raw` (a chunk ending inside an emoji). */
export function surrogateCuts(raw: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < raw.length; i++) {
    const hi = raw.charCodeAt(i - 1);
    const lo = raw.charCodeAt(i);
    if (hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff) cuts.push(i);
  }
  return cuts;
}

/** `raw` cut at `cuts` (any order, duplicates and ends ignored). */
export function cutAt(raw: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts)].filter((k) => k > 0 && k < raw.length).sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const k of at) {
    chunks.push(raw.slice(from, k));
    from = k;
  }
  chunks.push(raw.slice(from));
  return chunks;
}
