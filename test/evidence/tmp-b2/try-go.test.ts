import { it } from "vitest";
import { go } from "../../../src/evidence/lang/go.js";
import { factsOf, fixtureDir, folderProject, resolvedImports } from "../lang-test-kit.js";
it("dump", async () => {
  const p = folderProject(fixtureDir("go-project"));
  for (const f of p.files.filter((f) => f.endsWith(".go"))) {
    const facts = await factsOf(go, p.read(f));
    console.log(f, JSON.stringify(facts.symbols));
    console.log(JSON.stringify(await resolvedImports(go, p, f), null, 0));
  }
});
