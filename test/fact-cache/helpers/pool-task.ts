/** Task functions run by the ParsePool tests inside worker threads. */
import { threadId } from "node:worker_threads";

/** Counts `def NAME` lines; reports the thread that did it. Busy-waits `spinMs` so tasks overlap. */
export function countDefs(input: { text: string; spinMs?: number }): { defs: string[]; threadId: number } {
  const until = Date.now() + (input.spinMs ?? 0);
  while (Date.now() < until) {
    // keep this thread busy so the pool must hand the next task to another thread
  }
  const defs = [...input.text.matchAll(/^def (\w+)/gm)].map((m) => m[1] as string);
  return { defs, threadId };
}

export async function failWithCode(input: { code: string }): Promise<never> {
  await Promise.resolve();
  const err = new Error(`refused: ${input.code}`) as Error & { code: string; hint: string };
  err.name = "ToolError";
  err.code = input.code;
  err.hint = "try another file";
  throw err;
}

/** Ends the worker thread abruptly. */
export function die(): never {
  process.exit(7);
}

export const notAFunction = 42;
