/**
 * Runs an exam: every model × setting × question through `runAgent`, graded by `scoreResult`.
 *
 * Rows are appended to the result cache as they finish (JSON Lines), so an interrupted run keeps
 * its finished rows and a resumed run skips every (model, setting, question) whose cached row has
 * the question's current fingerprint. A provider failure ends only that session: the row records
 * the error and the run goes on (a model that is down fails its rows quickly).
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { runAgent, type AgentEvent } from "../agent/index.js";
import type { Interpreter } from "../toolshim/index.js";
import type { ChatOptions, ChatRequest, ChatTurn, Provider } from "../llm/types.js";
import type { ToolRegistry, Workspace } from "../tools/index.js";
import type { EvalQuestion } from "./questions.js";
import { errorRow, scoreResult, settingsLabel, type EvalRow, type EvalSettings } from "./score.js";

/** Where finished rows are kept between runs (a JSON Lines file). */
export class ResultCache {
  readonly #rows = new Map<string, EvalRow>();

  /** @param file the JSON Lines file; read when it exists (unreadable lines are ignored). */
  constructor(readonly file: string) {
    if (!existsSync(file)) return;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const row = JSON.parse(line) as EvalRow;
        this.#rows.set(ResultCache.key(row.model, row.settings, row.question_id), row);
      } catch {
        // a line cut by an interrupted write: that row runs again
      }
    }
  }

  static key(model: string, settings: EvalSettings, questionId: string): string {
    return JSON.stringify([model, settingsLabel(settings), questionId]);
  }

  /** The cached row for this question, when its fingerprint still matches (and it did not fail). */
  get(model: string, settings: EvalSettings, q: EvalQuestion): EvalRow | undefined {
    const row = this.#rows.get(ResultCache.key(model, settings, q.id));
    return row !== undefined && row.fingerprint === q.fingerprint && row.outcome === "ok" ? row : undefined;
  }

  add(row: EvalRow): void {
    this.#rows.set(ResultCache.key(row.model, row.settings, row.question_id), row);
    appendFileSync(this.file, `${JSON.stringify(row)}\n`);
  }
}

/** Progress of a run, for a progress bar. */
export interface EvalProgress {
  done: number;
  total: number;
  model: string;
  settings: EvalSettings;
  question: EvalQuestion;
  /** The row just finished (absent on the `start` event of a question). */
  row?: EvalRow;
  cached?: boolean;
}

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  provider: Provider;
  models: readonly string[];
  settings: readonly EvalSettings[];
  questions: readonly EvalQuestion[];
  registry: ToolRegistry;
  workspace: Workspace;
  /** Tool steps per question (default 8). */
  maxSteps?: number;
  interpreter?: Interpreter;
  /** Reuse and extend these rows. */
  cache?: ResultCache;
  signal?: AbortSignal;
  onProgress?: (p: EvalProgress) => void;
  /** Time limit of one session, ms (default 300 000). */
  sessionTimeoutMs?: number;
}

/** A provider that sums the token counts and model time of the calls made through it. */
class MeteredProvider implements Provider {
  prompt = 0;
  output = 0;
  counted = false;
  modelMs = 0;
  constructor(private readonly inner: Provider) {}
  get id(): string {
    return this.inner.id;
  }
  get location(): string {
    return this.inner.location;
  }
  async chat(req: ChatRequest, opts?: ChatOptions): Promise<ChatTurn> {
    const t0 = performance.now();
    try {
      const turn = await this.inner.chat(req, opts);
      if (turn.usage?.prompt_tokens !== undefined) {
        this.prompt += turn.usage.prompt_tokens;
        this.counted = true;
      }
      if (turn.usage?.completion_tokens !== undefined) {
        this.output += turn.usage.completion_tokens;
        this.counted = true;
      }
      return turn;
    } finally {
      this.modelMs += performance.now() - t0;
    }
  }
  describeModel(model: string): ReturnType<NonNullable<Provider["describeModel"]>> {
    if (!this.inner.describeModel) return Promise.reject(new Error("describeModel is not supported"));
    return this.inner.describeModel(model);
  }
}

function message(err: unknown): string {
  if (err instanceof Error) return `${(err as { code?: string }).code ?? err.name}: ${err.message}`.slice(0, 500);
  return String(err).slice(0, 500);
}

/**
 * Runs every model × setting × question (in that order) and returns one row each, cached rows
 * included.
 * @throws only when `signal` aborts (the rows finished so far are in the cache).
 */
export async function runEval(opts: RunEvalOptions): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  const total = opts.models.length * opts.settings.length * opts.questions.length;
  let done = 0;
  for (const model of opts.models) {
    for (const settings of opts.settings) {
      for (const question of opts.questions) {
        opts.signal?.throwIfAborted();
        const cached = opts.cache?.get(model, settings, question);
        if (cached !== undefined) {
          rows.push(cached);
          opts.onProgress?.({ done: ++done, total, model, settings, question, row: cached, cached: true });
          continue;
        }
        opts.onProgress?.({ done, total, model, settings, question });
        const row = await runOne(opts, model, settings, question);
        opts.signal?.throwIfAborted();
        opts.cache?.add(row);
        rows.push(row);
        opts.onProgress?.({ done: ++done, total, model, settings, question, row });
      }
    }
  }
  return rows;
}

async function runOne(opts: RunEvalOptions, model: string, settings: EvalSettings, question: EvalQuestion): Promise<EvalRow> {
  const metered = new MeteredProvider(opts.provider);
  const t0 = performance.now();
  let firstToken: number | undefined;
  const onEvent = (e: AgentEvent): void => {
    if (firstToken === undefined && (e.type === "content" || e.type === "thinking" || e.type === "tool_call")) firstToken = performance.now();
  };
  const session = AbortSignal.timeout(opts.sessionTimeoutMs ?? 300_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, session]) : session;
  try {
    const result = await runAgent({
      provider: metered,
      model,
      registry: opts.registry,
      workspace: opts.workspace,
      question: question.question,
      maxSteps: opts.maxSteps ?? 8,
      contextTokens: settings.num_ctx,
      toolshim: settings.toolshim,
      prefetch: settings.prefetch === true,
      stream: true,
      onEvent,
      signal,
      ...(opts.interpreter ? { interpreter: opts.interpreter } : {}),
    });
    const ms = performance.now() - t0;
    const measures: Parameters<typeof scoreResult>[4] = { ms: Math.round(ms) };
    if (firstToken !== undefined) measures.ttft_ms = Math.round(firstToken - t0);
    if (metered.counted) {
      measures.prompt_tokens = metered.prompt;
      measures.output_tokens = metered.output;
      if (metered.modelMs > 0) measures.tokens_per_second = Math.round((metered.output / (metered.modelMs / 1000)) * 10) / 10;
    }
    return scoreResult(question, result as Parameters<typeof scoreResult>[1], model, settings, measures);
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return errorRow(question, model, settings, message(err), Math.round(performance.now() - t0));
  }
}
