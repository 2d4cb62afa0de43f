/**
 * Why a citing sentence that names something in its cited lines (status `supported`) still
 * claims what they visibly do not show (`citation-status.ts` decides it), and what each reason
 * means in words for people. Kept apart from the classifier so that renderers load only this.
 */
import type { UnshownClaim } from "./claim-checks.js";

/**
 * `value`: it states numbers or quoted strings and none occurs; `object`: the last code name it
 * writes does not occur while an earlier one does; the rest are the kinds of
 * `claim-checks.ts` ({@link UnshownClaim}).
 */
export type ClaimConcern = "value" | "object" | UnshownClaim;

/** What each {@link ClaimConcern} means, in words for people (human output, serve's Markdown). */
export const CONCERN_WORDS: Readonly<Record<ClaimConcern, string>> = {
  value: "the lines do not show the value the sentence states",
  object: "the lines do not show the last code name the sentence writes",
  "quoted-code": "the lines do not contain the code the sentence quotes",
  negation: "the sentence says the lines do not do what they visibly do",
  operation: "the lines do not show the operation the sentence names",
  property: "the lines do not declare the property the sentence names",
  definition: "the lines define nothing the sentence names",
  call: "the lines call nothing the sentence names",
  import: "the lines do not import what the sentence says is imported",
  type: "the lines do not show the type the sentence claims",
  instrument: "the lines do not use the tool the sentence names",
  only: "the lines list more than the sentence says there only is",
  separator: "the lines split on another separator than the sentence names",
};
