/**
 * The eval HTML report in a real browser: headless Chromium (Debian's `chromium`, driven by
 * `playwright-core`; `.ci/run` installs it) opens the file with the network off; the charts and
 * tables are drawn, the page script ran, and no request left the page. The test also writes the
 * screenshot used in the README (`docs/eval-report.png`) when `CODECITE_WRITE_SCREENSHOT` names a
 * file.
 */
import { existsSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { recommend, renderReport, summarize, type EvalRow } from "../../src/eval/index.js";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";
import { makeTempDir } from "../helpers/temp-tree.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

function row(model: string, id: number, correct: boolean, ms: number, extra: Partial<EvalRow> = {}): EvalRow {
  return {
    model,
    settings: { num_ctx: 8192, toolshim: "auto" },
    question_id: `definition:q${id}`,
    kind: id % 3 === 0 ? "importers" : id % 3 === 1 ? "definition" : "unanswerable",
    question: id === 4 ? `Where is \`fn_${id}\` defined? <script>alert(1)</script>` : ["Which files import `rag_common`?", "Where is `chunk_text` defined?", "Where is `load_vault_token` defined?"][id % 3]!,
    answerable: id % 3 !== 2,
    fingerprint: "f",
    outcome: "ok",
    correct,
    right_tool: correct,
    evidence_recall: correct ? 1 : 0,
    answer_recall: correct ? 1 : 0,
    calls: { native: 1, dialect: 0, inline_json: 0, structural: 0, interpreter: 0, none: 0 },
    citations: { supported: correct ? 1 : 0, seen: 0, unseen: correct ? 0 : 1, invalid: 0 },
    cited: [{ path: `src/m${id}.py`, line: 3, status: correct ? "supported" : "unseen" }],
    answer: correct ? `Defined at src/m${id}.py:3.` : id === 4 ? `It is in src/other.py:40 <img src=x onerror=alert(1)>` : `It is in src/other.py:40.`,
    steps: 1,
    ms,
    ttft_ms: 40,
    prompt_tokens: 900,
    output_tokens: 60,
    tokens_per_second: 30,
    ...extra,
  };
}

describe("eval report in Chromium", () => {
  it.skipIf(CHROMIUM === undefined)("draws the charts and tables offline, with no request leaving the page", async () => {
    const rows: EvalRow[] = [];
    for (let i = 0; i < 9; i++) {
      rows.push(row("qwen3:8b", i, i !== 4, 2000 + i * 10));
      rows.push(row("llama3.1:8b", i, i % 2 === 0, 3500 + i * 10));
      rows.push(row("gemma2:9b", i, i < 3, 1500 + i * 10, { calls: { native: 0, dialect: 1, inline_json: 0, structural: 0, interpreter: 0, none: 0 } }));
    }
    const summaries = summarize(rows);
    const html = renderReport(summaries, rows, recommend(summaries), { root: "/repo", generated_at: "2026-12-01T12:00:00Z", seed: 1 });
    expect(html).not.toMatch(/https?:\/\//);
    const dir = makeTempDir("codecite-report-");
    const file = path.join(dir, "report.html");
    writeFileSync(file, html);

    // Playwright's own waits (launch, navigation, every page action; 30 s by default) are set to the
    // tests' bound for a child process: a loaded machine may take long to start and draw a browser.
    const browser = await chromium.launch({ executablePath: CHROMIUM!, args: ["--no-sandbox"], timeout: CHILD_TIMEOUT_MS });
    try {
      const context = await browser.newContext({ offline: true, viewport: { width: 1200, height: 1600 } });
      context.setDefaultTimeout(CHILD_TIMEOUT_MS);
      const page = await context.newPage();
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(pathToFileURL(file).href);
      expect(await page.getAttribute("body", "data-ready")).toBe("1");
      expect(await page.locator("#score-bars rect.bar").count()).toBe(3);
      expect(await page.locator("#accuracy-latency circle.point").count()).toBe(3);
      // Bars are drawn with a width proportional to accuracy: qwen3 8/9 > llama 5/9 > gemma 3/9.
      const widths = await page.locator("#score-bars rect.bar").evaluateAll((els) => els.map((e) => Number(e.getAttribute("width"))));
      expect(widths[0]!).toBeGreaterThan(widths[1]!);
      expect(widths[1]!).toBeGreaterThan(widths[2]!);
      const box = await page.locator("#accuracy-latency").boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(await page.locator("#by-kind tr").count()).toBe(4);
      expect(await page.locator("#details tr").count()).toBe(4);
      expect(await page.locator("#recommendation").innerText()).toContain("qwen3:8b");
      expect(await page.locator("details.failure").count()).toBe(7);
      // The filter script hides other models' failures.
      await page.selectOption("#failure-filter", "gemma2:9b");
      expect(await page.locator("details.failure:visible").count()).toBe(3);
      // Untrusted text (answers, questions) is shown as text, never run.
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      const shot = path.join(dir, "report.png");
      await page.screenshot({ path: shot, fullPage: false });
      if (process.env.CODECITE_WRITE_SCREENSHOT) copyFileSync(shot, process.env.CODECITE_WRITE_SCREENSHOT);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
