/**
 * Nesting depth of JSON values, measured without recursion. Tool-call arguments come from a
 * model (or a proxy) and may be nested 100,000 levels deep; `JSON.stringify` and every recursive
 * walk over such a value overflow the call stack, so callers refuse values deeper than
 * {@link MAX_JSON_DEPTH} before anything else touches them.
 */

/** Deepest nesting accepted in tool-call arguments (objects and arrays; the top object is level 1). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` nests objects or arrays more than `max` levels deep (iterative; a value
 * reached twice, as in a cycle, is counted once per path until the limit stops the walk).
 */
export function jsonDepthExceeds(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (typeof c === "object" && c !== null) stack.push([c, depth + 1]);
  }
  return false;
}
