import { DIALECTS } from "/work/main/src/toolshim/dialects/index.js";
import { loadCorpus, toolsOf, residue, norm } from "/work/main/test/toolshim/dialects/corpus.js";
let pass = 0, fail = 0;
for (const c of loadCorpus()) {
  const d = DIALECTS.find((x) => x.family === c.family);
  if (!d) { console.log("NO DIALECT", c.family, c.id); continue; }
  const m = d.parse(c.raw, toolsOf(c));
  const calls = (m?.calls ?? []).map((x) => ({ name: x.name, arguments: x.arguments }));
  const exp = c.expected;
  const callsOk = JSON.stringify(calls.map(x=>x.name)) === JSON.stringify(exp.map(x=>x.name)) && calls.every((x,i)=> {
    const e = exp[i]!.arguments; const a = x.arguments as Record<string, unknown>;
    return Object.keys(e).length === Object.keys(a).length && Object.entries(e).every(([k,v]) => JSON.stringify(a[k]) === JSON.stringify(v) || (typeof a[k]==='string' && typeof v!=='string' && (()=>{try{return JSON.stringify(JSON.parse(a[k] as string))===JSON.stringify(v)}catch{return false}})()));
  });
  const res = residue(c.raw, m);
  const resOk = res === norm(c.content_after);
  if (callsOk && resOk) pass++; else { fail++; console.log("FAIL", c.family, c.id, callsOk ? "" : "\n  calls=" + JSON.stringify(calls) + "\n  exp  =" + JSON.stringify(exp), resOk ? "" : "\n  residue=" + JSON.stringify(res) + "\n  expect =" + JSON.stringify(norm(c.content_after))); }
}
console.log({ pass, fail });
