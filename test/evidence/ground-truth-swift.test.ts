/**
 * Swift definitions against `ground-truth-swift-decls.py` (universal-ctags has no Swift parser; the
 * script reads Swift's declaration grammar with a lexer and a brace stack, no tree-sitter). The
 * fixture `swift-kinds/Kinds.swift` holds one or more declarations of each kind the issue lists
 * (extensions of outside types, nested type aliases, `where` extensions, `#if os(…)` branches,
 * property wrappers, result builders, associated types, generic `where` clauses, actors, macros,
 * `subscript`, `init?`/`init!`/`deinit`, operator and precedence-group declarations, enum cases
 * with associated values, `static`/`class` members, computed properties, `fileprivate extension`,
 * typed throws, `try await` in a condition, tuple patterns). Real repositories: `ground-truth-c.test.ts`
 * with `CODECITE_GT_DEFS="/src/swift-log|swift;/src/Nimble|swift"`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { swift } from "../../src/evidence/analysis/lang/swift.js";
import { factsOf, fixtureDir, hasTool } from "./lang-test-kit.js";

const dir = fixtureDir("swift-kinds");
const script = fileURLToPath(new URL("ground-truth-swift-decls.py", import.meta.url));

interface Tag {
  name: string;
  line: number;
  kind: string;
  scope?: string;
}

function tags(file: string): Tag[] {
  const r = spawnSync("python3", [script], { cwd: dir, input: `${file}\n`, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Tag);
}

describe.skipIf(!hasTool("python3", ["--version"]))("swift definitions vs ground-truth-swift-decls.py", () => {
  it("the script lists every declaration of the fixture with its enclosing type, and none from comments, strings, imports or bodies", () => {
    expect(tags("Kinds.swift").map((t) => `${t.line} ${t.kind} ${t.scope ?? ""}.${t.name}`)).toEqual([
      "3 method String.padded", "5 struct .Box", "6 typealias Box.Inner", "7 struct Box.Deep", "7 typealias Box.Deep.Leaf", "10 method Array.uniq",
      "13 function .linuxOnly", "15 function .macOnly", "17 class .Model", "18 variable Model.title", "19 variable Model.count", "22 enum .ListBuilder",
      "23 method ListBuilder.buildBlock", "25 protocol .Store", "26 typealias Store.State", "27 method Store.reduce", "29 function .first", "30 actor .Bank",
      "31 variable Bank.balance", "32 method Bank.deposit", "35 macro .stringify", "37 macro .AddInit", "38 struct .Grid", "39 method Grid.subscript",
      "40 method Grid.init", "41 method Grid.init", "42 method Grid.deinit", "44 operator .<~>", "45 operator .√", "46 precedencegroup .PowerPrecedence",
      "47 function .<~>", "48 enum .Shape", "49 enumerator Shape.circle", "49 enumerator Shape.square", "50 enumerator Shape.pair", "51 enumerator Shape.none",
      "53 class .Base", "54 method Base.make", "55 method Base.build", "56 variable Base.shared", "57 variable Base.area", "61 variable Base.watched",
      "64 method Base.hidden", "66 function .last", "67 function .end", "69 struct .Waiter", "70 variable Waiter.continuation", "70 variable Waiter.count",
      "71 method Waiter.poll", "76 constant Waiter.lo", "76 constant Waiter.hi", "77 constant Waiter.text", "78 variable Waiter.ready",
    ]);
  });

  it("codecite's definitions of every kind agree with the script's: name, line within the range, container", async () => {
    const ours = (await factsOf(swift, readFileSync(path.join(dir, "Kinds.swift"), "utf8"))).symbols;
    const truth = tags("Kinds.swift");
    const unmatched = truth.filter((t) => !ours.some((d) => d.name === t.name && (d.container ?? "") === (t.scope ?? "") && t.line >= d.start_line && t.line <= d.end_line));
    const extra = ours.filter((d) => !truth.some((t) => d.name === t.name && (d.container ?? "") === (t.scope ?? "") && t.line >= d.start_line && t.line <= d.end_line));
    expect(unmatched).toEqual([]);
    expect(extra).toEqual([]);
    expect(ours.length).toBe(truth.length);
  });
});
