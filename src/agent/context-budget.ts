/**
 * The context budget of an agent session: estimate how many tokens a chat request takes and,
 * when the history would not fit the model's context window, compact it so that the parts a
 * small model needs most are never lost.
 *
 * Why: a local model's server cuts a prompt that is longer than its context from the FRONT
 * (Ollama keeps the tail and drops the head, system prompt and question included), and then
 * answers something unrelated. Tool results are the bulk of a session (up to ~16 KB of JSON
 * each), so they give way first, oldest first.
 *
 * What is never changed: the system prompt and the tool definitions (`fixedTokens`), the
 * question (the first `user` message), assistant tool calls, tool errors, and — unless it alone
 * is too large — the newest tool result. The evidence log of the session keeps every record, so
 * the grounding check still verifies citations against the full evidence.
 *
 * Compaction order (each step only as far as needed, re-estimating after every message):
 * 1. older evidence results → the compact form: `ok`, `total`, `truncated`, and each record's
 *    `path`/`start_line`/`end_line`/`name` without snippets, with {@link COMPACT_NOTE};
 * 2. reasoning (`thinking`) of assistant turns, oldest first, is dropped;
 * 3. older results → counts only (`ok`, `total`, `truncated`, a note saying how to get them back);
 * 4. the newest result, if still too large: the first records keep their snippets as far as they
 *    fit, the rest keep their location and the first line of their snippet (so the model still
 *    sees what each record is and can cite it); if even those do not fit, as many such records
 *    as fit are kept (`truncated: true`, the true `total` stays). When not even one record fits,
 *    the result is cut to its counts and `fits` is false: the caller should not send it (a
 *    model answering without evidence is the failure this module exists to prevent).
 */
import type { Message } from "../llm/types.js";


/**
 * Characters per token of the estimate. A rule of thumb for English prose and source code with
 * BPE tokenizers (the common figure is 3.5–4 characters per token; the lower end errs on the
 * side of a larger estimate). No tokenizer is loaded: the estimate is deliberately cheap.
 */
const CHARS_PER_TOKEN = 3.5;

/** Tokens added per message for the chat template's role markers and separators (estimate). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Smallest reserve left for the model's reply, in tokens. */
const MIN_ANSWER_RESERVE_TOKENS = 1024;

/** Share of the context reserved for the model's reply (reasoning included). */
const ANSWER_RESERVE_SHARE = 0.2;

/** The note of a result compacted to references (records without snippets). */
export const COMPACT_NOTE = "snippets omitted to save context; call read_evidence for the lines";

/**
 * Estimated tokens of a text: ASCII characters count {@link CHARS_PER_TOKEN} to a token, every
 * other UTF-16 code unit counts as one token (CJK text and emoji take about one token or more
 * per character, so a characters/3.5 rule alone would underestimate them several times).
 * @returns a whole number ≥ 0 (rounded up).
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / CHARS_PER_TOKEN) + other;
}

/**
 * A pessimistic token estimate, for text that must fit whatever the model's tokenizer (the
 * prefetched evidence, `prefetch.ts`): every character of a non-ASCII code point counts one
 * token per UTF-8 byte (a byte-level BPE, or a SentencePiece model with byte fallback, never
 * spends more on a character: CJK takes 3, emoji 4), every ASCII symbol one token, every run of
 * white space one token, and words of letters and digits one token per 4 characters. Source
 * code, JSON and CJK text that a 32K-vocabulary tokenizer splits finely stay under it, where
 * {@link estimateTokens} (kept close to typical tokenizers, as the server-truncation check needs)
 * can be 3× short.
 * @returns a whole number ≥ 0.
 */
export function estimateTokensPessimistic(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(/[A-Za-z0-9]+|\s+|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[\x00-\x1f\x7f]|[^\x00-\x7f]/gu)) {
    const t = m[0];
    const c = t.codePointAt(0)!;
    if (c >= 0x80) tokens += c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    else if (/^[A-Za-z0-9]/.test(t)) tokens += Math.ceil(t.length / 4);
    else tokens += 1;
  }
  return tokens;
}

/** {@link estimateMessageTokens} with {@link estimateTokensPessimistic}. */
export function estimateMessageTokensPessimistic(m: Message): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTokensPessimistic(m.content);
  if (m.thinking) tokens += estimateTokensPessimistic(m.thinking);
  for (const c of m.tool_calls ?? []) tokens += estimateTokensPessimistic(c.name) + estimateTokensPessimistic(JSON.stringify(c.arguments));
  return tokens;
}

/**
 * Estimated tokens of one chat message: content, reasoning, tool calls (name and JSON
 * arguments) and {@link MESSAGE_OVERHEAD_TOKENS}.
 */
