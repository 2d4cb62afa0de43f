/** The note of an evidence result in the model's words (as the tool result envelope carries it). */
import { renderForModel, type AdviceText } from "../../src/evidence/advice.js";

/** `r.note` rendered for the model; `undefined` when the result has no note. */
export function noteOf(r: { note?: AdviceText | string | undefined }): string | undefined {
  return r.note === undefined ? undefined : renderForModel(r.note);
}
