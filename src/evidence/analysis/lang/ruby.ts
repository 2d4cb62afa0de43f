/**
 * Ruby: definitions and `require` edges (tree-sitter-ruby 0.23 grammar).
 *
 * Definitions (at file level and in class and module bodies, also inside blocks at those levels
 * such as `included do … end`; never inside method bodies):
 * - `module M` → `module`, `class C` → `class`; `class A::B` gives `B` with container `A`. A class or
 *   module reopened in several places is reported at every site. A name written from the top level
 *   (`module ::HelperOne`, `class ::A::B`, `::Readline = …`; Ruby's `::` with nothing on its left
 *   names a top-level constant) has no enclosing type as container, wherever it is written.
 * - `def m` → `method` with the enclosing modules and classes as container (`function` at file level);
 *   `def self.m`, `def Const.m` and the `def`s of a `class << self` body → `method` of the enclosing
 *   class (singleton methods).
 * - `attr_reader :a` → `method` `a`, `attr_writer :a` → `a=`, `attr_accessor :a` → both.
 * - A `def` passed to a call (`private def m`) counts; `def obj.m` and the `def`s of `class << obj`
 *   have `obj` as container.
 * - `CONST = …` → `constant`; the `def`s in a block passed on its right (`X = Struct.new(:a) do … end`)
 *   have `X` as container.
 * - A block passed to a call that is the receiver of another (`Class.new do … end.new`,
 *   `lambda { def obj.m … }.call`) is walked like any call's block: its `def`s belong to the scope
 *   around (an anonymous class has no name of its own).
 * - Range: the whole definition.
 *
 * Imports: one {@link ImportRef} per `require`, `require_relative`, `load` or `autoload` call whose
 * argument is a string; an interpolated string carries `unresolved`. `require_relative` carries the
 * flag `relative`, and so does a `require`/`load` of a path built from the file's own place
 * (`require File.expand_path("../lib/jekyll", __dir__)`, `File.expand_path("x", File.dirname(__FILE__))`,
 * `File.expand_path("../x", __FILE__)`, `File.join(__dir__, "x")`: jekyll's benchmark/*.rb and
 * test/helper.rb), whose specifier is that path relative to the file's folder (`../lib/jekyll`).
 *
 * Resolution (Kernel#require_relative and #require, https://docs.ruby-lang.org/en/master/Kernel.html):
 * `require_relative "x"` → `x.rb` next to the requiring file (`.rb` added unless written);
 * `require "a/b"` → `a/b.rb` under a load path of the tree: the root's `lib/`, and the
 * `require_paths` of every `*.gemspec` (default `lib`, relative to the gemspec's folder); also the
 * requiring file's folder for `load`. Anything else (gems, the standard library) is external, matched
 * by its name. A file under a load path is named by its require name (`rack/utils`).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { isWithin, joinPath, memoize, parentDir } from "./project-files.js";
import { namedChildren, nodeLines } from "./syntax.js";
import { LOAD_FLAG, RELATIVE_REQUIRE_FLAG, requires } from "./ruby-requires.js";
import { RUBY_REFERENCE_RULES } from "./ruby-references.js";

const ACCESSORS = new Set(["attr_reader", "attr_writer", "attr_accessor"]);
/** Nodes walked into for definitions (bodies of classes, modules and blocks, never of methods). */
const ENTER = new Set(["program", "body_statement", "begin_block", "do_block", "block", "block_body", "if", "unless", "then", "else", "begin", "if_modifier", "unless_modifier", "element_reference", "ERROR"]);
const MAX_DEPTH = 128;

/** A `Const` or `A::B` name as parts (`::A::B` → `["A", "B"]`). */
function constPath(node: SyntaxNode | null): string[] {
  if (node === null) return [];
  return node.text.split("::").map((s) => s.trim()).filter((s) => s !== "");
}

/** The scope a `Const`/`A::B` name is declared in: none for `::A` (the top level), else `scope`. */
function scopeOf(node: SyntaxNode | null, scope: readonly string[]): readonly string[] {
  return node?.text.trimStart().startsWith("::") === true ? [] : scope;
}

