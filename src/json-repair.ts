/**
 * `jsonrepair` for untrusted text — a repository's configuration files, a model's tool calls and
 * the JSON a model writes in its answer — with a bound on the text's length.
 *
 * Why a bound: `jsonrepair` (3.x, `lib/esm/regular/jsonrepair.js`) builds its output as one string
 * and, for each comma or colon missing between values, copies the whole output to insert it
 * (`insertBeforeLastWhitespace`), so its time grows with the square of the text, and far faster past
 * ~100 KB (measured, CPU: 64 KiB of `[1 1 1 …]` 0.4 s, 128 KiB 33 s; 144 KiB of `{}` lines 25 s;
 * a megabyte runs for hours; and past ~50 KB some shapes far worse than the square: 64,000
 * characters of `a` lines 5.8 s, 48,000 0.09 s, while at 32 KiB the worst of 43 shapes tried took
 * 0.3 s). A hostile repository's `tsconfig.json`, or a model's tool call,
 * would hold a query (and a server's event loop) that long. Text that needs repairs is small in
 * practice (a tsconfig with comments, a tool call with a trailing comma).
 *
 * The package is loaded (its CommonJS build, synchronously) only when text is first repaired: most
 * commands parse only valid JSON and never pay for it.
 */
import { createRequire } from "node:module";
import type { jsonrepair } from "jsonrepair";

/** Longest text given to `jsonrepair`, in UTF-16 code units (see the module comment). */
export const MAX_REPAIR_CHARS = 32 * 1024;

let repair: typeof jsonrepair | undefined;

/**
 * `jsonrepair(text)`: `text` turned into valid JSON text.
 * @throws RangeError when `text` is longer than {@link MAX_REPAIR_CHARS} (it is not repaired);
 *   whatever `jsonrepair` throws for text it cannot repair.
 */
export function repairJson(text: string): string {
  if (text.length > MAX_REPAIR_CHARS) throw new RangeError(`JSON text of ${text.length} characters is too long to repair (limit ${MAX_REPAIR_CHARS})`);
  repair ??= (createRequire(import.meta.url)("jsonrepair") as { jsonrepair: typeof jsonrepair }).jsonrepair;
  return repair(text);
}
