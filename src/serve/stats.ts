/**
 * What the gateway counts per model (`GET /codecite/stats`): assistant turns seen, calls
 * recovered from text by stage or dialect (`recovered_by` values such as `dialect:hermes_json`,
 * `inline_json`), calls that came natively, refusals (calls to tools the client did not offer,
 * or with invalid arguments, never passed on), and switches to the shim's prompt mode.
 */

/** The counters of one model. */
export interface ModelStats {
  turns: number;
  native_calls: number;
  /** Recovered calls by `recovered_by` (`dialect:<family>`, `inline_json`, …). */
  recovered: Record<string, number>;
  refusals: number;
  /** Times the model was switched to prompt mode (no native tool support). */
  switches: number;
  /** Upstream failures shown to clients. */
  errors: number;
}

function emptyModelStats(): ModelStats {
  return { turns: 0, native_calls: 0, recovered: {}, refusals: 0, switches: 0, errors: 0 };
}

/**
 * The JSON of `GET /codecite/stats`: the requests answered, the counters of each model by name,
 * and, with the virtual model, its answers running and waiting now (`agent_turns`).
 */
export interface StatsReport {
  requests: number;
  models: Record<string, ModelStats>;
  agent_turns?: { running: number; waiting: number };
}

/**
 * The sum of several gateways' reports (the worker processes of `codecite serve --workers`):
 * every counter adds, `recovered` by key, `agent_turns` (present when any report has it) too;
 * models by name, as {@link GatewayStats.toJSON} orders them.
 */
export function sumStats(reports: readonly StatsReport[]): StatsReport {
  const sums = new Map<string, ModelStats>();
  let requests = 0;
  let agentTurns: StatsReport["agent_turns"];
  for (const r of reports) {
    requests += r.requests;
    if (r.agent_turns !== undefined) {
      agentTurns ??= { running: 0, waiting: 0 };
      agentTurns.running += r.agent_turns.running;
      agentTurns.waiting += r.agent_turns.waiting;
    }
    for (const [name, m] of Object.entries(r.models)) {
      const sum = sums.get(name) ?? emptyModelStats();
      sum.turns += m.turns;
      sum.native_calls += m.native_calls;
      sum.refusals += m.refusals;
      sum.switches += m.switches;
      sum.errors += m.errors;
      for (const [by, n] of Object.entries(m.recovered)) sum.recovered[by] = (sum.recovered[by] ?? 0) + n;
      sums.set(name, sum);
    }
  }
  const models = modelsByName(sums);
  return agentTurns === undefined ? { requests, models } : { requests, models, agent_turns: agentTurns };
}

/**
 * Most models one gateway counts by name; the counters of any further model are counted together
 * under {@link OTHER_MODELS}. The names are the clients' (a request names any model it likes, and
 * the upstream's answer that it has no such model is counted as an error of that name), and every
 * `GET /codecite/stats` answers them all (with worker processes, every worker sends its report to
 * the primary for each): without a bound, a client sending new names had the gateway keep
 * and send counters without end.
 */
export const MAX_MODELS_COUNTED = 256;

/** The name under which the models past {@link MAX_MODELS_COUNTED} are counted (no Ollama model name has parentheses or blanks). */
export const OTHER_MODELS = "(other models)";

/** The report's `models` object from (name, counters) pairs, each name an own property (`__proto__` included). */
function modelsByName(entries: Iterable<[string, ModelStats]>): Record<string, ModelStats> {
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Counters for the models the gateway has seen (at most {@link MAX_MODELS_COUNTED} by name). */
export class GatewayStats {
  readonly #models = new Map<string, ModelStats>();
  #requests = 0;

  /** The counters of `model`, created on first use; past {@link MAX_MODELS_COUNTED} names, those of {@link OTHER_MODELS}. */
  model(model: string): ModelStats {
    let s = this.#models.get(model);
    if (!s) {
      const name = this.#models.size < MAX_MODELS_COUNTED ? model : OTHER_MODELS;
      s = this.#models.get(name) ?? emptyModelStats();
      this.#models.set(name, s);
    }
    return s;
  }

  request(): void {
    this.#requests++;
  }

  /** The JSON of `GET /codecite/stats`: `{requests, models: {name: ModelStats}}`, models by name. */
  toJSON(): StatsReport {
    return { requests: this.#requests, models: modelsByName(this.#models) };
  }
}