export function estimateMessageTokens(m: Message): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTokens(m.content);
  if (m.thinking) tokens += estimateTokens(m.thinking);
  for (const c of m.tool_calls ?? []) tokens += estimateTokens(c.name) + estimateTokens(JSON.stringify(c.arguments));
  return tokens;
}

/**
 * Tokens kept free for the reply: {@link ANSWER_RESERVE_SHARE} of the context, at least
 * {@link MIN_ANSWER_RESERVE_TOKENS}, at most half the context. 8192 → 1638; 2048 → 1024.
 */
export function answerReserve(contextTokens: number): number {
  const want = Math.max(MIN_ANSWER_RESERVE_TOKENS, Math.round(contextTokens * ANSWER_RESERVE_SHARE));
  return Math.min(want, Math.floor(contextTokens / 2));
}

/** A record as the compact form lists it. */
export interface EvidenceRef {
  path: unknown;
  start_line: unknown;
  end_line: unknown;
  name: unknown;
  /**
   * A reference's caller (`Evidence.context`): kept, since "who calls it" is what such a record
   * answers and its `name` is only the definition asked about.
   */
  context?: string;
  /** The first line of the record's snippet (the newest result's first-lines form only). */
  snippet?: string;
}

/** The compact form of an evidence result ({@link COMPACT_NOTE} when every record is listed). */
export interface CompactEnvelope {
  ok: true;
  evidence: Array<EvidenceRef | Record<string, unknown>>;
  total: number;
  truncated: boolean;
  note: string;
}

/** The counts-only form of a result. */
export interface CountsEnvelope {
  ok: true;
  total?: number;
  truncated?: boolean;
  note: string;
}

/** How far the newest tool result had to be shortened. */
export type NewestForm = "intact" | "partial" | "first_lines" | "counts";

/** What {@link fitHistory} did. */
export interface FitResult {
  /** The messages to send (the input when nothing had to change; the input is never mutated). */
  messages: Message[];
  /** Estimated tokens of the whole prompt: `fixedTokens` plus the messages. */
  estimatedTokens: number;
  /** Older evidence results compacted to references (step 1). */
  compacted: number;
  /** Assistant turns whose reasoning was dropped (step 2). */
  thinkingDropped: number;
  /** Older results shortened to counts (step 3). */
  countsOnly: number;
  /** The newest tool result's form (step 4); `intact` also when there is none. */
  newest: NewestForm;
  /** Whether the estimate is within `limitTokens` (false: even the most compact form is too large). */
  fits: boolean;
}

/** The budget of {@link fitHistory}, in estimated tokens. */
export interface FitBudget {
  /** What the history is sent with: system prompt, tool definitions or catalogue. */
  fixedTokens: number;
  /** The most the whole prompt may take: context size minus {@link answerReserve}. */
  limitTokens: number;
}

interface EvidenceEnvelope {
  kind: "evidence";
  records: Record<string, unknown>[];
  total: number;
  truncated: boolean;
}

type Parsed = EvidenceEnvelope | { kind: "value" } | { kind: "other" };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Classifies a tool message's content: an evidence success envelope, another success, or anything else. */
function parseResult(content: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return { kind: "other" };
  }
  if (!isRecord(v) || v.ok !== true) return { kind: "other" };
  if (!Array.isArray(v.evidence)) return { kind: "value" };
  const records = v.evidence.filter(isRecord);
  return {
    kind: "evidence",
    records,
    total: typeof v.total === "number" ? v.total : records.length,
    truncated: v.truncated === true,
  };
}

function refOf(r: Record<string, unknown>, firstLine: boolean): EvidenceRef {
  const ref: EvidenceRef = { path: r.path, start_line: r.start_line, end_line: r.end_line, name: r.name };
  if (typeof r.context === "string") ref.context = r.context;
  if (firstLine && typeof r.snippet === "string" && r.snippet !== "") ref.snippet = r.snippet.split("\n")[0]!;
  return ref;
}

/**
 * The compact form of an evidence result: the first `keep` records whole, then references of
 * the others up to `listed` records in all (with `firstLines`, each reference keeps the first
 * line of its snippet). `keep = 0, listed = all` is the compact form of step 1 (note
 * {@link COMPACT_NOTE}); records left out entirely make `truncated` true.
 */
export function compactEvidence(
  env: { records: readonly Record<string, unknown>[]; total: number; truncated: boolean },
  keep = 0,
  listed = env.records.length,
  firstLines = false,
): CompactEnvelope {
  const n = env.records.length;
  const shown = Math.min(listed, n);
  const evidence = env.records.slice(0, shown).map((r, i) => (i < keep ? r : refOf(r, firstLines)));
  const what = firstLines ? "snippets after their first line" : "snippets";
  let note = firstLines ? `${what} omitted to save context; call read_evidence for the lines` : COMPACT_NOTE;
  if (shown < n) {
    note = `${what} and the last ${n - shown} of ${n} records omitted to save context; call read_evidence for the lines, or repeat the call with a narrower query`;
  } else if (keep > 0) {
    note = `${what} of the last ${n - keep} of ${n} records omitted to save context; call read_evidence for the lines`;
  }
  return { ok: true, evidence, total: env.total, truncated: env.truncated || shown < n, note };
}

