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
  const models: Record<string, ModelStats> = {};
  for (const name of [...sums.keys()].sort()) models[name] = sums.get(name)!;
  return agentTurns === undefined ? { requests, models } : { requests, models, agent_turns: agentTurns };
}

/** Counters for every model the gateway has seen. */
export class GatewayStats {
  readonly #models = new Map<string, ModelStats>();
  #requests = 0;

  /** The counters of `model`, created on first use. */
  model(model: string): ModelStats {
    let s = this.#models.get(model);
    if (!s) {
      s = emptyModelStats();
      this.#models.set(model, s);
    }
    return s;
  }

  request(): void {
    this.#requests++;
  }

  /** The JSON of `GET /codecite/stats`: `{requests, models: {name: ModelStats}}`, models by name. */
  toJSON(): StatsReport {
    const models: Record<string, ModelStats> = {};
    for (const name of [...this.#models.keys()].sort()) models[name] = this.#models.get(name)!;
    return { requests: this.#requests, models };
  }
}
