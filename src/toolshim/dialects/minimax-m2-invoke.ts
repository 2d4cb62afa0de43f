/**
 * MiniMax-M2 (`minimax_m2_invoke`, `toolcall-formats.md` §4):
 * `<minimax:tool_call><invoke name="NAME"><parameter name="k">v</parameter></invoke>…</minimax:tool_call>`,
 * several invokes per block. Values are untyped (`untyped: true`, typed by the schema). Invokes
 * count only inside the `<minimax:tool_call>` wrapper (a quoted `<invoke>` in prose is not a
 * call: aosama/astronomical issue#346). The wrapper's closer may be missing at the end of the
 * text; an invoke cut inside a value yields no call and the block is removed to the end.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { parseXmlInvoke } from "./xml-invoke.js";

const OPEN = "<minimax:tool_call>";
const CLOSE = "</minimax:tool_call>";

/** Dialect `minimax_m2_invoke`. */
export const minimaxM2Invoke = defineDialect({
  family: "minimax_m2_invoke",
  markers: [OPEN],
  detect: (text) => text.includes(OPEN),
  parse(text) {
    const out = new MatchBuilder(text);
    for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
      const close = text.indexOf(CLOSE, at);
      const limit = close >= 0 ? close : text.length;
      let i = at + OPEN.length;
      let truncated = false;
      for (;;) {
        const inv = text.indexOf("<invoke", i);
        if (inv < 0 || inv >= limit) break;
        const r = parseXmlInvoke(text, inv, "", limit);
        if (r.ok) out.call({ name: r.name, arguments: r.params, untyped: true }, inv);
        else if (r.reason === "truncated") truncated = true;
        i = Math.max(r.end, inv + 1);
      }
      out.span(at, close >= 0 && !truncated ? close + CLOSE.length : text.length);
      if (close < 0 || truncated) break;
    }
    return out.result();
  },
});
