/**
 * Evidence first: before the first model call, the code names in the question are looked up
 * deterministically and the fitting lookups' results are given to the model as ordinary tool
 * results it can cite (steps say `recovered_by: "prefetch"`). The model's own calls are never
 * replaced: they run as usual afterwards.
 *
 * Names: ASCII runs in a question of any language (`哪些檔案直接 import rag_common？` gives
 * `rag_common`): identifiers, dotted/`::` names, file paths, module paths, git refs (`HEAD~1`, a commit id,
 * `v1.2.0`). Backticked and code-shaped names come first; common words are skipped
 * (`common-words.ts`). A name counts only if the repository knows it: a lookup whose result is
 * empty or an error is dropped.
 *
 * Lookups by the question's intent (English and Chinese keywords, {@link intentsOf}):
 * - a file path (`locateFile`): `find_importers` of it for an import question, else
 *   `read_evidence` of its first lines;
 * - import questions: `find_importers` of each name, and of each module written with `/`, `-`
 *   or `@` (`net/http/httptest`, `use-sync-external-store`, `zustand/vanilla`), with the modules
 *   under it (`include_submodules`: a package is mostly imported by its subpaths,
 *   `use-sync-external-store/shim/with-selector`);
 * - reference questions (callers, usages), when the registry has a references tool
 *   (`find_references`): it, for each name;
 * - otherwise (and after the above): `find_symbol` of each name;
 * - diff questions: `read_git_diff` between the refs named (one ref: the changes it made, or
 *   since it with "since"/"自從"); no ref: the working tree against HEAD. A diff question that
 *   names files gets the diff of each file instead of the whole diff (and no file head).
 * At most {@link MAX_NAMES} names are tried, and the results together take at most
 * {@link PREFETCH_SHARE} of the context (a result that does not fit whole is sent as record
 * locations with first lines — as many records as fit, the first ones with their snippets as far
 * as they fit — or left out), counted with the pessimistic estimate
 * (`estimateTokensPessimistic`): prefetched evidence is often CJK or symbol-dense code, which
 * fine-grained tokenizers split into several times the typical count, and it must never crowd
 * the question and the model's own calls out of the context.
 */
import type { DispatchResult } from "../tools/registry.js";
import { locateFile } from "../tools/index.js";
import type { Message, ToolCall } from "../llm/types.js";
import { COMMON_WORDS } from "./common-words.js";
import { MESSAGE_OVERHEAD_TOKENS, compactEvidence, estimateMessageTokensPessimistic, estimateTokensPessimistic, largest } from "./context-budget.js";
import { historyRoom } from "./compact.js";
import type { AgentStep, Session } from "./session.js";

/** Most names looked up. */
const MAX_NAMES = 6;
/** Most of the context the prefetched results may take. */
export const PREFETCH_SHARE = 0.25;
/** Lines of a named file shown when the question names a file but no import. */
const FILE_HEAD_LINES = 40;

/** What a question asks about. */
export interface Intents {
  imports: boolean;
  references: boolean;
  diff: boolean;
  since: boolean;
}

const IMPORT_RE = /\bimport(?:s|ed|ers?|ing)?\b|\brequires?\b|\bdepend(?:s|ency|encies|ent)?\b|導入|导入|引入|匯入|汇入|依賴|依赖/i;
const REFERENCE_RE = /\bcall(?:s|ed|ers?|ing)?\b|\breferenc\w*|\busages?\b|\bused\b|\buses\b|\binvok\w*|調用|调用|呼叫|引用|使用/i;
const DIFF_RE = /\bdiff\w*|\bchang\w*|\bcommit\w*|\bmodif\w*|\bbetween\b|\bsince\b|變更|变更|改動|改动|修改|提交|差異|差异|改了/i;
const SINCE_RE = /\bsince\b|\bafter\b|自從|自从|以來|以来|之後|之后/i;

/** The intents of a question (see the module comment). */
function intentsOf(question: string): Intents {
  return { imports: IMPORT_RE.test(question), references: REFERENCE_RE.test(question), diff: DIFF_RE.test(question), since: SINCE_RE.test(question) };
}

/** A name from the question and its shape. */
export interface QuestionName {
  text: string;
  /**
   * `path`: a file (`src/a.py`, `a.ts`); `module`: a module or package written with `/`, `-` or
   * `@` that is not a file name (`net/http/httptest`, `use-sync-external-store`,
   * `@reduxjs/toolkit`, `zustand/vanilla`); `ref`: a git ref; `name`: an identifier.
   */
  kind: "path" | "module" | "ref" | "name";
  /** Backticked or shaped like code (`_`, digits, inner capitals, dots). */
  codeShaped: boolean;
}

