/**
 * Leak checks of the bad-input tests: every fixture secret contains
 * {@link SECRET}, and neither a result nor a typed error may ever contain it.
 */
import { expect } from "vitest";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { type Settleable, toolOutcome } from "./tool-error.js";

/** The marker that every fixture secret (outside files, credentials, denied files) contains. */
export const SECRET = "TOPSECRET";

/**
 * Asserts that `run` ends with one of `codes` (a `ToolError` code, or `"OK"` for success) and
 * that neither its result nor its error mentions {@link SECRET}.
 */
export async function expectCode(run: Settleable, ...codes: string[]): Promise<void> {
  const o = await toolOutcome(run);
  expect(codes, `got ${o.code}: ${o.text}`).toContain(o.code);
  expect(o.text).not.toContain(SECRET);
}

/** Asserts that the evidence result `r` does not mention {@link SECRET} anywhere. */
export function noSecret(r: EvidenceResult): void {
  expect(JSON.stringify(r)).not.toContain(SECRET);
}
