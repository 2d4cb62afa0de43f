/**
 * How a test observes the typed errors of the evidence functions: the `ToolError` a call
 * rejects (or throws) with, or its outcome as code + JSON text so that a test can also check
 * that no secret leaked into the error.
 */
import { ToolError } from "../../src/evidence/evidence.js";

/** A call to settle: a promise, or a function that may throw, return a value or return a promise. */
export type Settleable = Promise<unknown> | (() => unknown);

/** What a call came to: `code` is `"OK"` on success, else the `ToolError` code. */
export interface ToolOutcome {
  code: string;
  /** The ToolError message; `""` on success. */
  message: string;
  /** The ToolError hint, when it has one. */
  hint?: string;
  /** JSON of the result on success, of `ToolError.toJSON()` on failure. */
  text: string;
}

function settle(run: Settleable): Promise<unknown> {
  return typeof run === "function" ? Promise.resolve().then(run) : run;
}

/**
 * Settles `run` and describes the outcome.
 *
 * @throws any error that is not a `ToolError` (an untyped failure fails the test).
 */
export async function toolOutcome(run: Settleable): Promise<ToolOutcome> {
  try {
    const r = await settle(run);
    return { code: "OK", message: "", text: JSON.stringify(r) };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    const o: ToolOutcome = { code: err.code, message: err.message, text: JSON.stringify(err.toJSON()) };
    if (err.hint !== undefined) o.hint = err.hint;
    return o;
  }
}

/**
 * Settles `run` and returns the `ToolError` it failed with.
 *
 * @throws an `Error` when `run` succeeds or fails with anything else.
 */
export async function toolErrorOf(run: Settleable): Promise<ToolError> {
  let e: unknown;
  try {
    e = await settle(run);
  } catch (err) {
    e = err;
  }
  if (!(e instanceof ToolError)) throw new Error(`expected a ToolError, got ${JSON.stringify(e)}`);
  return e;
}
