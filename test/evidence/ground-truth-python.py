#!/usr/bin/env python3
"""Ground truth for codecite's Python import edges, from Python's own tooling.

Reads JSON from stdin: {"root": "/abs/repo", "files": ["repo-relative", ...]} (the files the
workspace lists) and prints JSON: {"imports": [...], "skipped": [...]}.

- Statements: ``ast`` finds every ``import``/``from … import`` statement in the whole tree of each
  ``.py`` file (``lineno``..``end_lineno``), and every ``importlib.import_module("lit")`` /
  ``import_module("lit")`` / ``__import__("lit")`` call with a literal string.
- Resolution: the import system's path-based finder (``importlib.machinery.PathFinder``, i.e.
  ``FileFinder``: packages, modules, PEP 420 namespace packages) searched over an explicit list of
  folders — nothing is imported or executed. Relative names go through
  ``importlib.util.resolve_name`` (PEP 328) and are searched from the package's folder.
- The folder list (the ``sys.path`` a file would run with) is the assumption under test: the
  file's own folder when it is not a package (a script's folder is ``sys.path[0]``), then the
  import roots that contain the file (deepest first), then the other roots. Roots: the repository
  root, the parent of each top-level package, and ``src``/``lib`` folders outside packages.
- grimp's rules on top: ``from X import y`` → ``X.y`` when that is a module, else ``X``;
  ``import a.b`` where ``a.b`` is missing but ``a`` exists → ``a``.

Each record: {"file", "line", "end_line", "spec" (as written, with dots), "name" (imported name or
null), "module" (absolute name), "target"}; target is a repository-relative file,
"namespace:<module>", "external", or "unresolved".
"""
import ast
import importlib.machinery
import importlib.util
import json
import os
import re
import sys

IDENT = re.compile(r"^[^\W\d]\w*$")


