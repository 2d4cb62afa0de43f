#!/usr/bin/env python3
"""Swift declarations for the definitions ground truth, in universal-ctags' JSON tag shape.

universal-ctags (5.9.0, Debian) has no Swift parser, so ``ground-truth-defs.ts`` runs this
instead for ``swift``. It is written from The Swift Programming Language's grammar
("Declarations", https://docs.swift.org/swift-book/documentation/the-swift-programming-language/declarations/)
and shares nothing with codecite (no tree-sitter): a lexer (comments, nested block comments,
string literals with ``\\(…)`` interpolation, multi-line and raw ``#"…"#`` strings) and a brace
stack that knows which ``{`` opens a type, extension or protocol body.

Reads repository-relative paths (one a line) on stdin, run in the repository's folder; prints
one JSON tag a line: ``{"_type": "tag", "name", "path", "line", "kind", "scope"?, "scopeKind"?}``.

Declarations are those at file level and directly in a type, extension or protocol body (never in
a function, accessor or closure body; ``#if`` branches are all read):
- ``class``/``struct``/``enum``/``protocol``/``actor`` → kind of the keyword; ``extension T`` →
  no tag, its members get scope ``T`` (every part of a dotted ``T``, generic arguments left out);
- ``func`` (name or operator), ``init`` (``init?``/``init!``), ``deinit``, ``subscript`` →
  ``function`` (``method`` in a type); ``macro`` → ``macro``;
- ``var``/``let`` → ``variable``/``constant``, one tag per bound name (also ``var a = 1, b = 2`` and
  tuple patterns); ``case`` in an enum → ``enumerator``, one per name;
- ``typealias``, ``associatedtype`` → ``typealias``; ``precedencegroup`` → ``precedencegroup``;
  ``prefix``/``infix``/``postfix operator`` → ``operator``;
- a declaration keyword after ``import`` (``import class Foundation.NSObject``) declares nothing.
"""
import json
import re
import sys
import unicodedata

TYPE_KEYWORDS = {"class": "class", "struct": "struct", "enum": "enum", "protocol": "protocol", "actor": "actor"}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "open", "package", "static", "final", "override", "mutating",
    "nonmutating", "convenience", "required", "lazy", "weak", "unowned", "indirect", "dynamic", "optional",
    "nonisolated", "isolated", "distributed", "consuming", "borrowing", "__consuming", "prefix", "infix", "postfix",
    "unsafe", "safe", "class",
}
OPERATOR_CHARS = set("/=-+!*%<>&|^~?.")
IDENT = re.compile(r"[^\W\d][\w$]*|\$[\w$]+|`[^`\n]+`")


def is_operator_char(c):
    """An operator character: ASCII `/=-+!*%<>&|^~?.` or a Unicode math or other symbol (`√`)."""
    return c in OPERATOR_CHARS or (ord(c) > 127 and unicodedata.category(c) in ("Sm", "So"))


