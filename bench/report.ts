/**
 * Benchmark rows and their rendering: one row per speed goal, each a ratio of our median
 * to a reference measured in the same run (or an absolute figure for memory and agent
 * overhead), with the goal and whether it holds.
 */

export type RowStatus = "met" | "missed" | "unavailable" | "reference missing" | "error";

export interface Row {
  id: string;
  /** What is measured (ours). */
  measure: string;
  /** The reference it is compared with (command line or description). */
  reference: string;
  /** Our median, ms (or MB / tokens for absolute rows; see `unit`). */
  ours?: number;
  /** The reference's median, same unit. */
  ref?: number;
  unit: "ms" | "MB" | "tokens" | "ms/step";
  /** ours / ref, for ratio rows. */
  ratio?: number;
  /** Goal: the highest acceptable ratio (ratio rows) or value (absolute rows). */
  goal: number;
  /** Whether the goal is a ratio (`≤ 1.3×`) or an absolute bound (`≤ 600 MB`). */
  goalKind: "ratio" | "absolute";
  status: RowStatus;
  /** Individual samples, for the JSON report. */
  samples?: { ours?: number[]; ref?: number[] };
  /** Correctness check of our answer against the corpus manifest. */
  check?: string;
  note?: string;
}

const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Fills `ratio` and `status` from the figures (unless the row is already unavailable/missing/error). */
export function finish(row: Row): Row {
  if (row.status !== "met" && row.status !== "missed") return row;
  if (row.goalKind === "ratio") {
    if (row.ours === undefined || row.ref === undefined || row.ref <= 0) return { ...row, status: "error", note: row.note ?? "no figures" };
    const ratio = row.ours / row.ref;
    return { ...row, ratio: round(ratio, 2), status: ratio <= row.goal ? "met" : "missed" };
  }
  if (row.ours === undefined) return { ...row, status: "error" };
  return { ...row, status: row.ours <= row.goal ? "met" : "missed" };
}

/** A row whose own function could not be loaded or run yet. */
export function unavailable(base: Omit<Row, "status">, why: string): Row {
  return { ...base, status: "unavailable", note: why };
}

function fmt(x: number | undefined, unit: Row["unit"]): string {
  if (x === undefined || Number.isNaN(x)) return "-";
  if (unit === "MB") return `${round(x, 0)} MB`;
  if (unit === "tokens") return `${Math.round(x)} tok`;
  if (unit === "ms/step") return `${round(x, 2)} ms`;
  if (x >= 10_000) return `${round(x / 1000, 1)} s`;
  if (x >= 100) return `${Math.round(x)} ms`;
  return `${round(x, 2)} ms`;
}

/** The table printed at the end of `npm run bench`. */
export function renderTable(rows: readonly Row[]): string {
  const header = ["measure", "ours", "reference", "ratio", "goal", "status", "check"];
  const lines = rows.map((r) => [
    r.measure,
    fmt(r.ours, r.unit),
    r.ref === undefined ? r.reference : `${fmt(r.ref, r.unit)} (${r.reference})`,
    r.ratio === undefined ? "-" : `${r.ratio.toFixed(2)}×`,
    r.goalKind === "ratio" ? `≤ ${r.goal}×` : `≤ ${r.goal} ${r.unit === "ms/step" ? "ms/step" : r.unit}`,
    r.status,
    r.check ?? "",
  ]);
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...lines.map((l) => (l[i] as string).length))));
  const cut = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  const out = [header.map((h, i) => cut(h, widths[i] as number)).join("  ")];
  out.push(widths.map((w) => "-".repeat(w)).join("  "));
  for (const l of lines) out.push(l.map((c, i) => cut(c, widths[i] as number)).join("  "));
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.measure}: ${r.note}`);
  if (notes.length) out.push("", "notes:", ...notes);
  return out.join("\n");
}
