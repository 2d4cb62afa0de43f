import { parseWithDialects } from "/work/main/src/toolshim/dialects/index.js";
import { loadCorpus, toolsOf, norm, removeSpans, stripReasoning } from "/work/main/test/toolshim/dialects/corpus.js";
let pass = 0, fail = 0;
for (const c of loadCorpus()) {
  const hits = parseWithDialects(c.raw, toolsOf(c));
  const calls = hits.flatMap((h) => h.match.calls).map((x) => ({ name: x.name, arguments: x.arguments }));
  const spans = hits.flatMap((h) => h.match.spans);
  const fams = hits.map((h) => h.family);
  const exp = c.family === "bare_json" ? [] : c.expected;
  const callsOk = JSON.stringify(calls.map(x=>x.name)) === JSON.stringify(exp.map(x=>x.name));
  const res = norm(stripReasoning(removeSpans(c.raw, spans)));
  const resOk = c.family === "bare_json" ? res === norm(stripReasoning(c.raw)) : res === norm(c.content_after);
  const famOk = c.family === "bare_json" ? fams.length === 0 : fams[0] === c.family;
  if (callsOk && resOk) pass++; else { fail++; console.log("FAIL", c.family, c.id, fams, callsOk ? "" : "\n  calls=" + JSON.stringify(calls), resOk ? "" : "\n  residue=" + JSON.stringify(res)); }
  if (!famOk) console.log("  family:", c.id, c.family, "->", fams.join(","));
}
console.log({ pass, fail });