/** The counts-only form of a successful result (step 3). */
function countsOnly(parsed: EvidenceEnvelope | { kind: "value" }): CountsEnvelope {
  if (parsed.kind === "value") return { ok: true, note: "result omitted to save context; repeat the call to see it again" };
  return {
    ok: true,
    total: parsed.total,
    truncated: parsed.truncated,
    note: `the ${parsed.records.length} records are omitted to save context; repeat the call to see them again`,
  };
}

/** Largest `x` in `[lo, hi]` with `ok(x)`, for `ok` true up to some point and false after it; `lo - 1` when none. */
export function largest(lo: number, hi: number, ok: (x: number) => boolean): number {
  let best = lo - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ok(mid)) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/**
 * Fits a session's history into the budget (see the module comment for the order of steps).
 * Tool messages are recognised by `role: "tool"` and their JSON content (the tool result
 * envelope); contents that are not success envelopes are left alone.
 * @param history the session's messages after the system prompt (question first); not mutated.
 * @returns the messages to send and what was done; `fits: false` when even the most compact
 *   form is estimated above the limit (the caller sends it anyway: it is the best there is).
 */
export function fitHistory(history: readonly Message[], budget: FitBudget): FitResult {
  const messages = [...history];
  const tokens = messages.map(estimateMessageTokens);
  let total = budget.fixedTokens + tokens.reduce((a, b) => a + b, 0);
  const result: FitResult = { messages, estimatedTokens: total, compacted: 0, thinkingDropped: 0, countsOnly: 0, newest: "intact", fits: true };
  const fits = () => total <= budget.limitTokens;
  if (fits()) return result;

  const parsed = new Map<number, Parsed>();
  const parse = (i: number): Parsed => {
    let p = parsed.get(i);
    if (p === undefined) {
      p = parseResult(history[i]!.content);
      parsed.set(i, p);
    }
    return p;
  };
  /** Replaces message `i` when that makes it smaller. */
  const replace = (i: number, m: Message): boolean => {
    const t = estimateMessageTokens(m);
    if (t >= tokens[i]!) return false;
    total += t - tokens[i]!;
    tokens[i] = t;
    messages[i] = m;
    return true;
  };
  const withContent = (i: number, content: unknown): Message => ({ ...history[i]!, content: JSON.stringify(content) });
  let newest = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]!.role === "tool") {
      newest = i;
      break;
    }
  }
  const older = history.flatMap((m, i) => (m.role === "tool" && i !== newest ? [i] : []));

  const done = (): FitResult => {
    result.estimatedTokens = total;
    result.fits = fits();
    return result;
  };

  // 1. Older evidence results → references without snippets, oldest first.
  for (const i of older) {
    const p = parse(i);
    if (p.kind === "evidence" && replace(i, withContent(i, compactEvidence(p)))) result.compacted++;
    if (fits()) return done();
  }
  // 2. Reasoning of assistant turns, oldest first.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.thinking) continue;
    const { thinking: _dropped, ...rest } = m;
    if (replace(i, rest)) result.thinkingDropped++;
    if (fits()) return done();
  }
  // 3. Older results → counts, oldest first.
  for (const i of older) {
    const p = parse(i);
    if (p.kind !== "other" && replace(i, withContent(i, countsOnly(p)))) result.countsOnly++;
    if (fits()) return done();
  }
  // 4. The newest result: keep as many snippets, then as many first lines, as fit.
  if (newest >= 0) {
    const p = parse(newest);
    if (p.kind === "evidence" && p.records.length > 0) {
      const n = p.records.length;
      const room = budget.limitTokens - (total - tokens[newest]!);
      const fitsAs = (env: unknown) => estimateMessageTokens(withContent(newest, env)) <= room;
      const keep = largest(0, n - 1, (k) => fitsAs(compactEvidence(p, k, n, true)));
      if (keep >= 0) {
        replace(newest, withContent(newest, compactEvidence(p, keep, n, true)));
        result.newest = keep > 0 ? "partial" : "first_lines";
      } else {
        const listed = largest(1, n - 1, (m) => fitsAs(compactEvidence(p, 0, m, true)));
        if (listed >= 1) {
          replace(newest, withContent(newest, compactEvidence(p, 0, listed, true)));
          result.newest = "first_lines";
        } else {
          replace(newest, withContent(newest, countsOnly(p)));
          result.newest = "counts";
        }
      }
    }
  }
  return done();
}