def main() -> None:
    req = json.load(sys.stdin)
    root = os.path.realpath(req["root"])
    files = sorted(req["files"])
    py = [f for f in files if f.endswith(".py")]
    pkg_inits = {os.path.dirname(f) for f in files if os.path.basename(f) in ("__init__.py", "__init__.pyi") and os.path.dirname(f) != ""}

    def is_pkg(d: str) -> bool:
        return d in pkg_inits

    py_dirs = set()
    for f in files:
        if f.endswith((".py", ".pyi")):
            d = os.path.dirname(f)
            while True:
                py_dirs.add(d)
                if d == "":
                    break
                d = os.path.dirname(d)

    roots = {""}
    for d in py_dirs:
        if d == "":
            continue
        parent = os.path.dirname(d)
        if is_pkg(d) and not is_pkg(parent):
            roots.add(parent)
        if os.path.basename(d) in ("src", "lib") and not is_pkg(d) and not is_pkg(parent):
            roots.add(d)
    roots = sorted(roots)

    def within(path: str, d: str) -> bool:
        return d == "" or path == d or path.startswith(d + "/")

    def abspath(rel: str) -> str:
        return os.path.join(root, rel) if rel else root

    def search_path(f: str) -> list:
        d = os.path.dirname(f)
        out = []
        if not is_pkg(d):
            out.append(d)
        for r in sorted([r for r in roots if within(d, r)], key=len, reverse=True):
            if r not in out:
                out.append(r)
        for r in roots:
            if r not in out:
                out.append(r)
        return [abspath(x) for x in out]

    def module_name(f: str):
        d = os.path.dirname(f)
        if is_pkg(d):
            top = d
            while is_pkg(os.path.dirname(top)):
                top = os.path.dirname(top)
            base = os.path.dirname(top)
        else:
            base = max([r for r in roots if within(d, r)], key=len)
        rel = f[len(base) + 1 :] if base else f
        parts = rel[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        if not parts or not all(IDENT.match(p) for p in parts):
            return None
        return ".".join(parts)

    def rel(p: str) -> str:
        return os.path.relpath(os.path.realpath(p), root).replace(os.sep, "/")

    def find(fullname: str, path: list):
        # FileFinder looks only at the last part of a name; passing just that part keeps PathFinder
        # from consulting sys.modules for a parent package (nothing here is imported).
        try:
            return importlib.machinery.PathFinder.find_spec(fullname.rpartition(".")[2], path)
        except (ImportError, ValueError):
            return None

    def chain(parts: list, start_path: list, prefix: list):
        """Specs found for prefix+parts[:i], part by part."""
        found = []
        path = start_path
        for i, part in enumerate(parts):
            spec = find(".".join(prefix + parts[: i + 1]), path)
            if spec is None:
                break
            found.append(spec)
            if spec.submodule_search_locations is None:
                break
            path = list(spec.submodule_search_locations)
        return found

    def target_of(spec, module: str) -> str:
        if spec.origin in (None, "namespace") or not os.path.isfile(spec.origin):
            return "namespace:" + module
        return rel(spec.origin)

    def resolve(f: str, spec_text: str, name):
        level = len(spec_text) - len(spec_text.lstrip("."))
        rest = spec_text[level:]
        rest_parts = rest.split(".") if rest else []
        if level > 0:
            own = module_name(f)
            if own is None:
                return None, "unresolved"
            pkg = own if os.path.basename(f) == "__init__.py" else own.rpartition(".")[0]
            if not pkg:
                return None, "unresolved"
            try:
                absolute = importlib.util.resolve_name(spec_text, pkg)
            except ImportError:
                return None, "unresolved"
            base_parts = absolute.split(".")[: len(absolute.split(".")) - len(rest_parts)] if rest_parts else absolute.split(".")
            base_dir = os.path.dirname(abspath(f))
            for _ in range(level - 1):
                base_dir = os.path.dirname(base_dir)
            base_spec = importlib.machinery.ModuleSpec(".".join(base_parts), None, is_package=True)
            init = os.path.join(base_dir, "__init__.py")
            if os.path.isfile(init):
                base_spec = importlib.machinery.ModuleSpec(".".join(base_parts), None, origin=init, is_package=True)
            base_spec.submodule_search_locations = [base_dir]
            found = chain(rest_parts, [base_dir], base_parts)
            start = base_spec
        else:
            base_parts = []
            found = chain(rest_parts, search_path(f), [])
            start = None
        full = base_parts + rest_parts
        complete = len(found) == len(rest_parts)
        target = start if not rest_parts else (found[-1] if complete else None)
        if name is not None:
            if target is None:
                if level == 0 and not found:
                    return rest, "external"
                return ".".join(full), "unresolved"
            if name != "*" and target.submodule_search_locations is not None:
                sub = find(".".join(full + [name]), list(target.submodule_search_locations))
                if sub is not None:
                    return ".".join(full + [name]), target_of(sub, ".".join(full + [name]))
            return ".".join(full), target_of(target, ".".join(full))
        if target is not None:
            return ".".join(full), target_of(target, ".".join(full))
        if level == 0 and not found:
            return rest, "external"
        if len(found) == len(rest_parts) - 1 and found:
            m = ".".join(base_parts + rest_parts[: len(found)])
            return m, target_of(found[-1], m)
        return ".".join(full), "unresolved"

    imports = []
    skipped = []
    for f in py:
        try:
            with open(abspath(f), "rb") as fh:
                tree = ast.parse(fh.read(), filename=f)
        except (SyntaxError, ValueError, OSError) as e:
            skipped.append({"file": f, "error": type(e).__name__})
            continue

        def emit(node, spec_text, name):
            module, target = resolve(f, spec_text, name)
            imports.append(
                {"file": f, "line": node.lineno, "end_line": node.end_lineno, "spec": spec_text, "name": name, "module": module, "target": target}
            )

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    emit(node, a.name, None)
            elif isinstance(node, ast.ImportFrom):
                spec_text = "." * node.level + (node.module or "")
                for a in node.names:
                    emit(node, spec_text, a.name)
            elif isinstance(node, ast.Call) and node.args:
                fn = node.func
                fname = fn.id if isinstance(fn, ast.Name) else (fn.attr if isinstance(fn, ast.Attribute) else None)
                if fname == "__import__" and isinstance(fn, ast.Attribute):
                    fname = None
                arg = node.args[0]
                if fname in ("import_module", "__import__") and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if arg.value.lstrip(".") and all(IDENT.match(p) for p in arg.value.lstrip(".").split(".")):
                        imports.append(
                            {
                                "file": f,
                                "line": node.lineno,
                                "end_line": node.end_lineno,
                                "spec": arg.value,
                                "name": None,
                                "module": None,
                                "target": None,
                                "dynamic": True,
                            }
                        )
                        m, t = resolve(f, arg.value, None)
                        imports[-1]["module"], imports[-1]["target"] = m, t
    json.dump({"imports": imports, "skipped": skipped, "roots": roots}, sys.stdout)


if __name__ == "__main__":
    main()