/** A file name: a known source or text extension (`.py`, `.ts`, `.json`, …). */
const FILE_EXT = /\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|kts|c|h|cc|cpp|hpp|cs|rb|php|swift|json|toml|yaml|yml|md|txt|cfg|ini|sh)$/;

const REF_SHAPE = /^(?:HEAD(?:[~^]\d*)*|[0-9a-f]{7,40}|v?\d+\.\d+(?:\.\d+)?(?:[-.][\w.]+)?|[\w.-]+(?:[~^]\d*)+)$/;

/** The names of a question, most code-like first, without duplicates (see the module comment). */
export function questionNames(question: string): QuestionName[] {
  const backticked = new Set<string>();
  for (const m of question.matchAll(/`([^`\n]+)`/g)) backticked.add(m[1]!.trim());
  const out: QuestionName[] = [];
  const seen = new Set<string>();
  const add = (raw: string, ticked: boolean) => {
    // Trailing punctuation is matched from the first mark of a run only (tried from every mark of a
    // run inside a word, each attempt read the rest of the run: 32 KB of dots took 1.8 s).
    const text = raw.replace(/^[./]+(?=[A-Za-z_])/, (p) => (p.startsWith("./") ? "" : p)).replace(/(?<![.,:;!?)])[.,:;!?)]+$/, "").replace(/\(\)$/, "");
    if (text.length < 2 || seen.has(text)) return;
    if (!ticked && COMMON_WORDS.has(text.toLowerCase())) return;
    let kind: QuestionName["kind"] = "name";
    if (REF_SHAPE.test(text) && (/[~^]/.test(text) || /^HEAD/.test(text) || /^[0-9a-f]{7,40}$/.test(text) || /^v?\d+\.\d+/.test(text))) kind = "ref";
    else if (FILE_EXT.test(text)) kind = "path";
    else if (/^@?[A-Za-z0-9_][\w.-]*(?:\/[\w.-]+)*$/.test(text) && /[/@-]/.test(text) && /[A-Za-z]/.test(text)) kind = "module";
    if (kind === "name" && !/^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(text)) return;
    seen.add(text);
    const codeShaped = ticked || kind !== "name" || /[_$0-9.:]/.test(text) || /[a-z][A-Z]/.test(text) || /^[A-Z][a-z]+[A-Z]/.test(text);
    out.push({ text, kind, codeShaped });
  };
  for (const b of backticked) add(b, true);
  // A word starts at `@` or after anything but `.~^/-`: from inside a run of those marks it would
  // end where the run's first mark's word ends, and trying each read the rest of the run (32 KB of
  // dashes: 1.7 s).
  for (const m of question.matchAll(/(?:@|(?<![.~^/-]))[A-Za-z0-9_$.~^/-]*[A-Za-z0-9_$][A-Za-z0-9_$.~^/-]*(?:::[A-Za-z_$][\w$]*)*/g)) {
    if (/^\d+$/.test(m[0])) continue;
    add(m[0], backticked.has(m[0]));
  }
  const rank = (n: QuestionName) => (n.kind !== "name" ? 0 : n.codeShaped ? 1 : /^[A-Z]/.test(n.text) ? 2 : 3);
  return out.map((n, i) => ({ n, i })).sort((a, b) => rank(a.n) - rank(b.n) || a.i - b.i).map(({ n }) => n);
}

/** The calls prefetch would try for a question, in order (files and refs resolved later). */
function plannedLookups(question: string, names: readonly QuestionName[], tools: readonly string[]): Array<{ name: string; arguments: Record<string, unknown>; path?: string }> {
  const intents = intentsOf(question);
  const has = (t: string) => tools.includes(t);
  const calls: Array<{ name: string; arguments: Record<string, unknown>; path?: string }> = [];
  const refs = names.filter((n) => n.kind === "ref").map((n) => n.text);
  const diffing = intents.diff && has("read_git_diff");
  if (diffing) {
    const range: Record<string, unknown> =
      refs.length >= 2 ? { base: refs[0], head: refs[1] } : refs.length === 1 ? (intents.since ? { base: refs[0] } : { base: `${refs[0]}~1`, head: refs[0] }) : {};
    const files = names.filter((n) => n.kind === "path").map((n) => n.text);
    if (files.length === 0) calls.push({ name: "read_git_diff", arguments: range });
    for (const f of files) calls.push({ name: "read_git_diff", arguments: { ...range, path: f }, path: f });
  }
  for (const n of names.filter((x) => x.kind !== "ref").slice(0, MAX_NAMES)) {
    if (n.kind === "path" && diffing) continue;
    if (n.kind === "module") {
      if (intents.imports && has("find_importers")) calls.push({ name: "find_importers", arguments: { module_name: n.text, include_submodules: true } });
      continue;
    }
    if (n.kind === "path") {
      if (intents.imports && has("find_importers")) calls.push({ name: "find_importers", arguments: { module_name: n.text }, path: n.text });
      else if (has("read_evidence")) calls.push({ name: "read_evidence", arguments: { path: n.text, start_line: 1, end_line: FILE_HEAD_LINES }, path: n.text });
      continue;
    }
    if (intents.imports && has("find_importers")) calls.push({ name: "find_importers", arguments: { module_name: n.text } });
    if (intents.references && has("find_references")) calls.push({ name: "find_references", arguments: { name: n.text } });
    if (has("find_symbol")) calls.push({ name: "find_symbol", arguments: { name: n.text } });
  }
  return calls;
}

function isUseful(r: DispatchResult): boolean {
  return r.ok && "evidence" in r && r.evidence.length > 0;
}

/**
 * Runs the lookups of the session's question (see the module comment) and puts the results
 * that the repository answered into the history, before the first model call.
 * @returns how many results were given to the model.
 */
export async function prefetchEvidence(s: Session): Promise<number> {
  const ws = s.opts.workspace;
  if (!ws) return 0;
  const names = questionNames(s.opts.question);
  if (names.length === 0) return 0;
  const planned = plannedLookups(s.opts.question, names, s.toolNames);
  // A quarter of the context, and never more than the history has next to the fixed prompt,
  // the question and the assistant message that carries the calls: a result the context fitter
  // would cut to its counts at once is no evidence.
  let room = Math.min(Math.floor(s.contextTokens * PREFETCH_SHARE), historyRoom(s) - s.history.reduce((n, m) => n + estimateMessageTokensPessimistic(m), 0) - MESSAGE_OVERHEAD_TOKENS);
  const kept: Array<{ call: ToolCall; result: DispatchResult; ms: number; content: string }> = [];
  const located = new Map<string, string | undefined>();
  for (const p of planned) {
    if (s.signal.aborted || room <= 0) break;
    const args = { ...p.arguments };
    if (p.path !== undefined) {
      if (!located.has(p.path)) {
        const f = await locateFile(ws, p.path, s.signal);
        located.set(p.path, f.ok ? f.path : undefined);
      }
      const real = located.get(p.path);
      if (real === undefined) continue;
      if ("module_name" in args) args.module_name = real;
      else args.path = real;
    }
    if (s.log.previous(p.name, args)) continue;
    const started = performance.now();
    const result = await s.opts.registry.dispatch({ name: p.name, arguments: args }, { workspace: ws, signal: s.signal });
    const ms = Math.round(performance.now() - started);
    s.log.record(p.name, args, result);
    if (!isUseful(result) || !("evidence" in result)) continue;
    let content = JSON.stringify(result);
    let tokens = estimateMessageTokensPessimistic({ role: "tool", content });
    // The call in the assistant message costs room too.
    const avail = room - estimateTokensPessimistic(p.name) - estimateTokensPessimistic(JSON.stringify(args));
    if (tokens > avail) {
      // As many records as fit as locations with first lines, then as many of the first ones
      // as fit with their snippets.
      const env = { records: result.evidence as unknown as Record<string, unknown>[], total: result.total, truncated: result.truncated };
      const n = env.records.length;
      const sized = (keep: number, listed: number) => {
        const text = JSON.stringify(compactEvidence(env, keep, listed, true));
        return { text, tokens: estimateMessageTokensPessimistic({ role: "tool", content: text }) };
      };
      const listed = largest(1, n, (x) => sized(0, x).tokens <= avail);
      if (listed < 1) continue;
      const keep = listed === n ? largest(0, n - 1, (k) => sized(k, n).tokens <= avail) : 0;
      ({ text: content, tokens } = sized(keep, listed));
    }
    room = avail - tokens;
    kept.push({ call: { name: p.name, arguments: args }, result, ms, content });
  }
  if (kept.length === 0) return 0;
  s.history.push({ role: "assistant", content: "", tool_calls: kept.map((k) => k.call) });
  for (const k of kept) {
    s.emit({ type: "tool_call", call: k.call, recovered_by: "prefetch" });
    const step: AgentStep = { tool: k.call.name, arguments: k.call.arguments, ok: true, total: "total" in k.result ? k.result.total : 1, ms: k.ms, recovered_by: "prefetch" };
    s.steps.push(step);
    s.emit({ type: "tool_result", step, result: k.result });
    const message: Message = { role: "tool", content: k.content, tool_name: k.call.name };
    s.history.push(message);
  }
  return kept.length;
}
