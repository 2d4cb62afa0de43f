/**
 * "Did you mean" for empty results: the candidate names closest to what was asked, for a `note`.
 * Ranking: same name in another case, then edit distance (Levenshtein with adjacent
 * transpositions, at most 1 for names up to 4 characters, 2 up to 8, 3 beyond), then names that
 * contain the query or are contained in it (case-insensitive, at least 3 characters).
 */

/**
 * Optimal-string-alignment distance (Levenshtein with adjacent transpositions), stopping early
 * once every entry of a row exceeds `max` (then `max + 1`). Also the tool shim's measure of a
 * misspelt tool name (`toolshim/policy.ts`).
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      cur.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}

/** The largest edit distance at which a name counts as close to `query` (see the module comment). */
export function allowedDistance(query: string): number {
  return query.length <= 4 ? 1 : query.length <= 8 ? 2 : 3;
}

/**
 * Up to `limit` names from `candidates` close to `query`, best first (see the module comment);
 * the query itself is never returned. Deterministic: ties are broken by name.
 */
export function closeNames(query: string, candidates: Iterable<string>, limit = 5): string[] {
  const q = query.toLowerCase();
  const max = allowedDistance(query);
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    if (name === query || seen.has(name)) continue;
    seen.add(name);
    const n = name.toLowerCase();
    let score: number | undefined;
    if (n === q) score = 0;
    else {
      const d = editDistance(q, n, max);
      if (d <= max) score = d;
      else if (q.length >= 3 && (n.includes(q) || (n.length >= 3 && q.includes(n)))) score = max + 1 + Math.abs(n.length - q.length) / 100;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.name);
}
