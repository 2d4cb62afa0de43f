/**
 * Runs npm scripts side by side, at most as many at once as the machine has cores
 * (`os.availableParallelism()`), in the order given (put the longest first). Each script's output
 * is held back and printed whole when it ends, so the outputs do not interleave. Exits 1 when
 * any script failed, after all have ended (so every failure is shown), else 0.
 *
 * `npm test` uses it for its static checks (lint, typecheck, dead code, build): each is one
 * single-threaded process, so on two cores two of them run at once for the time of one.
 *
 * Usage: node scripts/run-parallel.mjs <npm script>...
 * Plain JavaScript on purpose: it runs before anything is built, without a TypeScript loader.
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import os from "node:os";
import process from "node:process";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write("usage: node scripts/run-parallel.mjs <npm script>...\n");
  process.exit(2);
}
const slots = Math.max(1, Math.min(scripts.length, os.availableParallelism()));
const npm = process.env.npm_execpath;

/** Runs `npm run <name>`; resolves to its exit code, after printing its output whole. */
function run(name) {
  const started = Date.now();
  // Inside `npm test`, npm_execpath is npm's own CLI script: run it with this Node, no shell.
  const [cmd, args] = npm !== undefined && /\.[cm]?js$/.test(npm) ? [process.execPath, [npm, "run", name]] : ["npm", ["run", name]];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], shell: cmd === "npm" && process.platform === "win32" });
    const out = [];
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => out.push(d));
    let ended = false;
    const finish = (code) => {
      if (ended) return;
      ended = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = Buffer.concat(out).toString("utf8");
      process.stdout.write(`── ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${seconds} s\n${text}${text === "" || text.endsWith("\n") ? "" : "\n"}`);
      resolve(code);
    };
    child.on("error", (e) => {
      out.push(Buffer.from(`${e.message}\n`));
      finish(127);
    });
    child.on("close", (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

const queue = [...scripts];
const failed = [];
await Promise.all(
  Array.from({ length: slots }, async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if ((await run(name)) !== 0) failed.push(name);
    }
  }),
);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(", ")}\n`);
  process.exit(1);
}
