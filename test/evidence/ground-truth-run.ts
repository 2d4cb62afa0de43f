/**
 * Runs the ground-truth comparison on any checkout and prints the agreement figures:
 *
 *   npx tsx test/evidence/ground-truth-run.ts <repo-dir> [--python] [--ts] [--details N] [--link-workspaces]
 *
 * Both languages by default. `--details N` lists up to N differences of each kind.
 * `--link-workspaces` writes `node_modules/<name>` links to the repository's own packages into
 * `<repo-dir>` so TypeScript can resolve them by name, as after `npm install` (scratch copies only).
 */
import { compareTypeScript, comparePython, summarize, type Agreement } from "./ground-truth-compare.js";

const args = process.argv.slice(2);
const root = args.find((a) => !a.startsWith("--"));
if (root === undefined) {
  process.stderr.write("usage: ground-truth-run.ts <repo-dir> [--python] [--ts] [--details N]\n");
  process.exit(2);
}
const detailsAt = args.indexOf("--details");
const details = detailsAt >= 0 ? Number(args[detailsAt + 1] ?? "10") : 0;
const wantPy = args.includes("--python") || !args.includes("--ts");
const wantTs = args.includes("--ts") || !args.includes("--python");

function print(a: Agreement): void {
  process.stdout.write(`${summarize(root as string, a)}\n`);
  if (details > 0) {
    const list = (label: string, items: unknown[]) => {
      if (items.length === 0) return;
      process.stdout.write(`  ${label} (${items.length}):\n`);
      for (const i of items.slice(0, details)) process.stdout.write(`    ${JSON.stringify(i)}\n`);
    };
    list("only truth", a.onlyTruth);
    list("only ours", a.onlyOurs);
    list("ours-only resolution", a.resolution.oursOnly);
    list("truth-only resolution", a.resolution.truthOnly);
    list("different files", a.resolution.differ);
    list("different module names", a.resolution.nameDiffer);
  }
}

if (wantPy) print(await comparePython(root));
if (wantTs) print(await compareTypeScript(root, { linkWorkspaces: args.includes("--link-workspaces") }));
