/**
 * Compares, file by file, the Python imports read from the text (`src/evidence/analysis/lang/python-imports.ts`)
 * with the imports the tree-sitter extractor gives (`python.ts` through `extractFacts`), over every
 * `.py`/`.pyi` file below the folders given (each file's text as the workspace reads it: lines split
 * on `\n`, a trailing `\r` and a leading byte-order mark dropped, joined with `\n`).
 *
 * Usage: `npx tsx scripts/python-imports-parity.ts <folder>...`
 * Prints per folder: files, files read lexically and equal, files left to the parse (`undefined`),
 * imports compared, and every file whose imports differ with the first difference; exits 1 when one does.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { extractFacts } from "../src/evidence/analysis/tree-sitter.js";
import { python } from "../src/evidence/analysis/lang/python.js";
import { pythonImports } from "../src/evidence/analysis/lang/python-imports.js";
import { splitLines } from "../src/evidence/sandbox/text-file.js";

function pythonFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== ".git" && e.name !== "node_modules") pythonFiles(p, out);
    } else if (e.isFile() && /\.pyi?$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

async function main(): Promise<void> {
  let failed = false;
  for (const dir of process.argv.slice(2)) {
    let files = 0;
    let equal = 0;
    let parsed = 0;
    let imports = 0;
    let treeFailed = 0;
    const diffs: string[] = [];
    for (const file of pythonFiles(dir)) {
      files++;
      const text = splitLines(readFileSync(file, "utf8").replace(/^\uFEFF/, "")).join("\n");
      const lexical = pythonImports(text);
      if (lexical === undefined) {
        parsed++;
        continue;
      }
      let tree;
      try {
        tree = (await extractFacts(python, text, { references: false })).imports;
      } catch {
        treeFailed++;
        continue;
      }
      const a = JSON.stringify(lexical);
      const b = JSON.stringify(tree);
      if (a === b) {
        equal++;
        imports += lexical.length;
        continue;
      }
      const n = Math.max(lexical.length, tree.length);
      let first = "";
      for (let i = 0; i < n && first === ""; i++) {
        if (JSON.stringify(lexical[i]) !== JSON.stringify(tree[i])) first = `#${i}: lexical ${JSON.stringify(lexical[i])} tree ${JSON.stringify(tree[i])}`;
      }
      diffs.push(`${path.relative(dir, file)} (${lexical.length} vs ${tree.length}) ${first}`);
    }
    console.log(`${dir}: ${files} files, ${equal} equal (${imports} imports), ${parsed} left to the parse, ${treeFailed} the parse refused, ${diffs.length} differ`);
    for (const d of diffs) console.log(`  DIFF ${d}`);
    if (diffs.length > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

await main();