/** Extracts Ruby definitions and requires from a `program` (rules in the module comment). */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const push = (name: string | undefined, kind: SymbolKind, container: readonly string[], node: SyntaxNode): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name, kind, ...nodeLines(node) };
    if (container.length > 0) def.container = container.join(".");
    symbols.push(def);
  };
  const walk = (parent: SyntaxNode, scope: readonly string[], depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const node of namedChildren(parent)) {
      switch (node.type) {
        case "class":
        case "module": {
          const named = node.childForFieldName("name");
          const outer = scopeOf(named, scope);
          const parts = constPath(named);
          const name = parts.pop();
          push(name, node.type === "class" ? "class" : "module", [...outer, ...parts], node);
          const body = node.childForFieldName("body");
          if (body !== null && name !== undefined) walk(body, [...outer, ...parts, name], depth + 1);
          break;
        }
        case "singleton_class": {
          // `class << self`: its methods are singleton methods of the enclosing class; `class << obj`: of `obj`.
          const value = node.childForFieldName("value");
          const owner = value === null || value.type === "self" ? scope : [value.text];
          const body = node.childForFieldName("body");
          if (body !== null) walk(body, owner, depth + 1);
          break;
        }
        case "method":
          push(node.childForFieldName("name")?.text, scope.length > 0 ? "method" : "function", scope, node);
          break;
        case "singleton_method": {
          const object = node.childForFieldName("object");
          const owner = object === null || object.type === "self" ? scope : constPath(object);
          push(node.childForFieldName("name")?.text, "method", owner, node);
          break;
        }
        case "assignment": {
          const left = node.childForFieldName("left");
          let inner = scope;
          if (left?.type === "constant") {
            push(left.text, "constant", scope, node);
            inner = [...scope, left.text];
          } else if (left?.type === "scope_resolution") {
            const outer = scopeOf(left, scope);
            const parts = constPath(left);
            const name = parts.pop();
            push(name, "constant", [...outer, ...parts], node);
            if (name !== undefined) inner = [...outer, ...parts, name];
          }
          // `X = Struct.new(:a) do def m … end end`, `app = Class.new do … end`: the block's definitions.
          const right = node.childForFieldName("right");
          if (right?.type === "call") call(right, inner);
          // `body = f { … }.call(env)[2]`: the call is inside the value.
          else if (right !== null && ENTER.has(right.type)) walk(right, inner, depth + 1);
          break;
        }
        case "call":
          call(node, scope);
          break;
        default:
          if (ENTER.has(node.type)) walk(node, scope, depth + 1);
      }
    }
  };
  const call = (node: SyntaxNode, scope: readonly string[], depth = 0): void => {
    const method = node.childForFieldName("method")?.text ?? "";
    const args = node.childForFieldName("arguments");
    // `Class.new do … end.new`, `lambda { … }.must_raise(E)`: the block belongs to the receiver's call.
    const receiver = node.childForFieldName("receiver");
    if (receiver?.type === "call" && depth < MAX_DEPTH) call(receiver, scope, depth + 1);
    if (node.childForFieldName("receiver") === null && ACCESSORS.has(method)) {
      for (const a of namedChildren(args ?? node)) {
        if (a.type !== "simple_symbol") continue;
        const name = a.text.slice(1);
        if (method !== "attr_writer") push(name, "method", scope, node);
        if (method !== "attr_reader") push(`${name}=`, "method", scope, node);
      }
      return;
    }
    // `private def m … end`, `memoize def m … end`: the definition is the argument.
    // `Rack::Lint.new(lambda { def obj.m … })`: definitions in blocks passed as arguments too.
    if (args !== null) walk(args, scope, 1);
    // `included do … end`, `Foo.configure do … end`: definitions in the block belong to this scope.
    const block = node.childForFieldName("block");
    if (block !== null) walk(block, scope, 1);
  };
  walk(root, [], 0);
  return { symbols, imports: requires(root) };
}

/**
 * A gemspec's `require_paths` setting: an array, a `%w` list or one string. The lists stop at a
 * bracket of either kind, so each setting is read up to the next one's bracket at most: stopping
 * only at the closer read the rest of the file from every unclosed setting (a gemspec of 64 KB of
 * `.require_paths=[`: 0.37 s; 1 MiB, the most a project read returns: about 95 s).
 */
const REQUIRE_PATHS = /\.require_paths\s*=\s*(\[[^[\]]*\]|%w[[(]([^[\]()]*)[\])]|["'][^"']*["'])/;

/** The load paths of the tree: `lib` and every gemspec's `require_paths` (once per view). */
function loadPaths(project: ProjectView): Promise<string[]> {
  return memoize(project, "ruby:load-paths", async () => {
    const paths = new Set<string>(["lib"]);
    for (const f of project.files) {
      if (!f.endsWith(".gemspec")) continue;
      const dir = parentDir(f);
      const text = (await project.readText(f)) ?? "";
      const m = REQUIRE_PATHS.exec(text);
      let rel = ["lib"];
      if (m !== null) {
        rel = m[2] !== undefined ? m[2].trim().split(/\s+/) : [...(m[1] as string).matchAll(/["']([^"']+)["']/g)].map((x) => x[1] as string);
      }
      for (const r of rel) {
        const p = joinPath(dir, r);
        if (p !== undefined) paths.add(p);
      }
    }
    return [...paths];
  });
}

function withRb(name: string): string {
  return name.endsWith(".rb") ? name : `${name}.rb`;
}

/** Resolves one require (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  if (ref.flags?.includes("unresolved") === true) return { files: [], module: ref.specifier, external: true, unresolved: true };
  const spec = ref.specifier;
  if (ref.flags?.includes(RELATIVE_REQUIRE_FLAG) === true) {
    const p = joinPath(parentDir(fromFile), withRb(spec));
    if (p !== undefined && project.has(p)) return { files: [p], module: p, external: false };
    return { files: [], module: spec, external: true, unresolved: true };
  }
  const dirs = await loadPaths(project);
  if (ref.flags?.includes(LOAD_FLAG) === true) dirs.unshift(parentDir(fromFile), "");
  for (const dir of dirs) {
    const p = joinPath(dir, ref.flags?.includes(LOAD_FLAG) === true ? spec : withRb(spec));
    if (p !== undefined && project.has(p)) return { files: [p], module: spec.replace(/\.rb$/, ""), external: false };
  }
  return { files: [], module: spec.replace(/\.rb$/, ""), external: true };
}

/** The require name of a file under a load path (`lib/rack/utils.rb` → `rack/utils`). */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".rb")) return [];
  const out: string[] = [];
  for (const dir of await loadPaths(project)) {
    if (dir !== "" && isWithin(file, dir) && file !== dir) out.push(file.slice(dir.length + 1, -".rb".length));
  }
  return out;
}

/** The Ruby language module. */
export const ruby: LanguageSpec = {
  id: "ruby",
  extensions: [".rb", ".rake", ".gemspec"],
  wasm: "tree-sitter-ruby/tree-sitter-ruby.wasm",
  sample: 'require "json"\n\nmodule A\n  class B\n    def m; end\n  end\nend\n',
  extract: (root) => extract(root),
  resolve,
  moduleNames,
  references: RUBY_REFERENCE_RULES,
};
