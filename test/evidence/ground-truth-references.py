"""Reference ground truth from jedi (Script.get_references), for test/evidence/ground-truth-references.ts.

Reads JSON from stdin: {"root": "<repo>", "targets": [{"file": "a/b.py", "line": 3, "column": 4}, ...]}
(line 1-based, column 0-based: jedi's convention) and prints one JSON list per target: the
[file, line] pairs of every reference jedi finds inside the root (definitions included).
"""
import json
import os
import sys

import jedi


def main() -> None:
    req = json.load(sys.stdin)
    root = os.path.realpath(req["root"])
    project = jedi.Project(root, added_sys_path=[root, os.path.join(root, "src")])
    out = []
    for t in req["targets"]:
        path = os.path.join(root, t["file"])
        try:
            script = jedi.Script(path=path, project=project)
            refs = script.get_references(t["line"], t["column"], include_builtins=False, scope="project")
        except Exception as err:  # noqa: BLE001 — one bad file must not stop the run
            out.append({"error": str(err)})
            continue
        found = []
        for r in refs:
            if r.module_path is None:
                continue
            p = os.path.realpath(str(r.module_path))
            if not p.startswith(root + os.sep):
                continue
            found.append([os.path.relpath(p, root).replace(os.sep, "/"), r.line])
        out.append(found)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
