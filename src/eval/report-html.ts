/**
 * The HTML report of `codecite eval`: one self-contained file (inline CSS, SVG and a few lines of
 * script; no external request of any kind) with the recommendation, a score bar per model and
 * setting, an accuracy-versus-latency chart, accuracy by question kind, how tool calls arrived,
 * citation statuses, and failure examples (question, answer, citations with their statuses).
 */
import { settingsLabel, type EvalRow } from "./score.js";
import { rank, type ModelSummary, type Recommendation } from "./summary.js";

/** What the report shows besides the rows. */
export interface ReportMeta {
  root: string;
  /** ISO time of the run. */
  generated_at: string;
  seed?: number;
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** HTML-escapes text (also for attribute values). */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;
const label = (s: ModelSummary): string => `${s.model} · ${settingsLabel(s.settings)}`;
const COLORS = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280", "#2c7a7b", "#975a16", "#4a5568"];

function scoreBars(summaries: readonly ModelSummary[]): string {
  const rowH = 28;
  const labelW = 260;
  const barW = 420;
  const h = summaries.length * rowH + 10;
  const bars = summaries
    .map((s, i) => {
      const y = 5 + i * rowH;
      const w = Math.max(1, Math.round(s.accuracy * barW));
      return (
        `<text x="${labelW - 8}" y="${y + 18}" text-anchor="end" class="lbl">${escapeHtml(label(s))}</text>` +
        `<rect class="bar" x="${labelW}" y="${y + 4}" width="${w}" height="${rowH - 10}" fill="${COLORS[i % COLORS.length]}"><title>${escapeHtml(label(s))}: ${s.correct}/${s.questions}</title></rect>` +
        `<text x="${labelW + w + 6}" y="${y + 18}" class="val">${pct(s.accuracy)} (${s.correct}/${s.questions})</text>`
      );
    })
    .join("");
  return `<svg id="score-bars" role="img" aria-label="accuracy per model" width="${labelW + barW + 120}" height="${h}" viewBox="0 0 ${labelW + barW + 120} ${h}">${bars}</svg>`;
}

function scatter(summaries: readonly ModelSummary[]): string {
  const W = 640;
  const H = 360;
  const pad = { l: 56, r: 110, t: 16, b: 44 };
  const maxMs = Math.max(1, ...summaries.map((s) => s.median_ms)) * 1.1;
  const x = (ms: number) => pad.l + (ms / maxMs) * (W - pad.l - pad.r);
  const y = (acc: number) => H - pad.b - acc * (H - pad.t - pad.b);
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((t) => `<line x1="${pad.l}" x2="${W - pad.r}" y1="${y(t)}" y2="${y(t)}" class="grid"/><text x="${pad.l - 6}" y="${y(t) + 4}" text-anchor="end" class="tick">${pct(t)}</text>`)
    .join("");
  const xticks = [0, 0.5, 1]
    .map((f) => `<text x="${x(maxMs * f)}" y="${H - pad.b + 16}" text-anchor="middle" class="tick">${Math.round((maxMs * f) / 100) / 10} s</text>`)
    .join("");
  const points = summaries
    .map(
      (s, i) =>
        `<circle class="point" cx="${x(s.median_ms).toFixed(1)}" cy="${y(s.accuracy).toFixed(1)}" r="7" fill="${COLORS[i % COLORS.length]}"><title>${escapeHtml(label(s))}: ${pct(s.accuracy)}, median ${Math.round(s.median_ms)} ms</title></circle>` +
        `<text x="${(x(s.median_ms) + 10).toFixed(1)}" y="${(y(s.accuracy) - 8).toFixed(1)}" class="lbl">${escapeHtml(s.model)}</text>`,
    )
    .join("");
  return (
    `<svg id="accuracy-latency" role="img" aria-label="accuracy versus median latency" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `${ticks}${xticks}<line x1="${pad.l}" x2="${pad.l}" y1="${pad.t}" y2="${H - pad.b}" class="axis"/><line x1="${pad.l}" x2="${W - pad.r}" y1="${H - pad.b}" y2="${H - pad.b}" class="axis"/>` +
    `<text x="${(W + pad.l) / 2}" y="${H - 8}" text-anchor="middle" class="tick">median time per question</text>${points}</svg>`
  );
}

function kindTable(summaries: readonly ModelSummary[]): string {
  const kinds = [...new Set(summaries.flatMap((s) => Object.keys(s.by_kind)))].sort();
  const head = `<tr><th>model · setting</th>${kinds.map((k) => `<th>${escapeHtml(k)}</th>`).join("")}</tr>`;
  const body = summaries
    .map(
      (s) =>
        `<tr><td>${escapeHtml(label(s))}</td>${kinds
          .map((k) => {
            const b = s.by_kind[k];
            return b ? `<td>${b.correct}/${b.questions}</td>` : "<td>–</td>";
          })
          .join("")}</tr>`,
    )
    .join("");
  return `<table id="by-kind">${head}${body}</table>`;
}

function detailTable(summaries: readonly ModelSummary[]): string {
  const head =
    "<tr><th>model · setting</th><th>accuracy</th><th>right tool</th><th>evidence recall</th><th>native</th><th>dialect</th><th>inline JSON</th><th>structural</th><th>interpreter</th><th>no call</th><th>supported</th><th>seen</th><th>unseen</th><th>invalid</th><th>median</th><th>first token</th><th>tokens/s</th><th>errors</th></tr>";
  const body = summaries
    .map(
      (s) =>
        `<tr><td>${escapeHtml(label(s))}</td><td>${pct(s.accuracy)}</td><td>${pct(s.right_tool)}</td><td>${pct(s.evidence_recall)}</td>` +
        `<td>${s.calls.native}</td><td>${s.calls.dialect}</td><td>${s.calls.inline_json}</td><td>${s.calls.structural}</td><td>${s.calls.interpreter}</td><td>${s.calls.none}</td>` +
        `<td>${s.citations.supported}</td><td>${s.citations.seen}</td><td>${s.citations.unseen}</td><td>${s.citations.invalid}</td>` +
        `<td>${Math.round(s.median_ms)} ms</td><td>${s.median_ttft_ms !== undefined ? `${Math.round(s.median_ttft_ms)} ms` : "–"}</td><td>${s.tokens_per_second ?? "–"}</td><td>${s.errors}</td></tr>`,
    )
    .join("");
  return `<div class="scroll"><table id="details">${head}${body}</table></div>`;
}

function failures(rows: readonly EvalRow[], perModel = 3): string {
  const shown = new Map<string, number>();
  const items: string[] = [];
  for (const r of rows) {
    if (r.correct) continue;
    const k = `${r.model} · ${settingsLabel(r.settings)}`;
    const n = shown.get(k) ?? 0;
    if (n >= perModel) continue;
    shown.set(k, n + 1);
    const cites = r.cited.length
      ? `<ul class="cites">${r.cited.map((c) => `<li class="st-${c.status}">${escapeHtml(`${c.path}:${c.line}`)} — ${c.status}</li>`).join("")}</ul>`
      : "<p class=\"muted\">no citations</p>";
    const answer = r.outcome === "error" ? `<p class="err">error: ${escapeHtml(r.error ?? "")}</p>` : `<pre>${escapeHtml(r.answer.slice(0, 1200))}${r.answer.length > 1200 ? "…" : ""}</pre>`;
    items.push(
      `<details class="failure" data-model="${escapeHtml(r.model)}"><summary>${escapeHtml(k)} — ${escapeHtml(r.kind)}: ${escapeHtml(r.question)}</summary>${answer}${cites}</details>`,
    );
  }
  return items.length ? items.join("") : '<p class="muted">No failures.</p>';
}

const CSS = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1a202c;max-width:1200px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #cbd5e0;padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
th{background:#edf2f7}.rec{background:#f0fff4;border:1px solid #9ae6b4;padding:10px 14px;border-radius:6px}
.lbl{font-size:12px}.val,.tick{font-size:11px;fill:#4a5568}.grid{stroke:#e2e8f0}.axis{stroke:#718096}
pre{white-space:pre-wrap;background:#f7fafc;padding:8px;border:1px solid #e2e8f0}.muted{color:#718096}.err{color:#c53030}
.st-supported{color:#2f855a}.st-seen{color:#2b6cb0}.st-unseen{color:#c05621}.st-invalid{color:#c53030}
details{margin:6px 0}summary{cursor:pointer}.scroll{overflow-x:auto}`;

const SCRIPT = `(function(){var s=document.getElementById("failure-filter");if(!s)return;s.addEventListener("change",function(){var v=s.value;document.querySelectorAll("details.failure").forEach(function(d){d.style.display=!v||d.getAttribute("data-model")===v?"":"none";});});document.body.setAttribute("data-ready","1");})();`;

/**
 * The report as one HTML document.
 * @param summaries per model × setting (`summarize`); shown best first.
 */
export function renderReport(summaries: readonly ModelSummary[], rows: readonly EvalRow[], recommendation: Recommendation | undefined, meta: ReportMeta): string {
  const ranked = rank(summaries);
  const models = [...new Set(rows.map((r) => r.model))];
  const rec = recommendation
    ? `<p class="rec" id="recommendation">Recommended: <b>${escapeHtml(recommendation.model)}</b> with num_ctx ${recommendation.settings.num_ctx}, tool shim ${escapeHtml(recommendation.settings.toolshim)}${recommendation.settings.prefetch === true ? ", prefetch on" : ""} — ${pct(recommendation.accuracy)} correct, median ${Math.round(recommendation.median_ms)} ms per question.</p>`
    : '<p class="rec" id="recommendation">No model answered any question without an error.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>codecite eval — ${escapeHtml(meta.root)}</title><style>${CSS}</style></head>
<body>
<h1>codecite eval</h1>
<p class="muted">${escapeHtml(meta.root)} · ${rows.length} results · ${new Set(rows.map((r) => r.question_id)).size} questions · ${escapeHtml(meta.generated_at)}${meta.seed !== undefined ? ` · seed ${meta.seed}` : ""}</p>
${rec}
<h2>Accuracy per model and setting</h2>
${scoreBars(ranked)}
<h2>Accuracy versus latency</h2>
${scatter(ranked)}
<h2>Results by question kind</h2>
${kindTable(ranked)}
<h2>Tool calls, citations and timing</h2>
${detailTable(ranked)}
<h2>Failure examples</h2>
<label>Model <select id="failure-filter"><option value="">all</option>${models.map((m) => `<option>${escapeHtml(m)}</option>`).join("")}</select></label>
${failures(rows)}
<script>${SCRIPT}</script>
</body></html>
`;
}
