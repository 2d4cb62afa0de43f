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

/** Counters for every model the gateway has seen. */
export class GatewayStats {
  readonly #models = new Map<string, ModelStats>();
  #requests = 0;

  /** The counters of `model`, created on first use. */
  model(model: string): ModelStats {
    let s = this.#models.get(model);
    if (!s) {
      s = { turns: 0, native_calls: 0, recovered: {}, refusals: 0, switches: 0, errors: 0 };
      this.#models.set(model, s);
    }
    return s;
  }

  request(): void {
    this.#requests++;
  }

  /** The JSON of `GET /codecite/stats`: `{requests, models: {name: ModelStats}}`, models by name. */
  toJSON(): { requests: number; models: Record<string, ModelStats> } {
    const models: Record<string, ModelStats> = {};
    for (const name of [...this.#models.keys()].sort()) models[name] = this.#models.get(name)!;
    return { requests: this.#requests, models };
  }
}
