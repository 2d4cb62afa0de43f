/**
 * Extra tool-call corpus (`test/fixtures/toolcalls-extra.jsonl`): raw outputs written for
 * codecite (not copies of the vendored corpus) to check that the shim generalises across every
 * family — whitespace between tokens, CJK/emoji, nested arguments, escaped quotes, Windows paths,
 * several calls with prose around them, missing closers, truncated bodies, decoys, reasoning
 * rehearsals, forbidden tools, name drift, DeepSeek V3.2 DSML and Claude-style XML. Each case's
 * `source` names the reference section it was written from.
 *
 * Same comparison as the vendored corpus (`corpus.test.ts`): calls deep-equal in order (typed by
 * `tool_schemas`), `content_after` after trimming and collapsing whitespace, `recovered_by` is
 * `none` exactly when no call is expected. Where a case has `rejected`, the refused calls
 * (tool errors for the model) must be exactly those tools, by bare alias (`functions.shell:0` →
 * `shell`); `[]` means the text is not a call attempt at all (an example, quoted markup). A case
 * with `known_failure` documents an open defect and must fail until it is fixed.
 */
import { describe, expect, it } from "vitest";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { normalizeToolAlias } from "../../src/toolshim/policy.js";
import { collapse, readCases, toolsOf, type CorpusCase } from "./corpus-cases.js";

interface ExtraCase extends CorpusCase {
  /** Bare aliases of the calls that must be refused, in order; absent = not checked. */
  rejected?: string[];
  /**
   * A known defect handed to the owner of the stage that must fix it (why, and who). The case is
   * expected to fail until then (`it.fails`); once fixed, the test turns red so the field gets
   * removed.
   */
  known_failure?: string;
}


const cases = readCases<ExtraCase>("toolcalls-extra.jsonl");

describe("extra tool-call corpus", () => {
  it("has unique ids, a written-for-codecite source and every vendored family", () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(String(c.source)).toMatch(/^written for codecite from /);
    const families = new Set(cases.map((c) => c.family));
    for (const f of [
      "hermes_json", "bare_json", "llama3_json", "llama3_builtin_python_tag", "fenced_json", "hermes_wrapper_variant",
      "functionary_v3.1_function_tag", "functionary_v3.2", "pythonic", "olmo3_function_calls", "lfm2_tool_call_tokens",
      "mistral_v3_json_array", "mistral_v11_args", "granite_tool_call", "internlm2_action", "jamba_tool_calls",
      "hunyuan_tool_calls", "xlam_json_list", "functools_list", "deepseek_v3", "deepseek_v31", "tool_call_attr_json",
      "kimi_k2", "qwen3_coder_xml", "glm45_arg_kv", "minimax_m2_invoke", "harmony_gptoss", "seed_oss", "step3_steptml",
      "cohere_action", "nemotron_toolcall", "apertus_tools_prefix", "gemma4_tool_call", "functiongemma",
      "python_dict_list", "continue_tool_codeblock", "deepseek_v32_dsml", "claude_xml_invoke",
    ]) {
      expect(families, f).toContain(f);
    }
  });

  for (const c of cases) {
    const test = c.known_failure === undefined ? it : it.fails;
    test(`${c.id} (${c.family})`, () => {
      // As the agent runs it: the one argument validator judges the typed arguments.
      const tools = toolsOf(c);
      const r = recoverDeterministic({ content: c.raw }, tools, { validate: schemaValidator(tools) });
      expect(r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }))).toEqual(c.expected);
      expect(collapse(r.content)).toBe(collapse(c.content_after));
      if (c.expected.length === 0) expect(r.recovered_by).toBe("none");
      else expect(r.recovered_by).not.toBe("none");
      if (c.rejected !== undefined) expect(r.rejected.map((x) => normalizeToolAlias(x.name))).toEqual(c.rejected);
    });
  }
});
