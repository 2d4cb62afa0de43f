/**
 * Leave-one-dialect-out check (issue 12): for every dialect module, take the registry without it
 * and run that dialect's cases (the corpora `test/fixtures/toolcalls*.jsonl`, cases with calls)
 * through the rest of the pipeline. A case is recovered exactly when the calls (names, arguments,
 * order) and the visible content (trimmed, whitespace runs collapsed) equal the case's; the
 * figure that matters is how many the structural stage recovers, which shows how the shim meets a
 * format nobody has listed yet.
 *
 * Run: `node --import tsx scripts/leave-one-out.ts` (prints a Markdown table).
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { schemaValidator } from "../src/tools/schema-validator.js";
import { DIALECTS } from "../src/toolshim/dialects/index.js";
import { recoverDeterministic } from "../src/toolshim/recover.js";
import type { OfferedTool } from "../src/toolshim/types.js";

/** One corpus case. */
export interface Case {
  id: string;
  family: string;
  raw: string;
  tools: string[];
  tool_schemas?: Record<string, Record<string, unknown>>;
  expected: { name: string; arguments: unknown }[];
  content_after: string;
  /** The corpus file the case comes from (set by {@link allCases}). */
  file: string;
}

/** One dialect's row. */
export interface LeaveOneOutRow {
  family: string;
  /** Cases of this family that hold calls. */
  cases: number;
  /** Recovered exactly by the rest of the pipeline, any stage. */
  exact: number;
  /** Of those, recovered by the structural stage. */
  structural: number;
  /** Cases where the rest of the pipeline returned a call the case does not have. */
  falseCalls: number;
  /** Cases of this family without calls (decoys, quoted markup, tools not offered). */
  negatives: number;
  /** Of those, cases where the rest of the pipeline returned a call. */
  negativeFalseCalls: number;
}

const FIXTURES = fileURLToPath(new URL("../test/fixtures/", import.meta.url));
const collapse = (s: string): string => s.trim().replace(/\s+/g, " ");

/** Every case of every `toolcalls*.jsonl` corpus. */
export function allCases(): Case[] {
  return readdirSync(FIXTURES)
    .filter((f) => /^toolcalls.*\.jsonl$/.test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(FIXTURES + f, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => ({ ...(JSON.parse(l) as Omit<Case, "file">), file: f })),
    );
}

function toolsOf(c: Case): OfferedTool[] {
  return c.tools.map((name) => (c.tool_schemas?.[name] ? { name, parameters: c.tool_schemas[name] } : { name }));
}

/** The table, one row per dialect with call cases, in registry order. */
export function leaveOneOut(cases: readonly Case[] = allCases()): LeaveOneOutRow[] {
  const rows: LeaveOneOutRow[] = [];
  for (const d of DIALECTS) {
    const own = cases.filter((c) => c.family === d.family && c.expected.length > 0);
    if (own.length === 0) continue;
    const rest = DIALECTS.filter((x) => x !== d);
    const negatives = cases.filter((c) => c.family === d.family && c.expected.length === 0);
    const row: LeaveOneOutRow = { family: d.family, cases: own.length, exact: 0, structural: 0, falseCalls: 0, negatives: negatives.length, negativeFalseCalls: 0 };
    for (const c of negatives) {
      if (recoverDeterministic({ content: c.raw }, toolsOf(c), { dialects: rest, validate: schemaValidator(toolsOf(c)) }).tool_calls.length > 0) row.negativeFalseCalls++;
    }
    for (const c of own) {
      const r = recoverDeterministic({ content: c.raw }, toolsOf(c), { dialects: rest, validate: schemaValidator(toolsOf(c)) });
      const calls = r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }));
      const same = JSON.stringify(calls) === JSON.stringify(c.expected) && collapse(r.content) === collapse(c.content_after);
      if (same) {
        row.exact++;
        if (r.recovered_by === "structural") row.structural++;
      }
      const expectedNames = new Set(c.expected.map((e) => e.name));
      if (calls.some((x) => !expectedNames.has(x.name))) row.falseCalls++;
    }
    rows.push(row);
  }
  return rows;
}

/** The rows as a Markdown table with a total line. */
export function renderTable(rows: readonly LeaveOneOutRow[]): string {
  const sum = (k: keyof Omit<LeaveOneOutRow, "family">) => rows.reduce((n, r) => n + r[k], 0);
  const lines = [
    "| dialect left out | call cases | exact (any stage) | exact by structural | false calls | cases without calls | false calls on them |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.family} | ${r.cases} | ${r.exact} | ${r.structural} | ${r.falseCalls} | ${r.negatives} | ${r.negativeFalseCalls} |`),
    `| **total** | ${sum("cases")} | ${sum("exact")} | ${sum("structural")} | ${sum("falseCalls")} | ${sum("negatives")} | ${sum("negativeFalseCalls")} |`,
  ];
  return lines.join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(renderTable(leaveOneOut()) + "\n");
}