def tokens(text):
    """(kind, value, line) tokens: 'id', 'op' (operator characters), 'p' (punctuation), 'nl', '#kw'."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            yield ("nl", "\n", line)
            line += 1
            i += 1
        elif c in " \t\r":
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth > 0:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        line += 1
                    i += 1
        elif c == '"' or (c == "#" and re.match(r"#+\"", text[i:])):
            start = i
            i = skip_string(text, i)
            line += text.count("\n", start, i)
            yield ("str", "", line)
        elif c == "#" and re.match(r"#[A-Za-z_]", text[i:]):
            m = IDENT.match(text, i + 1)
            yield ("#kw", "#" + m.group(0), line)
            i = m.end()
        elif c == "@":
            m = IDENT.match(text, i + 1)
            if m is None:
                i += 1
                continue
            yield ("attr", m.group(0), line)
            i = m.end()
        elif IDENT.match(text, i) and not c.isdigit():
            m = IDENT.match(text, i)
            yield ("id", m.group(0), line)
            i = m.end()
        elif c.isdigit():
            m = re.compile(r"[0-9][0-9A-Za-z_.]*").match(text, i)
            yield ("num", m.group(0), line)
            i = m.end()
        elif is_operator_char(c):
            j = i
            while j < n and is_operator_char(text[j]) and not text.startswith("//", j) and not text.startswith("/*", j):
                j += 1
            if j == i:
                j = i + 1
            yield ("op", text[i:j], line)
            i = j
        else:
            yield ("p", c, line)
            i += 1


def skip_string(text, i):
    """Index after the string literal starting at i (`"…"`, `\"\"\"…\"\"\"`, raw `#"…"#`), interpolations skipped."""
    hashes = 0
    while text[i] == "#":
        hashes, i = hashes + 1, i + 1
    multi = text.startswith('"""', i)
    quote = '"""' if multi else '"'
    i += len(quote)
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    n = len(text)
    while i < n:
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                i = skip_parens(text, j)
            else:
                i = j + 1
        elif text.startswith(close, i):
            return i + len(close)
        elif not multi and text[i] == "\n":
            return i
        else:
            i += 1
    return n


