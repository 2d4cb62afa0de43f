/**
 * The tool shim's figures (issue 12 "Done means"), per corpus file and overall, over every case of
 * `test/fixtures/toolcalls*.jsonl` (the vendored corpus and codecite's own cases):
 * - recovered exactly: the calls (names, arguments, order) and the visible content (trimmed,
 *   whitespace runs collapsed) equal the case's, by the deterministic stages;
 * - false calls: calls returned that the case does not have (a name it does not expect, or any
 *   call in a case without calls) — the goal is 0;
 * - interpreter share: of the cases with calls, how many would reach the interpreter (stage 3):
 *   `recover` is run with an interpreter that records that it was asked and returns nothing — the
 *   goal is under 5%.
 *
 * Run: `node --import tsx scripts/shim-measure.ts` (prints a Markdown table);
 * `test/toolshim/measure.test.ts` checks the goals.
 */
import { pathToFileURL } from "node:url";
import { schemaValidator } from "../src/tools/schema-validator.js";
import { recover } from "../src/toolshim/recover.js";
import type { OfferedTool, RawCall } from "../src/toolshim/types.js";
import { allCases } from "./leave-one-out.js";

/** Figures of one set of cases. */
export interface ShimFigures {
  corpus: string;
  cases: number;
  exact: number;
  /** Cases whose calls include one the case does not have. */
  falseCalls: number;
  /** Cases with calls. */
  withCalls: number;
  /** Of those, cases where the interpreter would be asked. */
  interpreterAsked: number;
}

const collapse = (s: string): string => s.trim().replace(/\s+/g, " ");

/** Figures per corpus file (`file` field of each case) and a `total` row, in file order. */
export async function measure(): Promise<ShimFigures[]> {
  const rows = new Map<string, ShimFigures>();
  const total: ShimFigures = { corpus: "total", cases: 0, exact: 0, falseCalls: 0, withCalls: 0, interpreterAsked: 0 };
  for (const c of allCases()) {
    const row = rows.get(c.file) ?? { corpus: c.file, cases: 0, exact: 0, falseCalls: 0, withCalls: 0, interpreterAsked: 0 };
    rows.set(c.file, row);
    const tools: OfferedTool[] = c.tools.map((name) => (c.tool_schemas?.[name] ? { name, parameters: c.tool_schemas[name] } : { name }));
    let asked = false;
    const interpreter = {
      interpret: (): Promise<RawCall[]> => {
        asked = true;
        return Promise.resolve([]);
      },
    };
    // As the agent runs it: the one argument validator judges the typed arguments.
    const r = await recover({ content: c.raw }, tools, { interpreter, validate: schemaValidator(tools) });
    const calls = r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }));
    const exact = JSON.stringify(calls) === JSON.stringify(c.expected) && collapse(r.content) === collapse(c.content_after);
    const expectedNames = new Set(c.expected.map((e) => e.name));
    const falseCall = calls.some((x) => !expectedNames.has(x.name));
    for (const f of [row, total]) {
      f.cases++;
      if (exact) f.exact++;
      if (falseCall) f.falseCalls++;
      if (c.expected.length > 0) {
        f.withCalls++;
        if (asked) f.interpreterAsked++;
      }
    }
  }
  return [...rows.values(), total];
}

const pct = (n: number, d: number): string => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)}%`);

/** The figures as a Markdown table. */
export function renderFigures(rows: readonly ShimFigures[]): string {
  return [
    "| corpus | cases | recovered exactly | false calls | cases with calls | interpreter asked |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.corpus} | ${r.cases} | ${r.exact} (${pct(r.exact, r.cases)}) | ${r.falseCalls} | ${r.withCalls} | ${r.interpreterAsked} (${pct(r.interpreterAsked, r.withCalls)}) |`,
    ),
  ].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(renderFigures(await measure()) + "\n");
}
