/**
 * Worker-thread side of {@link ParsePool}: imports the task module named in `workerData`,
 * then answers each `{id, input}` message with `{id, ok: true, value}` or
 * `{id, ok: false, error: {name, message, code?, hint?, stack?}}`. One task at a time.
 */
import { parentPort, workerData } from "node:worker_threads";

interface Data {
  module: string;
  exportName: string;
}

type TaskFn = (input: unknown) => unknown;

const { module: moduleUrl, exportName } = workerData as Data;
let fn: Promise<TaskFn> | undefined;

function load(): Promise<TaskFn> {
  fn ??= import(moduleUrl).then((mod: Record<string, unknown>) => {
    const f = mod[exportName];
    if (typeof f !== "function") throw new TypeError(`${moduleUrl} has no function export named ${exportName}`);
    return f as TaskFn;
  });
  return fn;
}

function serializeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const e = err as Error & { code?: unknown; hint?: unknown };
    return { name: e.name, message: e.message, code: e.code, hint: e.hint, stack: e.stack };
  }
  return { name: "Error", message: String(err) };
}

parentPort?.on("message", (msg: { id: number; input: unknown }) => {
  void (async () => {
    try {
      const value = await (await load())(msg.input);
      parentPort?.postMessage({ id: msg.id, ok: true, value });
    } catch (err) {
      parentPort?.postMessage({ id: msg.id, ok: false, error: serializeError(err) });
    }
  })();
});