def skip_parens(text, i):
    """Index after the `(…)` starting at i (an interpolation), strings inside skipped."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def declarations(text, path):
    toks = [t for t in tokens(text) if t[0] != "str"]
    out = []
    # Stack of brace contexts: ("type", scope names, kind) or ("body",).
    stack = []
    pending_type = None  # (scope list, kind) for the next "{" at nesting 0
    nest = 0  # ( and [ depth within the current statement
    i, n = 0, len(toks)

    def level():
        return len(stack) == 0 or stack[-1][0] == "type"

    def scope():
        for s in reversed(stack):
            if s[0] == "type":
                return s[1], s[2]
        return [], None

    def tag(name, kind, line):
        names, skind = scope()
        t = {"_type": "tag", "name": name.replace("`", ""), "path": path, "line": line, "kind": kind}
        if names:
            t["scope"] = ".".join(names)
            t["scopeKind"] = skind
        out.append(t)

    def names_after(j, enum_case):
        """Bound names of `var`/`let`/`case` starting at token j: first name, then each after a `,` at depth 0."""
        found = []
        depth = 0
        expect = True
        in_type = False
        while j < n:
            k, v, ln = toks[j]
            if expect:
                if k == "id" and v not in ("_",):
                    found.append((v, ln))
                    expect = False
                elif k == "p" and v == "(" and not enum_case:
                    # tuple pattern: every identifier up to the matching ")"
                    d = 0
                    while j < n:
                        k2, v2, ln2 = toks[j]
                        if k2 == "p" and v2 in "([":
                            d += 1
                        elif k2 == "p" and v2 in ")]":
                            d -= 1
                            if d == 0:
                                break
                        elif k2 == "id" and v2 != "_" and d == 1 and toks[j + 1][1] != ":":
                            # a name at the pattern's own depth, not a label (`(a: Int, b: Int)`)
                            found.append((v2, ln2))
                        j += 1
                    expect = False
                elif k == "nl":
                    pass
                else:
                    expect = False
                j += 1
                continue
            if k == "p" and v in "([":
                depth += 1
            elif k == "p" and v in ")]":
                depth -= 1
            elif k == "p" and v == ":" and depth == 0:
                in_type = True
            elif k == "op" and in_type and depth >= 0:
                # generic arguments of the annotated type (`CheckedContinuation<Void, Never>?`)
                w = v.replace("->", "")
                depth += w.count("<") - w.count(">")
                if v.startswith("=") and depth <= 0:
                    depth, in_type = 0, False
            elif k == "p" and v == "{" and depth == 0:
                break
            elif k == "p" and v == "}" and depth == 0:
                break
            elif k == "p" and v == ";" and depth == 0:
                break
            elif k == "p" and v == "," and depth == 0:
                expect, in_type = True, False
            elif k == "nl" and depth == 0:
                prev = toks[j - 1]
                nxt = next((t for t in toks[j + 1:] if t[0] != "nl"), None)
                if not (prev[0] == "op" or (prev[0] == "p" and prev[1] in ",:") or (nxt is not None and (nxt[0] == "op" and nxt[1] not in ("?",) or (nxt[0] == "p" and nxt[1] in ",")))):
                    break
            j += 1
        return found

    while i < n:
        k, v, line = toks[i]
        if k == "p" and v in "([":
            nest += 1
        elif k == "p" and v in ")]":
            nest = max(0, nest - 1)
        elif k == "p" and v == "{":
            if pending_type is not None and nest == 0:
                stack.append(("type", pending_type[0], pending_type[1], nest))
                pending_type = None
            else:
                stack.append(("body", nest))
            nest = 0
        elif k == "p" and v == "}":
            nest = stack.pop()[-1] if stack else 0
            pending_type = None
        elif level() and nest == 0 and k == "id":
            nxt = toks[i + 1] if i + 1 < n else ("", "", 0)
            prev = toks[i - 1] if i > 0 else ("", "", 0)
            if prev[0] == "id" and prev[1] == "import":
                # `import class Foundation.NSObject` names an imported declaration, it declares none
                i += 1
                continue
            if v in TYPE_KEYWORDS and not (v == "class" and nxt[0] == "id" and (nxt[1] in MODIFIERS or nxt[1] in ("func", "var", "let", "subscript", "init", "typealias", "deinit"))) and nxt[0] == "id":
                tag(nxt[1], TYPE_KEYWORDS[v], nxt[2])
                pending_type = (scope()[0] + [nxt[1].replace("`", "")], TYPE_KEYWORDS[v])
                i += 2
                continue
            if v == "extension" and nxt[0] == "id":
                parts, j = [nxt[1]], i + 2
                while j + 1 < n and toks[j] == ("op", ".", toks[j][2]) and toks[j + 1][0] == "id":
                    parts.append(toks[j + 1][1])
                    j += 2
                # generic arguments and `where` clauses after the path are no part of the scope
                pending_type = (parts, "extension")
                i = j
                continue
            fkind = "method" if scope()[0] else "function"
            if v == "func":
                if nxt[0] in ("id", "op"):
                    tag(nxt[1], fkind, nxt[2])
                i += 2
                continue
            if v in ("init", "deinit", "subscript"):
                # not a member access (`self.init(…)`, `x.subscript`)
                if not (prev[0] == "op" and prev[1] == "."):
                    tag(v, fkind, line)
            elif v == "macro" and nxt[0] == "id":
                tag(nxt[1], "macro", nxt[2])
                i += 2
                continue
            elif v in ("var", "let"):
                # not a binding of a condition or loop (`if let x`, `case let x`, `for var x`)
                if not (prev[0] == "id" and prev[1] in ("if", "guard", "while", "case", "for")):
                    for name, ln in names_after(i + 1, False):
                        tag(name, "variable" if v == "var" else "constant", ln)
            elif v == "case" and scope()[1] == "enum":
                for name, ln in names_after(i + 1, True):
                    tag(name, "enumerator", ln)
            elif v in ("typealias", "associatedtype") and nxt[0] == "id":
                tag(nxt[1], "typealias", nxt[2])
                i += 2
                continue
            elif v == "precedencegroup" and nxt[0] == "id":
                tag(nxt[1], "precedencegroup", nxt[2])
                pending_type = (scope()[0] + [nxt[1]], "precedencegroup")
                i += 2
                continue
            elif v == "operator" and nxt[0] == "op":
                tag(nxt[1], "operator", nxt[2])
                i += 2
                continue
        i += 1
    # precedence groups' bodies hold no declarations
    return [t for t in out if t.get("scopeKind") != "precedencegroup"]


def main():
    for path in sys.stdin.read().split("\n"):
        if path.strip() == "":
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for t in declarations(f.read(), path):
                print(json.dumps(t))


if __name__ == "__main__":
    main()
