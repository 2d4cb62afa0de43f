/**
 * find_importers: a bare name that names a module of a test folder exactly also ends a package
 * module's name (`fields` → `tests/…/fields.py` while `pkg.fields` has importers); the note says both.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { noteOf } from "../helpers/note.js";

const FILES: Record<string, string> = {
  "pyproject.toml": "[project]\nname = \"pkg\"\n",
  "pkg/__init__.py": "",
  "pkg/fields.py": "class Field:\n    pass\n",
  "pkg/forms.py": "from pkg.fields import Field\n",
  "pkg/models.py": "from pkg import fields\n",
  "tests/test_forms/fields.py": "def make():\n    return 1\n",
  "tests/test_forms/test_fields.py": "from fields import make\n",
};

describe("find_importers: a test folder's module and a package module with the same last part", () => {
  let dir: string;
  let ws: Workspace;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-testfolder-"));
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    ws = await Workspace.open(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("`fields` answers the test folder's module and names pkg.fields in the note", async () => {
    const r = await findImporters(ws, { module_name: "fields", max_results: 50 });
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(["tests/test_forms/test_fields.py:1 fields"]);
    expect(noteOf(r)).toBe(
      "Read as the module 'fields' of a test folder (tests/test_forms/fields.py); a package module also ends in it: pkg.fields (pkg/fields.py). Pass that full name or path for its importers.",
    );
  });

  it("the package module keeps its importers under its full name; no note there", async () => {
    const r = await findImporters(ws, { module_name: "pkg.fields", max_results: 50 });
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(["pkg/forms.py:1 pkg.fields", "pkg/models.py:1 pkg.fields"]);
    expect(noteOf(r)).toBeUndefined();
  });
});
