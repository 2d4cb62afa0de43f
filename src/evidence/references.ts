/**
 * `find_references`: every place of the repository that refers to one definition — who calls a
 * function, who uses a class, a type or a constant — resolved through the import graph, not by
 * spelling (README.md "CLI reference", `refs`; each language's extraction rules are stated in its
 * `lang/<language>-references.ts`, reached through `LanguageSpec.references`).
 *
 * **The definition**: `name` is read as `find_symbol` reads it (`func`, `Class.method`,
 * `pkg.module.func`, a Rust path `Type::method`, Go `pkg.Func`), `path` limits where it is looked
 * for. No definition → `NOT_FOUND` naming close names; definitions of several different things
 * (other files or other qualified names; overloads of one name in one file are one thing) →
 * `INVALID_ARGUMENT` listing them.
 *
 * **Resolution**: a use (`ReferenceFacts.uses`, already free of locals, comments and strings) is a
 * path led by a name. The name is resolved in its file: a top-level definition of the file; a
 * name an import binds (`LanguageSpec.resolve` gives the module's files; a member is then looked up
 * in them the same way, which follows re-exports through `__init__.py`, `index.ts`, `mod.rs`, up to
 * {@link MAX_HOPS} hops); a top-level definition of a file sharing the scope (Go package, Java
 * package: `ReferenceRules.sharedScope`); a wildcard import. A path not led by a bound name may
 * name a module (Rust `crate::a::f`, Java `com.a.B`: `ReferenceRules.modulePath`). Each further
 * part is a member: of a module (its top-level names, or a submodule), or of a class (its members,
 * then its bases' members, in the order written). Where definitions are global and open (Ruby:
 * `ReferenceRules.globalDefinitions`), every site of one qualified name is one definition, and a
 * path also names the definitions of its qualified name in the files the query read. Of a chain
 * of readings of one written name in nested scopes (`NameUse.alternative`), only the first that
 * names anything counts.
 *
 * **Methods**: `self.m`/`this.m`/`cls.m` resolve in the class around them (so in subclasses too);
 * `x.m` where `x` is bound to `C(...)`/`new C()` or declared with type `C` resolves in `C`; `x.m`
 * where `x` is bound to `f(...)`, and `f(...).m`, resolve in the class `f` declares it returns
 * (`NameUse.receiverCall`, `ReferenceFacts.returns`; an undeclared return leaves it unknown). Any other
 * `x.m` on a receiver of unknown type (also at the end of a chain `a.b.m` that passes a value of
 * unknown type: a local, a parameter, a property; not a type or namespace path outside the
 * repository; a variable or constant of the repository, whose type is not written with it) is
 * reported with the flag `by_name` only when exactly one class among the files that mention `m`
 * defines a member `m`, or when each class that does is the target's class or derives from it
 * (overrides of an interface's method); otherwise it is left out and counted in `note`.
 *
 * **Records**: `kind: "reference"`, `name` = the definition's qualified name, the statement's
 * lines (the expression's when the statement is long), `context` = the enclosing definition
 * (`Class.method`) or the file's path for top-level code, `flags` = the use kind (`call`,
 * `import`, `type`, `inherit`, `value`) and `by_name`; one record per statement and use kind.
 * `kind` keeps one use kind. Ordered by path and line; budgeted by `budget.ts`.
 *
 * **Cost**: only files of the definition's language family whose text contains the name are
 * parsed. Which files those are is remembered across queries (`analysis/mention-index.ts`): a warm
 * query `lstat`s the family's files and reads only those that changed, a first query runs one
 * ripgrep (`text-prefilter.ts`) while the tree is walked. Their uses come from the fact cache
 * (`facts.ts`). Files the name lookups only look into (C/C++: the headers of the include closure)
 * are read without their uses where a language's bindings follow from its imports
 * (`ReferenceRules.importBindings`), loaded ahead one level of includes at a time, with their
 * includes resolved; when that closure is whole, the lookups in it run without waits. Where the
 * imports are read from the text (`LanguageSpec.lexicalImports`, `analysis/lexical-imports.ts`:
 * C/C++), such a file is read, not parsed; its definitions are loaded only when a lookup may find
 * something in it: a name its text holds (a file without the query's names was not loaded by the
 * mention prefilter, so it holds none of them). Those include resolutions and includes are kept in
 * the fact cache for later processes of the same tree (`keptResolutions`, `lexical:imports`).
 * On a first query of such a language, the files that mention the names are parsed only where
 * the names are written (`ReferenceRules.focus`, C/C++ `lang/c-focus.ts`; `FactsMap.focused`, never
 * cached): their uses of the names and definitions of them are those of the whole file, and a lookup
 * of another name that such a file may define (`TextFocus.covers`) loads its definitions as for a
 * lazy header, a question about a class whose body it may hold its whole facts.
 * Where a query's answer follows only from the files it read (C/C++, {@link closureLookups}), the
 * answer itself is kept with the state of every file it used (`reference-answers.ts`): a later
 * query whose files are unchanged reads that one record instead of the references of every
 * mentioning file and the definitions of their include closure.
 */
import { advice, joinAdvice, location, param, plain, shortListAdvice, tool, type AdviceText } from "./advice.js";
import type { FindReferencesArgs } from "./args.js";
import { compareEvidence, throwIfAborted, type Evidence, type EvidenceResult, ToolError } from "./evidence.js";
import { applyBudget, recordsShown, scopedBudget, type OutputScope } from "./budget.js";
import { mapLimit } from "./concurrency.js";
import { describeFactsSkips, FactsMap, loadFacts } from "./analysis/facts.js";
import { familyEndings, familyOf, languageFor } from "./analysis/lang/index.js";
import type { FileFacts, ImportRef, LanguageSpec, NameBinding, NameUse, ProjectView, Resolution, SymbolDef, UseKind } from "./analysis/lang/language.js";
import { memoize } from "./analysis/lang/project-files.js";
import { linesEvidence } from "./line-evidence.js";
import { rememberedMentions } from "./analysis/mention-index.js";
import { listIsComplete, loadDerived, saveDerived, treeSnapshot } from "./analysis/project-view.js";
import { loadLexicalImports, readsImportsLexically, saveLexicalImports } from "./analysis/lexical-imports.js";
import { findSymbol, locateDefinitions, parseSymbolName, type LocatedDefinition } from "./symbols.js";
import { answerKey, keepAnswer, keptAnswer, UsedFiles, type KeptAnswer } from "./reference-answers.js";
import type { Workspace } from "./sandbox/workspace.js";
import { wordHits } from "./analysis/lang/word-hits.js";

/** Kinds of definitions that a type name can name. */
const TYPE_KINDS: ReadonlySet<string> = new Set(["class", "interface", "enum", "struct", "trait", "type"]);

/** Rounds of alias discovery (`from a import f as g`, then importers of `g` …). */
export const MAX_ALIAS_ROUNDS = 4;

/** Most answers computed again per query because a cycle was cut while they were computed. */
export const MAX_RECOMPUTED = 20_000;

/** Most re-export / base-class hops followed from one name. */
export const MAX_HOPS = 12;

/** What a name or path resolves to. */
type Value = { kind: "def"; file: string; qualified: string } | { kind: "module"; files: readonly string[]; module: string };

/** One use found to refer to the target. */
export interface ReferenceHit {
  file: string;
  /** The line of the name itself (1-based). */
  line: number;
  start_line: number;
  end_line: number;
  use: UseKind;
  context: string;
  byName: boolean;
}

/** What {@link collectReferences} found. */
export interface ReferenceCollection {
  target: LocatedDefinition;
  hits: ReferenceHit[];
  /** Uses `x.m` on receivers of unknown type left out (several classes define `m`). */
  leftOut: number;
  /** Classes defining a member of the target's name, when it is a member. */
  definers: number;
  /** The facts the query loaded; when the answer was a kept one (`reference-answers.ts`), only `skipped`. */
  facts: FactsMap;
  language: LanguageSpec;
  /** Lines of the records' files kept with the answer (file → lines, those of the records present). */
  lines?: ReadonlyMap<string, readonly string[]>;
  /** Keeps the answer (with the lines of the files the output read) for later processes, where it can be. */
  keep?: (texts: ReadonlyMap<string, readonly string[] | undefined>) => void;
}

/**
 * A name lookup in the synchronous closure met a file whose definitions are not loaded and that
 * may define `name` (see `Resolver.prefetchOutlines`): they are loaded and the lookup runs again.
 */
class NeedDefinitions extends Error {
  constructor(readonly name: string) {
    super(`definitions needed for ${name}`);
  }
}

/** A name that is an identifier, so a file defining it has it in its text. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A definition's qualified name in its file (`Container.name`, or the name at file level). */
function qualifiedOf(s: { name: string; container?: string }): string {
  return s.container === undefined ? s.name : `${s.container}.${s.name}`;
}

function defKey(file: string, qualified: string): string {
  return `${file}\0${qualified}`;
}

/**
 * Resolves names and paths of files to definitions (see the module comment), with the facts it
 * needs loaded on demand and every answer kept for the query.
 */
class Resolver {
  readonly #memo = new Map<string, Promise<Value[]>>();
  /** Keys being computed, in the order their computations started (the current chain). */
  readonly #computing = new Set<string>();
  /** Keys of {@link #computing} that met a cycle cut below them. */
  readonly #partial = new Set<string>();
  #recomputed = 0;
  readonly #factsMemo = new Map<string, Promise<FileFacts | undefined>>();
  readonly #outlineMemo = new Map<string, Promise<Outline | undefined>>();
  /** The answers of {@link #memo} that are known (kept computations, synchronous or settled). */
  readonly #settled = new Map<string, Value[]>();
  /**
   * The include closure whose name lookups run synchronously ({@link #closureName}), set by
   * {@link prefetchOutlines} when it loaded every file the lookups from these files can reach.
   */
  #closure: { outlines: Map<string, Outline | undefined>; resolutions: Map<string, Resolution> } | undefined;
  /** Include resolutions an earlier process kept ({@link keptResolutions}), and whether this query added any. */
  #kept: { byRef: Map<string, Resolution>; changed: boolean } | undefined;
  /**
   * Closure files whose includes were read from the text and whose definitions are not loaded
   * yet ({@link prefetchOutlines}), with their text when this process read it.
   */
  readonly #lazy = new Map<string, LazyFile>();
  /** Loads of definitions of lazy files, by file. */
  readonly #definitionLoads = new Map<string, Promise<void>>();
  /**
   * Names for which every file of the family whose text contains them was loaded by the query
   * (its mention prefilter): a lazy file does not contain them, so it cannot define them.
   */
  #mentioned: ReadonlySet<string> = new Set();

  constructor(
    private readonly ws: Workspace,
    private readonly project: ProjectView,
    private readonly loaded: FactsMap,
    private readonly signal: AbortSignal | undefined,
    /** Every file whose content the lookups use, stat'ed before it is read (`reference-answers.ts`). */
    private readonly used: UsedFiles,
  ) {}

  /** The facts of a file: from the query's load (a focused file's loaded whole now), else loaded now (cached). */
  facts(file: string): Promise<FileFacts | undefined> {
    const have = this.loaded.get(file);
    if (have !== undefined && this.#lazy.get(file)?.covers === undefined) return Promise.resolve(have);
    let p = this.#factsMemo.get(file);
    if (p === undefined) {
      p = loadFacts(this.ws, this.used.stat([file]), this.signal, "references").then((m) => {
        const f = m.get(file);
        if (have !== undefined && f !== undefined) this.#wholeFacts(file, f);
        return f ?? have;
      });
      this.#factsMemo.set(file, p);
    }
    return p;
  }

  /**
   * Takes the files of the query's load whose facts are whole only for some names
   * (`FactsMap.focused`: definitions and uses of other names may be missing) as lazy files whose
   * definitions of those names are known: a lookup of another name loads their definitions
   * ({@link #mayDefine}), and a question about their classes loads their facts whole ({@link facts}).
   */
  adoptFocused(focused: FactsMap["focused"]): void {
    for (const [file, { text, focus }] of focused) {
      const f = this.loaded.get(file);
      if (f === undefined) continue;
      this.#lazy.set(file, { text, covers: (name, bodies) => focus.covers(name, bodies) });
      this.#outlineMemo.set(file, Promise.resolve(outlineOf(f)));
    }
  }

  /** A focused file's facts loaded whole: they replace the focused ones everywhere. */
  #wholeFacts(file: string, f: FileFacts): void {
    this.loaded.set(file, f);
    this.#loadedVersion++;
    this.#lazy.delete(file);
    const outline = outlineOf(f);
    this.#outlineMemo.set(file, Promise.resolve(outline));
    if (this.#closure?.outlines.has(file) === true) this.#closure.outlines.set(file, outline);
  }

  /** Bumped when facts of the query's load are replaced (a focused file's, by whole ones). */
  #loadedVersion = 0;

  /**
   * What looking names up in a file needs (its definitions, imports and bindings): from the
   * query's load; for a language whose bindings follow from its imports
   * (`ReferenceRules.importBindings`), from the definitions tier, so a file only looked into (a
   * header reached through includes) is never parsed or decoded for its uses; else its facts.
   */
  outline(file: string, name?: string): Promise<Outline | undefined> {
    const lazy = this.#lazy.get(file);
    // A focused file's definitions of `name` are known when it cannot define it otherwise.
    if (lazy?.covers !== undefined && name !== undefined && !this.#mayDefine(lazy, name)) return this.#outlineMemo.get(file) as Promise<Outline | undefined>;
    if (lazy !== undefined) return this.#loadDefinitions([file]).then(() => this.#outlineMemo.get(file));
    const have = this.loaded.get(file);
    if (have !== undefined) return Promise.resolve(outlineOf(have));
    let p = this.#outlineMemo.get(file);
    if (p === undefined) {
      const derive = languageFor(file)?.references?.importBindings;
      p =
        derive === undefined
          ? this.facts(file).then((f) => f && outlineOf(f))
          : loadFacts(this.ws, this.used.stat([file]), this.signal, "definitions").then((m) => this.#outlineFrom(file, m.get(file)));
      this.#outlineMemo.set(file, p);
    }
    return p;
  }

  /** The imports of a file: those read from its text when its definitions are not loaded, else its outline's. */
  async imports(file: string): Promise<readonly ImportRef[]> {
    const outline = this.#lazy.has(file) ? await this.#outlineMemo.get(file) : await this.outline(file);
    return outline?.imports ?? [];
  }

  /** Sets the names of {@link #mentioned} (the query's target names and aliases). */
  setMentioned(names: ReadonlySet<string>): void {
    this.#mentioned = names;
  }

  /**
   * Whether lazy file `lazy` may define `name` beyond the definitions its outline holds: not a name
   * it is whole for (a focused file), else when its text holds it (unknown text: it may).
   */
  #mayDefine(lazy: LazyFile, name: string): boolean {
    if (lazy.covers !== undefined) return !IDENTIFIER.test(name) || !lazy.covers(name);
    if (!IDENTIFIER.test(name)) return true;
    if (this.#mentioned.has(name)) return false;
    return lazy.text === undefined || lazy.text.includes(name);
  }

  /**
   * Loads the definitions of the lazy files among `files` (one load for all), after which their
   * outlines are whole: the includes read from the text, the definitions parsed (or cached).
   */
  async #loadDefinitions(files: readonly string[]): Promise<void> {
    const load = files.filter((f) => this.#lazy.has(f) && !this.#definitionLoads.has(f));
    if (load.length > 0) {
      const loading = (async () => {
        const m = await loadFacts(this.ws, this.used.stat(load), this.signal, "definitions");
        for (const f of load) {
          const lazy = await this.#outlineMemo.get(f);
          const whole = lazy === undefined ? undefined : { ...lazy, symbols: m.get(f)?.symbols ?? [] };
          this.#outlineMemo.set(f, Promise.resolve(whole));
          if (this.#closure?.outlines.has(f) === true) this.#closure.outlines.set(f, whole);
          // A focused file of the query's load: its whole definitions, for the members index too.
          const had = this.loaded.get(f);
          if (had !== undefined && whole !== undefined && this.#lazy.get(f)?.covers !== undefined) {
            this.loaded.set(f, { ...had, symbols: whole.symbols });
            this.#loadedVersion++;
          }
          this.#lazy.delete(f);
        }
      })();
      for (const f of load) this.#definitionLoads.set(f, loading);
    }
    await Promise.all(files.map((f) => this.#definitionLoads.get(f)));
  }

  /**
   * Runs a lookup of the synchronous closure; when it meets lazy files that may define a name it
   * looks up ({@link NeedDefinitions}), loads the definitions of every lazy file that may define
   * that name (reading first the text of those whose includes were kept) and runs it again. Answers kept by the interrupted run were complete (a lookup is
   * kept only when it ended), so the answer is the one a run with every definition loaded gives.
   */
  async #closureSync(run: () => Value[]): Promise<Value[]> {
    for (;;) {
      try {
        return run();
      } catch (e) {
        if (!(e instanceof NeedDefinitions)) throw e;
        // Files whose includes were kept by an earlier process are read now: reading costs less than their definitions.
        const unread = IDENTIFIER.test(e.name) && !this.#mentioned.has(e.name) ? [...this.#lazy].filter(([, lazy]) => lazy.text === undefined) : [];
        await mapLimit(unread, 8, async ([file, lazy]) => {
          try {
            lazy.text = (await this.ws.readText(file)).lines.join("\n");
          } catch {
            // unreadable now: it may define anything, its definitions are loaded (and skipped)
          }
        });
        await this.#loadDefinitions([...this.#lazy].filter(([, lazy]) => this.#mayDefine(lazy, e.name)).map(([f]) => f));
      }
    }
  }

  /**
   * What `ref` of `file` resolves to (`LanguageSpec.resolve`). For a language whose bindings follow
   * from its imports (`ReferenceRules.importBindings`: C/C++ includes, thousands per query), the
   * answer is taken from, or added to, the resolutions kept for later processes
   * ({@link keptResolutions}); a resolution depends only on the tree's walk, the files the
   * resolver read through the view (`compile_commands.json`) and the import as written.
   */
  async resolve(lang: LanguageSpec, ref: ImportRef, file: string): Promise<Resolution> {
    if (lang.references?.importBindings === undefined) return lang.resolve(ref, file, this.project);
    this.#kept ??= { byRef: keptResolutions(this.project), changed: false };
    const key = keptResolutionKey(file, ref);
    const known = this.#kept.byRef.get(key);
    if (known !== undefined) return known;
    const res = await lang.resolve(ref, file, this.project);
    this.#kept.byRef.set(key, res);
    this.#kept.changed = true;
    return res;
  }

  /** Keeps the resolutions this query added for later processes (see {@link keptResolutions}). */
  saveResolutions(): void {
    if (this.#kept?.changed !== true) return;
    this.#kept.changed = false;
    const entries = [...this.#kept.byRef];
    if (entries.length <= MAX_KEPT_RESOLUTIONS) saveDerived(this.project, KEPT_RESOLUTIONS, entries);
  }

  /**
   * Loads ahead the outlines of the files that `files` reach through wildcard bindings (C/C++
   * includes, for languages with `ReferenceRules.importBindings`), one load per level of the walk
   * (at most {@link MAX_CLOSURE_FILES} files): the name lookups that follow, one file at a time,
   * then find them loaded. One load reads the cache once for all and parses the misses together
   * (in worker threads when they are many), where a load per file would pay a cache write and
   * several waits each. When every file reached was loaded and its language's lookups follow only
   * definitions and includes ({@link closureLookups}), the outlines and resolved includes are kept
   * so that lookups in those files run synchronously (thousands of them per query in a C/C++ tree).
   */
  async prefetchOutlines(files: Iterable<string>): Promise<void> {
    const seen = new Set<string>();
    const outlines = new Map<string, Outline | undefined>();
    const resolutions = new Map<string, Resolution>();
    // Whether the lookups from these files can run synchronously: every file they reach is loaded,
    // and its language's lookups follow only definitions and includes (see #closureName).
    let complete = true;
    let level = [...files];
    for (const f of level) seen.add(f);
    while (level.length > 0) {
      const next: string[] = [];
      for (const file of level) {
        const lang = languageFor(file);
        if (lang === undefined) {
          outlines.set(file, undefined); // a file of no language (`#include "x.inc"`) defines nothing
          continue;
        }
        if (!closureLookups(lang)) complete = false;
        if (lang.references?.importBindings === undefined) continue;
        const outline = this.#lazy.has(file) ? await this.#outlineMemo.get(file) : await this.outline(file);
        outlines.set(file, outline);
        for (const b of outline?.bindings ?? []) {
          if (b.member !== "*") {
            complete = false;
            continue;
          }
          const res = await this.resolve(lang, bindingRef({ ...b, member: undefined }), file);
          resolutions.set(resolutionKey(file, b), res);
          if (res.unresolved || res.external) continue;
          for (const f of res.files) {
            if (seen.has(f)) continue;
            if (seen.size >= MAX_CLOSURE_FILES) {
              complete = false;
              continue;
            }
            seen.add(f);
            next.push(f);
          }
        }
      }
      const load = next.filter((f) => !this.loaded.has(f) && !this.#outlineMemo.has(f) && languageFor(f)?.references?.importBindings !== undefined);
      // Files whose includes can be read from the text are read, not parsed: their definitions
      // are loaded only when a lookup may find something in them (#closureName). A file the
      // query's own load skipped is loaded as before (it gets the same skip).
      const lexical = load.filter((f) => readsImportsLexically(f) && !this.loaded.skipped.has(f));
      if (lexical.length > 0) {
        this.used.stat(lexical); // before they are read (their texts are read for #mayDefine too)
        const read = await loadLexicalImports(this.ws, this.project, lexical, this.signal);
        const parsed = new Set(read.parse);
        for (const f of lexical) {
          if (parsed.has(f)) continue; // left to the parse below
          const got = read.files.get(f);
          const derive = languageFor(f)?.references?.importBindings;
          if (got === undefined || derive === undefined) {
            this.#outlineMemo.set(f, Promise.resolve(undefined));
            continue;
          }
          this.#lazy.set(f, got.text === undefined ? {} : { text: got.text });
          this.#outlineMemo.set(f, Promise.resolve({ symbols: [], imports: got.imports, bindings: derive(got.imports), exportAliases: [] }));
        }
      }
      const parse = lexical.length === 0 ? load : load.filter((f) => !this.#lazy.has(f) && !this.#outlineMemo.has(f));
      if (parse.length > 0) {
        const loaded = loadFacts(this.ws, this.used.stat(parse), this.signal, "definitions");
        for (const f of parse) this.#outlineMemo.set(f, loaded.then((m) => this.#outlineFrom(f, m.get(f))));
        await loaded;
      }
      level = next;
    }
    if (complete) this.#closure = { outlines, resolutions };
  }

  /** The outline of facts loaded without references, for a language with `ReferenceRules.importBindings`. */
  #outlineFrom(file: string, f: FileFacts | undefined): Outline | undefined {
    const derive = languageFor(file)?.references?.importBindings;
    if (f === undefined || derive === undefined) return undefined;
    return { symbols: f.symbols, imports: f.imports, bindings: derive(f.imports), exportAliases: [] };
  }

  /** A cycle met at `key`, which is being computed: the entries computed since are partial; the answer is nothing. */
  #cut(key: string): Value[] {
    let above = false;
    for (const k of this.#computing) {
      if (above) this.#partial.add(k);
      else above = k === key;
    }
    return [];
  }

  #once(key: string, compute: () => Promise<Value[]>): Promise<Value[]> {
    // A cycle (a re-export loop; files of one namespace or package that see each other through
    // wildcards) meets its own entry while it is being computed: it resolves to nothing. The
    // resolver's calls run one at a time, so an entry being computed is always on the current
    // chain, and awaiting it would never settle. The entries between the two meetings were
    // computed without the cut one's answer: they are not kept (asked again from elsewhere, they
    // are computed again, up to MAX_RECOMPUTED times per query), so a name that a crate root
    // re-exports from a module that imports it back from the root still resolves.
    if (this.#computing.has(key)) return Promise.resolve(this.#cut(key));
    let p = this.#memo.get(key);
    if (p === undefined) {
      this.#computing.add(key);
      p = compute().then(
        (values) => {
          if (this.#settle(key)) this.#settled.set(key, values);
          return values;
        },
        (e: unknown) => {
          this.#settle(key);
          throw e;
        },
      );
      this.#memo.set(key, p);
    }
    return p;
  }

  /** Ends the computation of `key`: false when its answer is not kept (a cycle was cut below it). */
  #settle(key: string): boolean {
    this.#computing.delete(key);
    if (this.#partial.delete(key) && this.#recomputed++ < MAX_RECOMPUTED) {
      this.#memo.delete(key);
      return false;
    }
    return true;
  }

  /** {@link #once} for a computation that needs no wait: the same memo, cycle cuts and recomputation. */
  #onceSync(key: string, compute: () => Value[]): Value[] {
    if (this.#computing.has(key)) return this.#cut(key);
    const known = this.#settled.get(key);
    if (known !== undefined) return known;
    this.#computing.add(key);
    let values: Value[];
    try {
      values = compute();
    } catch (e) {
      // Interrupted (NeedDefinitions): nothing is kept; the run starts again.
      this.#computing.delete(key);
      this.#partial.delete(key);
      throw e;
    }
    if (this.#settle(key)) {
      this.#settled.set(key, values);
      this.#memo.set(key, Promise.resolve(values));
    }
    return values;
  }

  /** What top-level `name` means in `file`: its definition, an import, a shared-scope file's definition, a wildcard import. */
  name(file: string, name: string, hops = 0): Promise<Value[]> {
    if (this.#closure?.outlines.has(file) === true) return this.#closureSync(() => this.#closureName(file, name, hops));
    return this.#once(`n\0${file}\0${name}`, async () => {
      if (hops > MAX_HOPS) return [];
      const facts = await this.outline(file, name);
      const lang = languageFor(file);
      if (facts === undefined || lang === undefined) return [];
      const out: Value[] = [];
      // A module declared in the file (Rust `mod x;`) is reached as a submodule, not as a definition.
      const submodules = lang.references?.submodulePath !== undefined;
      for (const s of facts.symbols) if (s.name === name && (s.container === undefined || s.extension === true) && !(submodules && s.kind === "module")) out.push({ kind: "def", file, qualified: qualifiedOf(s) });
      for (const a of facts.exportAliases) if (a.exported === name && a.local !== name) out.push(...(await this.name(file, a.local, hops + 1)));
      for (const b of facts.bindings) if (b.local === name && b.member !== "*") out.push(...(await this.binding(file, b, hops + 1)));
      if (out.length === 0 && lang.references?.sharedScope) {
        for (const other of await lang.references.sharedScope(file, this.project)) {
          if (other === file) continue;
          const f = await this.outline(other, name);
          for (const s of f?.symbols ?? []) if (s.name === name && (s.container === undefined || s.extension === true)) out.push({ kind: "def", file: other, qualified: qualifiedOf(s) });
        }
      }
      // Wildcard imports; where definitions are open (Ruby), a name defined here may be reopened in a required file too.
      if (out.length === 0 || lang.references?.globalDefinitions) {
        for (const b of facts.bindings) {
          if (b.member !== "*") continue;
          for (const m of await this.binding(file, { ...b, member: undefined }, hops + 1)) out.push(...(await this.member(m, name, hops + 1)));
        }
      }
      if (out.length === 0 && lang.references?.globalDefinitions) out.push(...this.#global(lang, name));
      return dedupe(out);
    });
  }

  /**
   * What top-level `name` written in `file` means through the wildcard bindings it has from its
   * project (`ReferenceRules.projectBindings`: C# `global using`), looked up after {@link name}.
   * Only at the place of the use: a module's member ({@link member}) is what its files define or
   * import themselves, so these bindings are not followed from file to file.
   */
  #projectName(file: string, name: string, hops: number): Promise<Value[]> {
    return this.#once(`pn\0${file}\0${name}`, async () => {
      const lang = languageFor(file);
      if (hops > MAX_HOPS || lang?.references?.projectBindings === undefined) return [];
      const out: Value[] = [];
      for (const b of await lang.references.projectBindings(file, this.project)) {
        for (const m of await this.binding(file, { ...b, member: undefined }, hops + 1)) out.push(...(await this.member(m, name, hops + 1)));
      }
      return dedupe(out);
    });
  }

  /** What an import binding of `file` leads to. */
  binding(file: string, b: NameBinding, hops: number): Promise<Value[]> {
    if (this.#closure?.outlines.has(file) === true) return this.#closureSync(() => this.#closureBinding(file, b, hops));
    return this.#once(`b\0${file}\0${b.line}\0${b.local}\0${b.specifier}\0${b.member ?? ""}`, async () => {
      if (hops > MAX_HOPS) return [];
      const lang = languageFor(file);
      if (lang === undefined) return [];
      const res = await this.resolve(lang, bindingRef(b), file);
      if (res.unresolved || res.external || res.files.length === 0) return [];
      let module = await this.#moduleValue(lang, res.files, res.module, res.package);
      // A name longer than the module it reached names members of it (Java `a.b.C.Inner`, Rust
      // `crate::a::f` reaching `crate::a`).
      const sep = [".", "::"].find((x) => b.specifier.startsWith(`${res.module}${x}`));
      const rest = sep === undefined ? [] : b.specifier.slice(res.module.length + sep.length).split(sep);
      for (const part of rest) {
        if (part === "*") break;
        const next: Value[] = [];
        for (const m of module) next.push(...(await this.member(m, part, hops + 1)));
        module = dedupe(next);
      }
      if (b.member === undefined || b.member === "*") return module;
      if (lang.references?.memberIsModule?.(b, res)) return module;
      const out: Value[] = [];
      for (const m of module) out.push(...(await this.member(m, b.member, hops + 1)));
      return dedupe(out);
    });
  }

  /** A module value, or the class or declaration it is (`ReferenceRules.moduleIsClass`, `moduleIsDeclaration`; never for a package, `Resolution.package`). */
  async #moduleValue(lang: LanguageSpec, files: readonly string[], module: string, isPackage = false): Promise<Value[]> {
    const file = files[0] as string;
    const last = module.split(/\.|::|\/|\\/).pop() ?? module;
    if (lang.references?.moduleIsDeclaration && !isPackage) {
      // The files that declare `last` at top level (`ReferenceRules.moduleIsDeclaration`); none → the module itself.
      const defs: Value[] = [];
      for (const f of files) if ((await this.outline(f, last))?.symbols.some((s) => s.name === last && s.container === undefined)) defs.push({ kind: "def", file: f, qualified: last });
      if (defs.length > 0) return defs;
    }
    if (lang.references?.moduleIsClass && files.length === 1 && file.slice(file.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "") === last) {
      return [{ kind: "def", file, qualified: last }];
    }
    return [{ kind: "module", files, module }];
  }

  /** Member `name` of a module (a top-level name of its files, or a submodule) or of a class (with its bases). */
  member(value: Value, name: string, hops: number): Promise<Value[]> {
    if (value.kind === "module" && this.#inClosure(value.files)) return this.#closureSync(() => this.#closureMember(value, name, hops));
    const key = value.kind === "def" ? `d\0${value.file}\0${value.qualified}` : `m\0${value.files.join("\0")}`;
    return this.#once(`mb\0${key}\0${name}`, async () => {
      if (hops > MAX_HOPS) return [];
      if (value.kind === "module") {
        const out: Value[] = [];
        for (const f of value.files) out.push(...(await this.name(f, name, hops + 1)));
        const lang = languageFor(value.files[0] ?? "");
        const spec = lang?.references?.submodulePath?.(value.module, name);
        if (out.length === 0 && lang !== undefined && spec !== undefined) {
          const res = await lang.resolve({ specifier: spec, start_line: 1, end_line: 1 }, value.files[0] as string, this.project);
          if (!res.unresolved && !res.external && res.files.length > 0) out.push(...(await this.#moduleValue(lang, res.files, res.module, res.package)));
        }
        return dedupe(out);
      }
      return this.classMember(value.file, value.qualified, name, hops);
    });
  }

  /** Member `name` of class `cls` of `file` (the class itself, then its bases in order). */
  classMember(file: string, cls: string, name: string, hops = 0): Promise<Value[]> {
    return this.#once(`c\0${file}\0${cls}\0${name}`, async () => {
      if (hops > MAX_HOPS) return [];
      const lang = languageFor(file);
      const places = [file, ...((await lang?.references?.sharedScope?.(file, this.project)) ?? []).filter((f) => f !== file)];
      const out: Value[] = [];
      for (const f of places) {
        const facts = await this.outline(f, name);
        for (const s of facts?.symbols ?? []) if (s.name === name && s.container === cls) out.push({ kind: "def", file: f, qualified: `${cls}.${name}` });
        if (out.length > 0) break;
      }
      if (lang?.references?.globalDefinitions) out.push(...this.#global(lang, `${cls}.${name}`));
      if (out.length === 0 && lang?.references?.membersAnywhere) {
        // Focused files that may define `name` besides what is known of them: their definitions first.
        await this.#loadDefinitions([...this.#lazy].filter(([f, lazy]) => lazy.covers !== undefined && this.loaded.has(f) && this.#mayDefine(lazy, name)).map(([f]) => f));
        const bare = cls.split(".").pop() as string;
        for (const m of this.#membersIndex(lang).get(name) ?? []) if (m.container === bare || m.container === cls) out.push({ kind: "def", file: m.file, qualified: `${m.container}.${name}` });
      }
      if (out.length > 0) return dedupe(out);
      // A focused file's classes named like `cls` are known when its focus covers the name.
      const lazy = this.#lazy.get(file);
      const bare = cls.slice(cls.lastIndexOf(".") + 1);
      const known = lazy?.covers !== undefined && IDENTIFIER.test(bare) && lazy.covers(bare, true) ? this.loaded.get(file) : undefined;
      const facts = known ?? (await this.facts(file));
      const info = facts?.references?.classes.find((c) => c.name === cls);
      for (const base of info?.bases ?? []) {
        for (const b of await this.path(file, base, hops + 1)) {
          if (b.kind === "def") out.push(...(await this.classMember(b.file, b.qualified, name, hops + 1)));
        }
        if (out.length > 0) break;
      }
      return dedupe(out);
    });
  }

  /** True when every one of `files` is in the synchronous closure. */
  #inClosure(files: readonly string[]): boolean {
    const closure = this.#closure;
    return closure !== undefined && files.length > 0 && files.every((f) => closure.outlines.has(f));
  }

  /**
   * {@link name} in a file of the synchronous closure: the same steps, memo keys and hop counts,
   * for languages whose lookups follow only definitions and includes ({@link closureLookups}):
   * its top-level definition, else what each wildcard binding's module defines.
   */
  #closureName(file: string, name: string, hops: number): Value[] {
    return this.#onceSync(`n\0${file}\0${name}`, () => {
      if (hops > MAX_HOPS) return [];
      const facts = this.#closure?.outlines.get(file);
      if (facts === undefined || languageFor(file) === undefined) return [];
      const lazy = this.#lazy.get(file);
      if (lazy !== undefined && this.#mayDefine(lazy, name)) throw new NeedDefinitions(name);
      const out: Value[] = [];
      for (const s of facts.symbols) if (s.name === name && s.container === undefined) out.push({ kind: "def", file, qualified: name });
      for (const a of facts.exportAliases) if (a.exported === name && a.local !== name) out.push(...this.#closureName(file, a.local, hops + 1));
      if (out.length === 0) {
        for (const b of facts.bindings) {
          if (b.member !== "*") continue;
          for (const m of this.#closureBinding(file, { ...b, member: undefined }, hops + 1)) out.push(...this.#closureMemberOf(m, name, hops + 1));
        }
      }
      return dedupe(out);
    });
  }

  /** {@link binding} of a wildcard binding of a file of the synchronous closure (its module). */
  #closureBinding(file: string, b: NameBinding, hops: number): Value[] {
    return this.#onceSync(`b\0${file}\0${b.line}\0${b.local}\0${b.specifier}\0${b.member ?? ""}`, () => {
      if (hops > MAX_HOPS) return [];
      const res = this.#closure?.resolutions.get(resolutionKey(file, b));
      if (res === undefined) throw new Error(`include of ${file} line ${b.line} not resolved ahead`);
      if (res.unresolved || res.external || res.files.length === 0) return [];
      let module: Value[] = [{ kind: "module", files: res.files, module: res.module }];
      const sep = [".", "::"].find((x) => b.specifier.startsWith(`${res.module}${x}`));
      const rest = sep === undefined ? [] : b.specifier.slice(res.module.length + sep.length).split(sep);
      for (const part of rest) {
        if (part === "*") break;
        const next: Value[] = [];
        for (const m of module) next.push(...this.#closureMemberOf(m, part, hops + 1));
        module = dedupe(next);
      }
      if (b.member === undefined || b.member === "*") return module;
      const out: Value[] = [];
      for (const m of module) out.push(...this.#closureMemberOf(m, b.member, hops + 1));
      return dedupe(out);
    });
  }

  /** {@link member} of a module of the synchronous closure: the top-level name in each of its files. */
  #closureMember(value: Value & { kind: "module" }, name: string, hops: number): Value[] {
    return this.#onceSync(`mb\0m\0${value.files.join("\0")}\0${name}`, () => {
      if (hops > MAX_HOPS) return [];
      const out: Value[] = [];
      for (const f of value.files) out.push(...this.#closureName(f, name, hops + 1));
      return dedupe(out);
    });
  }

  /** A member of a value met in the synchronous closure (a module there, as include bindings give). */
  #closureMemberOf(value: Value, name: string, hops: number): Value[] {
    if (value.kind !== "module" || !this.#inClosure(value.files)) throw new Error(`value outside the include closure: ${JSON.stringify(value)}`);
    return this.#closureMember(value, name, hops);
  }

  /** The definitions among `values` whose kind passes `keep` (modules are dropped). */
  async ofKinds(values: Value[], keep: (kind: string) => boolean): Promise<Value[]> {
    const out: Value[] = [];
    for (const v of values) {
      if (v.kind !== "def") continue;
      const facts = await this.outline(v.file, v.qualified.slice(v.qualified.lastIndexOf(".") + 1));
      if (facts?.symbols.some((s) => (s.container === undefined ? s.name : `${s.container}.${s.name}`) === v.qualified && keep(s.kind))) out.push(v);
    }
    return out;
  }

  /**
   * The classes a call of `callee` (`NameUse.receiverCall`, written in `file`) returns: the
   * declared return type (`ReferenceFacts.returns`) of each function or method it resolves to,
   * resolved in the callee's file. Empty when no callee declares one.
   */
  async returnTypes(file: string, callee: { path: string[]; selfClass?: string }): Promise<Value[]> {
    const fns = callee.selfClass !== undefined && callee.path.length === 2 ? await this.classMember(file, callee.selfClass, callee.path[1] as string) : await this.path(file, callee.path);
    const out: Value[] = [];
    for (const f of fns) {
      if (f.kind !== "def") continue;
      const declared = (await this.facts(f.file))?.references?.returns?.find((x) => x.name === f.qualified);
      if (declared !== undefined) out.push(...(await this.path(f.file, declared.type)));
    }
    return dedupe(out);
  }

  /**
   * The file whose pytest fixture `name` a test or fixture of `file` receives: `file` itself, else
   * the nearest `conftest.py` from its folder up (`ReferenceFacts.fixtures`); `undefined` if none.
   */
  async fixtureSite(file: string, name: string): Promise<string | undefined> {
    const places = [file];
    for (let dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ""; ; dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "") {
      places.push(dir === "" ? "conftest.py" : `${dir}/conftest.py`);
      if (dir === "") break;
    }
    for (const f of places) {
      if (f !== file && !this.project.has(f)) continue;
      if ((await this.facts(f))?.references?.fixtures?.includes(name) === true) return f;
    }
    return undefined;
  }

  /** What a whole path (`a.b.c`) written in `file` resolves to. */
  path(file: string, parts: readonly string[], hops = 0): Promise<Value[]> {
    return this.#once(`p\0${file}\0${parts.join("\0")}`, async () => {
      if (hops > MAX_HOPS || parts.length === 0) return [];
      if (parts.length === 1) {
        const own = await this.name(file, parts[0] as string, hops + 1);
        return own.length > 0 ? own : this.#projectName(file, parts[0] as string, hops + 1);
      }
      let values = await this.path(file, parts.slice(0, -1), hops + 1);
      if (values.length === 0) {
        // A path not led by a bound name may name a module (Rust `crate::a`, Java `com.a.B`).
        const lang = languageFor(file);
        const spec = lang?.references?.modulePath?.(parts.slice(0, -1));
        if (lang !== undefined && spec !== undefined) {
          const res = await lang.resolve({ specifier: spec, start_line: 1, end_line: 1 }, file, this.project);
          if (!res.unresolved && !res.external && res.files.length > 0) values = await this.#moduleValue(lang, res.files, res.module, res.package);
        }
      }
      const out: Value[] = [];
      for (const v of values) out.push(...(await this.member(v, parts[parts.length - 1] as string, hops + 1)));
      const lang = languageFor(file);
      if (lang?.references?.globalDefinitions) out.push(...this.#global(lang, parts.join(".")));
      return dedupe(out);
    });
  }

  /**
   * True when `parts` written in `file` name anything: a definition, a module, or (with
   * `ReferenceRules.globalDefinitions`) the container of a definition the query read (`A::B` when
   * `class A::B::C` was read, though `A::B` itself is defined in an unread file).
   */
  async names(file: string, parts: readonly string[]): Promise<boolean> {
    if ((await this.path(file, parts)).length > 0) return true;
    const lang = languageFor(file);
    return lang?.references?.globalDefinitions === true && this.#globalIndex(lang).containers.has(parts.join("."));
  }

  readonly #membersIndexes = new Map<string, { size: number; version: number; members: Map<string, { file: string; container: string }[]> }>();

  /**
   * Member name → the files and containers that define it, over the loaded files of `lang`'s
   * family in load order and symbol order (`ReferenceRules.membersAnywhere`; rebuilt when more
   * files are loaded).
   */
  #membersIndex(lang: LanguageSpec): Map<string, { file: string; container: string }[]> {
    const family = familyOf(lang);
    const have = this.#membersIndexes.get(family);
    if (have !== undefined && have.size === this.loaded.size && have.version === this.#loadedVersion) return have.members;
    const members = new Map<string, { file: string; container: string }[]>();
    for (const [f, facts] of this.loaded) {
      const other = languageFor(f);
      if (other === undefined || familyOf(other) !== family) continue;
      for (const s of facts.symbols) {
        if (s.container === undefined) continue;
        const list = members.get(s.name);
        if (list === undefined) members.set(s.name, [{ file: f, container: s.container }]);
        else list.push({ file: f, container: s.container });
      }
    }
    this.#membersIndexes.set(family, { size: this.loaded.size, version: this.#loadedVersion, members });
    return members;
  }

  readonly #globalIndexes = new Map<string, { size: number; defs: Map<string, Value[]>; containers: Set<string> }>();

  /** The definitions of qualified name `qualified` in every loaded file of `lang`'s family (`ReferenceRules.globalDefinitions`). */
  #global(lang: LanguageSpec, qualified: string): Value[] {
    return this.#globalIndex(lang).defs.get(qualified) ?? [];
  }

  /** Qualified name → definitions, and every container name with its prefixes, over the loaded files of `lang`'s family (rebuilt when more files are loaded). */
  #globalIndex(lang: LanguageSpec): { size: number; defs: Map<string, Value[]>; containers: Set<string> } {
    const family = familyOf(lang);
    const have = this.#globalIndexes.get(family);
    if (have !== undefined && have.size === this.loaded.size) return have;
    const defs = new Map<string, Value[]>();
    const containers = new Set<string>();
    for (const [f, facts] of this.loaded) {
      const other = languageFor(f);
      if (other === undefined || familyOf(other) !== family) continue;
      for (const s of facts.symbols) {
        const q = s.container === undefined ? s.name : `${s.container}.${s.name}`;
        const list = defs.get(q) ?? [];
        if (!list.some((v) => v.kind === "def" && v.file === f)) list.push({ kind: "def", file: f, qualified: q });
        defs.set(q, list);
        const parts = s.container?.split(".") ?? [];
        for (let i = 1; i <= parts.length; i++) containers.add(parts.slice(0, i).join("."));
      }
    }
    const index = { size: this.loaded.size, defs, containers };
    this.#globalIndexes.set(family, index);
    return index;
  }
}

/** The import an import binding was made from, as `LanguageSpec.resolve` takes it. */
function bindingRef(b: NameBinding): ImportRef {
  const ref: ImportRef = { specifier: b.specifier, start_line: b.line, end_line: b.line };
  if (b.member !== undefined) ref.names = [b.member];
  if (b.scope !== undefined) ref.scope = b.scope;
  if (b.flags !== undefined) ref.flags = b.flags;
  return ref;
}

/** The key of a binding's resolution in the synchronous closure. */
function resolutionKey(file: string, b: NameBinding): string {
  return `${file}\0${b.line}\0${b.specifier}\0${b.scope?.join(".") ?? ""}\0${b.flags?.join(",") ?? ""}`;
}

/** The side-table name of the kept include resolutions (`project-view.ts` {@link saveDerived}). */
const KEPT_RESOLUTIONS = "references:resolutions";

/** Most kept resolutions; a query that would keep more keeps none (the next one resolves again). */
const MAX_KEPT_RESOLUTIONS = 200_000;

/**
 * The resolutions of imports (`importer\0import`, {@link keptResolutionKey}) an earlier process
 * kept for this tree (`project-view.ts` `loadDerived`: the same walk, and every file read through
 * the view unchanged), read once per view; empty when none are valid.
 */
function keptResolutions(project: ProjectView): Map<string, Resolution> {
  return memoize(project, "references:kept-resolutions", () => {
    const saved = loadDerived<[string, Resolution][]>(project, KEPT_RESOLUTIONS);
    return new Map(Array.isArray(saved) ? saved : []);
  });
}

/** What a resolution of `ref` from `file` depends on besides the tree: the importer and the import as written, not its lines. */
function keptResolutionKey(file: string, ref: ImportRef): string {
  const { start_line: _start, end_line: _end, lines: _lines, ...written } = ref;
  return `${file}\0${JSON.stringify(written)}`;
}

/**
 * True when name lookups in files of `lang` follow only top-level definitions and wildcard
 * bindings derived from imports (`ReferenceRules.importBindings`; C/C++ includes), with none of
 * the rules that need more than the files' outlines and resolved includes, so the resolver can
 * answer them synchronously once the include closure is loaded.
 */
function closureLookups(lang: LanguageSpec): boolean {
  const r = lang.references;
  return (
    r?.importBindings !== undefined &&
    r.sharedScope === undefined &&
    r.projectBindings === undefined &&
    r.globalDefinitions !== true &&
    r.submodulePath === undefined &&
    r.memberIsModule === undefined &&
    r.moduleIsClass !== true &&
    r.moduleIsDeclaration !== true
  );
}

/**
 * A file of the include closure whose outline is not whole yet (`Resolver`): its includes read from
 * the text, its definitions loaded when a lookup may find something in it; with its text when read.
 * A focused file of the query's load (`FactsMap.focused`) also has `covers`: whether its outline
 * already holds its definitions of a name (`TextFocus.covers`).
 */
interface LazyFile {
  text?: string;
  covers?: (name: string, bodies?: boolean) => boolean;
}

/** What {@link Resolver.outline} gives: a file's definitions, imports, and the names its imports and re-exports bind. */
interface Outline {
  symbols: readonly SymbolDef[];
  imports: readonly ImportRef[];
  bindings: readonly NameBinding[];
  exportAliases: readonly { exported: string; local: string }[];
}

function outlineOf(f: FileFacts): Outline {
  return { symbols: f.symbols, imports: f.imports, bindings: f.references?.bindings ?? [], exportAliases: f.references?.exportAliases ?? [] };
}

function dedupe(values: Value[]): Value[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = v.kind === "def" ? `d${defKey(v.file, v.qualified)}` : `m${v.files.join("\0")}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Merges the definitions of `distinct` (thing key → first site) that name one qualified thing of one
 * kind in files sharing one scope (`ReferenceRules.sharedScope`), moving the merged sites into the
 * first's `sites`. Returns merged key → kept key.
 */
async function mergeSharedScopes(ws: Workspace, distinct: Map<string, LocatedDefinition>, sites: Map<string, LocatedDefinition[]>, project: ProjectView): Promise<Map<string, string>> {
  const mergedInto = new Map<string, string>();
  const entries = [...distinct];
  for (let i = 0; i < entries.length; i++) {
    const [key, d] = entries[i] as [string, LocatedDefinition];
    if (mergedInto.has(key)) continue;
    const rules = languageFor(d.file)?.references;
    const shared = rules?.sharedScope;
    if (shared === undefined) continue;
    if (rules?.declaresPart && !rules.declaresPart(await declarationHead(ws, d))) continue;
    let scope: Set<string> | undefined;
    for (const [otherKey, other] of entries.slice(i + 1)) {
      if (mergedInto.has(otherKey) || other.qualified !== d.qualified || other.def.kind !== d.def.kind || languageFor(other.file) !== languageFor(d.file)) continue;
      scope ??= new Set(await shared(d.file, project));
      if (!scope.has(other.file)) continue;
      if (rules?.declaresPart && !rules.declaresPart(await declarationHead(ws, other))) continue;
      mergedInto.set(otherKey, key);
      sites.set(key, [...(sites.get(key) ?? []), ...(sites.get(otherKey) ?? [])]);
      sites.delete(otherKey);
      distinct.delete(otherKey);
    }
  }
  return mergedInto;
}

/**
 * The lines of a definition's declaration before its body: from its first line (attributes,
 * modifiers) through the first line that holds its name as a word (at most its whole range).
 */
async function declarationHead(ws: Workspace, d: LocatedDefinition): Promise<string> {
  const lines = (await ws.readText(d.file)).lines;
  const end = Math.min(d.def.end_line, lines.length);
  const head: string[] = [];
  for (let n = d.def.start_line; n <= end; n++) {
    const line = lines[n - 1] as string;
    head.push(line);
    if (wordHits(line, [d.def.name]).length > 0) break;
  }
  return head.join("\n");
}

function candidatesText(defs: readonly LocatedDefinition[]): AdviceText {
  // The model must pick one: it sees more than a note's five.
  return shortListAdvice(defs.map((d) => [`${d.qualified} (${d.def.kind}, `, location(d.file, d.def.start_line), ")"]), 10);
}

/**
 * The definition `args.name` designates and every use that refers to it (see the module comment);
 * {@link findReferences} turns them into evidence. Exposed for the ground-truth scripts.
 * @throws ToolError `INVALID_ARGUMENT` (bad or ambiguous name), `NOT_FOUND` (no such definition;
 *   the message names close ones), `UNSUPPORTED` (the definition's language has no reference
 *   rules), `OUTSIDE_ROOT`/`DENIED`/`NOT_FOUND` (path), `TIMEOUT`.
 */
export async function collectReferences(ws: Workspace, args: Pick<FindReferencesArgs, "name" | "path">, signal?: AbortSignal): Promise<ReferenceCollection> {
  // The walk of the tree, and (when `path` names the definition's file) the text prefilter of its
  // name, start while the definition is located: on a first query they are most of the time.
  const snapshot = treeSnapshot(ws, signal ? { signal } : {});
  snapshot.catch(() => undefined);
  const early = earlyMentions(ws, args, snapshot, signal);
  early?.mentions.catch(() => undefined);
  const found = await locateDefinitions(ws, args.name, args.path, signal, "references", snapshot);
  throwIfAborted(signal);
  if (found.length === 0) {
    const note = (await findSymbol(ws, { name: args.name, ...(args.path !== undefined ? { path: args.path } : {}), max_results: 1 }, signal)).note;
    throw new ToolError("NOT_FOUND", note ?? `No definition named ${args.name}.`, advice`Pass the name of a definition (${tool("find_symbol")} lists them); use ${tool("search_code")} for free text.`);
  }
  const distinct = new Map<string, LocatedDefinition>();
  // A declaration without a body (a C/C++ prototype) stands for the definition when there is one.
  const bodies = found.filter((d) => d.def.declaration !== true);
  // Where definitions are global and open (Ruby), every site of one qualified name is one thing.
  const thingKey = (d: LocatedDefinition) => (languageFor(d.file)?.references?.globalDefinitions ? defKey(`*${familyOf(languageFor(d.file) as LanguageSpec)}`, d.qualified) : defKey(d.file, d.qualified));
  const sites = new Map<string, LocatedDefinition[]>();
  for (const d of bodies.length > 0 ? bodies : found) {
    const k = thingKey(d);
    if (!distinct.has(k)) distinct.set(k, d);
    sites.set(k, [...(sites.get(k) ?? []), d]);
  }
  // One qualified name defined in files that share one scope (`ReferenceRules.sharedScope`: the
  // parts of a C# `partial class`, a Kotlin `expect`/`actual` pair, Go declarations under build
  // tags) is one thing, as it is one definer of a member below.
  const mergedInto = distinct.size > 1 ? await mergeSharedScopes(ws, distinct, sites, (await snapshot).view) : new Map<string, string>();
  const keyOf = (d: LocatedDefinition) => {
    const k = thingKey(d);
    return mergedInto.get(k) ?? k;
  };
  // A constructor named after its class (Java `Order.Order`) stands for the class.
  for (const [k, d] of distinct) {
    const owner = d.def.container;
    if (owner !== undefined && owner.split(".").pop() === d.def.name && distinct.has(keyOf({ ...d, qualified: owner }))) distinct.delete(k);
  }
  if (distinct.size > 1) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      advice`name '${args.name}' matches ${distinct.size} definitions: ${candidatesText([...distinct.values()])}`,
      advice`Pass a qualified name (Class.method, module.func) or ${param("path")} with the definition's file.`,
    );
  }
  const target = [...distinct.values()][0] as LocatedDefinition;
  const language = languageFor(target.file) as LanguageSpec;
  if (language.references === undefined) {
    throw new ToolError("UNSUPPORTED", `find_references has no rules for ${language.id} yet (${target.file})`, advice`Use ${tool("search_code")} for the name.`);
  }
  const project = (await snapshot).view;
  const family = familyOf(language);
  const inFamily = familyFiles(project, family);
  const want = new Set((sites.get(keyOf(target)) ?? [target]).map((d) => defKey(d.file, d.qualified)));
  const name = target.def.name;
  const has = (values: Value[]) => values.some((v) => v.kind === "def" && want.has(defKey(v.file, v.qualified)));
  // Names that may stand for the target: its own, then the aliases imports and re-exports give it
  // (`from a import f as g`, `export { f as g }`), found round by round (each round one ripgrep run).
  const names = new Set([name]);
  // A constructor (`ReferenceRules.constructorName`, or named after its class) is also named by each call of its class.
  const ctor = constructorOf(target, language);
  const facts = new FactsMap();
  const used = new UsedFiles(ws);
  const resolver = new Resolver(ws, project, facts, signal, used);
  // An answer that follows only from the files read (C/C++) is kept for later processes (`reference-answers.ts`).
  const keepable = closureLookups(language);
  const key = keepable ? answerKey(ws, { family, file: target.file, qualified: target.qualified, def: target.def, want: [...want].sort(), ctor: ctor?.name }) : "";
  let firstLoad: string[] = [];
  // Every name the mention prefilter looked for: the files containing one were all loaded.
  const mentionedNames = new Set<string>();
  for (let round = 0, fresh = ctor ? [name, ctor.name] : [name]; fresh.length > 0 && round < MAX_ALIAS_ROUNDS; round++) {
    for (const n of fresh) mentionedNames.add(n);
    const mentioned =
      round === 0 && early?.family === family && early.name === name && ctor === undefined
        ? await early.mentions
        : await rememberedMentions(ws, `references:${family}`, inFamily, { literals: fresh }, { endings: familyEndings(family), complete: listIsComplete(project), ...(signal ? { signal } : {}) });
    const files = (mentioned === undefined ? [...inFamily] : [...mentioned]).filter((f) => !facts.has(f) && !facts.skipped.has(f)).sort();
    if (round === 0 && !files.includes(target.file)) files.push(target.file);
    if (round === 0) firstLoad = files;
    if (mentioned === undefined || round > 0) used.spoil();
    else if (keepable) {
      const kept = keptAnswer(ws, project, key, files);
      if (kept !== undefined) return keptCollection(project, key, files, target, language, kept);
    }
    // Where lookups follow only definitions and includes, the first round's files are parsed only
    // where the names are written (`FactsMap.focused`; the resolver loads more of them on demand).
    const focus = round === 0 && keepable && fresh.every((n) => IDENTIFIER.test(n)) ? { focus: fresh } : {};
    const loaded = await loadFacts(ws, used.stat(files), signal, "references", focus);
    // The target's own file is read whole (its definitions around the target: overload runs, its class).
    const whole = loaded.focused.delete(target.file) ? await loadFacts(ws, used.stat([target.file]), signal, "references") : undefined;
    for (const [f, v] of loaded) {
      const w = f === target.file ? whole : undefined;
      if (w === undefined) facts.set(f, v);
      else if (w.has(f)) facts.set(f, w.get(f) as FileFacts);
    }
    for (const [f, why] of [...loaded.skipped, ...(whole?.skipped ?? [])]) facts.skipped.set(f, why);
    resolver.adoptFocused(loaded.focused);
    // Every file loaded so far, not only this round's: a file the text prefilter of an earlier
    // name already loaded (`INTERNAL_buildStore` contains `buildStore`) may bind a name found since
    // (`import { buildStoreRev2 as INTERNAL_buildStore }` after `export { buildStore as buildStoreRev2 }`).
    fresh = [];
    for (const [file, f] of facts) {
      for (const b of f.references?.bindings ?? []) {
        if (b.member === undefined || !names.has(b.member) || names.has(b.local) || b.local === "*") continue;
        if (has(await resolver.binding(file, b, 0))) fresh.push(b.local);
      }
      for (const a of f.references?.exportAliases ?? []) {
        if (!names.has(a.local) || names.has(a.exported)) continue;
        if (has(await resolver.name(file, a.exported))) fresh.push(a.exported);
      }
    }
    fresh = [...new Set(fresh)];
    for (const n of fresh) names.add(n);
  }

  // The files the name lookups below walk into (C/C++: the include closure), loaded ahead.
  resolver.setMentioned(mentionedNames);
  if (language.references.importBindings !== undefined) await resolver.prefetchOutlines([target.file, ...facts.keys()]);

  if (language.references.separateDeclarations) {
    for (const k of await declarationsOf(resolver, target, facts, language)) want.add(k);
  }
  resolver.saveResolutions();
  saveLexicalImports(project);

  // Classes (containers) that define a member named like the target: the `by_name` rule.
  const definers = new Set<string>();
  const definerSites: { file: string; cls: string }[] = [];
  if (target.def.container !== undefined) {
    // A class reopened in several files of a language with global definitions is one definer; so
    // is one name of class in files that share one scope (`ReferenceRules.sharedScope`: a Kotlin
    // `expect class` and its `actual` classes in one package, a Swift extension in another file of
    // the type's target, Go methods of one type across its package's files).
    const global = language.references.globalDefinitions === true;
    const scopes = new Map<string, string>();
    const scopeOf = async (file: string): Promise<string> => {
      let key = scopes.get(file);
      if (key === undefined) {
        const shared = await languageFor(file)?.references?.sharedScope?.(file, project);
        key = shared === undefined ? file : [...new Set([file, ...shared])].sort().join("\n");
        scopes.set(file, key);
      }
      return key;
    };
    // A declaration (a C++ in-class method declaration) whose class defines the member in a loaded file is not another definer.
    const defined = new Set<string>();
    for (const f of facts.values()) for (const s of f.symbols) if (s.name === name && s.container !== undefined && s.declaration !== true) defined.add(s.container);
    for (const [file, f] of facts) {
      for (const s of f.symbols) {
        if (s.name !== name || s.container === undefined || (s.declaration === true && defined.has(s.container))) continue;
        definers.add(global ? s.container : defKey(await scopeOf(file), s.container));
        definerSites.push({ file, cls: s.container });
      }
    }
  }
  // Several definers, each the target's class or derived from it (overrides of an interface's
  // method): a member on a receiver of unknown type is the target's member whichever runs.
  let oneFamily: boolean | undefined;
  const byName = async (): Promise<boolean> => {
    if (definers.size <= 1) return definers.size === 1;
    if (oneFamily === undefined) {
      const goal = defKey(target.file, target.def.container as string);
      oneFamily = true;
      for (const d of definerSites) {
        if (!(await derivesFrom(resolver, d.file, d.cls, goal, new Set()))) {
          oneFamily = false;
          break;
        }
      }
    }
    return oneFamily;
  };
  const targetSymbols = facts.get(target.file)?.symbols ?? [];
  // The target's lines are read only when an overload run can follow it (see localSites).
  const local = localSites(targetSymbols, target.def, mayHaveOverloads(targetSymbols, target.def) ? await targetLines(ws, target.file) : []);
  const ctorLocal = ctor ? classSites(facts.get(target.file)?.symbols ?? [], target.def) : local;
  const hits: ReferenceHit[] = [];
  let leftOut = 0;
  for (const [file, f] of facts) {
    throwIfAborted(signal);
    const refs = f.references;
    if (refs === undefined) continue;
    const moduleContext = file;
    const uses = refs.uses;
    /** Where the chain of `NameUse.alternative` readings of the current use starts. */
    let chainStart = 0;
    for (let k = 0; k < uses.length; k++) {
      const u = uses[k] as NameUse;
      if (u.alternative !== true) chainStart = k;
      const ctorCall = ctor !== undefined && (ctor.byCall === true ? u.use === "call" : u.constructs === true) && u.path[u.path.length - 1] === ctor.name;
      if (!ctorCall && !mentionsAny(u, names)) continue;
      if (k > chainStart && (await shadowed(resolver, file, uses.slice(chainStart, k)))) continue;
      if (ctorCall && (await judge(resolver, file, u, u.path.length - 1, refs.bindings, ctor.want, target, ctorLocal)) === "yes") {
        hits.push(hitOf(file, u, u.path.length - 1, moduleContext, false));
      }
      for (let i = u.from ?? 0; i < u.path.length; i++) {
        if (!names.has(u.path[i] as string)) continue;
        const verdict = await judge(resolver, file, u, i, refs.bindings, want, target, local);
        if (verdict === "no") continue;
        if (verdict === "unknown") {
          // An extension (`fun Char.isAsciiLetter()`, a C# `this T x` method) is seen only where imported, or in its package or namespace.
          if (extendedType(target.def) !== undefined && !(await extensionVisible(resolver, file, target, has))) continue;
          if (await byName()) hits.push(hitOf(file, u, i, moduleContext, true));
          else if (definers.size > 1) leftOut++;
          continue;
        }
        hits.push(hitOf(file, u, i, moduleContext, false));
      }
    }
  }
  const collection: ReferenceCollection = { target, hits, leftOut, definers: definers.size, facts, language };
  const files = used.recorded();
  if (keepable && files !== undefined) collection.keep = (texts) => keepAnswer(project, key, firstLoad, files, { hits, leftOut, definers: definers.size, skipped: facts.skipped }, texts);
  return collection;
}

/** The {@link ReferenceCollection} of a kept answer; its `keep` keeps it again when the output read lines it lacks. */
function keptCollection(
  project: ProjectView,
  key: string,
  loaded: readonly string[],
  target: LocatedDefinition,
  language: LanguageSpec,
  kept: KeptAnswer,
): ReferenceCollection {
  const facts = new FactsMap();
  for (const [f, why] of kept.skipped) facts.skipped.set(f, why);
  const { hits, leftOut, definers, lines } = kept;
  return {
    target,
    hits,
    leftOut,
    definers,
    facts,
    language,
    lines,
    keep: (texts) => {
      const more = [...texts].some(([f, t]) => t !== undefined && !lines.has(f));
      if (more) keepAnswer(project, key, loaded, kept.files, { hits, leftOut, definers, skipped: kept.skipped }, texts);
    },
  };
}

/**
 * For a constructor method (`ReferenceRules.constructorName`) of a class: the class's name and
 * definition key, whose calls are calls of the constructor (`NameUse.constructs`). So for a method
 * named after its class (C#, Java, C++), asked for on its own (`Inner.Inner` of a nested class, whose
 * class the name does not designate): each call of the class's name (`new Inner(…)`: `byCall`).
 */
function constructorOf(target: LocatedDefinition, language: LanguageSpec): { name: string; want: ReadonlySet<string>; byCall?: true } | undefined {
  const cls = target.def.container;
  if (cls === undefined) return undefined;
  const name = cls.slice(cls.lastIndexOf(".") + 1);
  const want = new Set([defKey(target.file, cls)]);
  if (language.references?.constructorName === target.def.name) return { name, want };
  return target.def.kind === "method" && target.def.name === name ? { name, want, byCall: true } : undefined;
}

/** The {@link LocalSites} of the class around `def` (a constructor), among the definitions `symbols` of its file. */
function classSites(symbols: readonly SymbolDef[], def: SymbolDef): LocalSites {
  const cls = def.container as string;
  const name = cls.slice(cls.lastIndexOf(".") + 1);
  const outer = cls.includes(".") ? cls.slice(0, cls.lastIndexOf(".")) : undefined;
  const found = symbols.find((s) => s.name === name && s.container === outer && s.start_line <= def.start_line && s.end_line >= def.end_line);
  return { lines: new Set(found ? [found.start_line] : []) };
}

/** What a use led by a declaration inside a function (`NameUse.localDef`) must name to be the target. */
interface LocalSites {
  /** First lines of the target and of its overload signatures (the target has no container). */
  lines: ReadonlySet<number>;
  /** First line of the class around the target (a member of a class that has no container). */
  classLine?: number;
}

/** The lines of `file` (empty when it cannot be read). */
async function targetLines(ws: Workspace, file: string): Promise<readonly string[]> {
  try {
    return (await ws.readText(file)).lines;
  } catch {
    return [];
  }
}

/** True when a later definition of `def`'s name and kind, with no container, follows it in its file (a possible overload run). */
function mayHaveOverloads(symbols: readonly SymbolDef[], def: SymbolDef): boolean {
  return def.container === undefined && symbols.some((s) => s.start_line > def.start_line && s.name === def.name && s.kind === def.kind && s.container === undefined);
}

/**
 * The {@link LocalSites} of `def` among the definitions `symbols` of its file (`text`: its lines):
 * for a definition with no container, its first line and those of the definitions of its name
 * and kind that follow it, each after one without a body (a TypeScript overload signature, whose
 * last line does not end with `}`), with no other definition between; for a member of a class
 * with no container, the first line of that class's definition around it.
 */
function localSites(symbols: readonly SymbolDef[], def: SymbolDef, text: readonly string[]): LocalSites {
  if (def.container !== undefined) {
    const cls = symbols.find((s) => s.name === def.container && s.container === undefined && s.start_line <= def.start_line && s.end_line >= def.end_line);
    return { lines: new Set(), ...(cls ? { classLine: cls.start_line } : {}) };
  }
  const lines = new Set([def.start_line]);
  const bodiless = (d: SymbolDef) => !/\}\s*;?\s*(\/\/.*)?$/.test(text[d.end_line - 1] ?? "}");
  const after = symbols.filter((s) => s.start_line > def.start_line).sort((a, b) => a.start_line - b.start_line);
  for (let prev = def, k = 0; k < after.length && bodiless(prev); k++) {
    const s = after[k] as SymbolDef;
    if (s.name !== def.name || s.kind !== def.kind || s.container !== undefined) break;
    lines.add(s.start_line);
    prev = s;
  }
  return { lines };
}

/** True when a part of `u` from `u.from` on is one of `names`. */
function mentionsAny(u: NameUse, names: ReadonlySet<string>): boolean {
  for (let i = u.from ?? 0; i < u.path.length; i++) if (names.has(u.path[i] as string)) return true;
  return false;
}

/** True when an earlier reading of a chain of `NameUse.alternative` readings names anything, so the later ones do not count. */
async function shadowed(r: Resolver, file: string, earlier: readonly NameUse[]): Promise<boolean> {
  for (const e of earlier) {
    if (e.path[0] === "" && e.receiverType !== undefined && e.path.length === 2) {
      // A member of a receiver of known type (Kotlin `with(x: C) { m() }`): named when `C` has `m`.
      for (const t of await r.path(file, e.receiverType)) if (t.kind === "def" && (await r.classMember(t.file, t.qualified, e.path[1] as string)).length > 0) return true;
    } else if (await r.names(file, e.path.slice(0, (e.from ?? 0) + 1))) return true;
  }
  return false;
}

/** The files of a language family in the tree, sorted (memoised on the view). */
function familyFiles(project: ProjectView, family: string): readonly string[] {
  return memoize(project, `references:family:${family}`, () => project.files.filter((f) => {
    const l = languageFor(f);
    return l !== undefined && familyOf(l) === family;
  }));
}

/**
 * The prefilter of round 0 started before the definition is located, when `path` is a file of a
 * language: its family and the name's last part are then known (the caller checks them against
 * the definition found).
 */
function earlyMentions(
  ws: Workspace,
  args: Pick<FindReferencesArgs, "name" | "path">,
  snapshot: ReturnType<typeof treeSnapshot>,
  signal: AbortSignal | undefined,
): { family: string; name: string; mentions: Promise<Set<string> | undefined> } | undefined {
  const lang = args.path === undefined ? undefined : languageFor(args.path);
  if (lang === undefined || lang.references === undefined) return undefined;
  let name: string;
  try {
    name = parseSymbolName(args.name).name;
  } catch {
    return undefined; // locateDefinitions reports it
  }
  const family = familyOf(lang);
  const files = snapshot.then((s) => familyFiles(s.view, family));
  const complete = snapshot.then((s) => listIsComplete(s.view));
  return { family, name, mentions: rememberedMentions(ws, `references:${family}`, files, { literals: [name] }, { endings: familyEndings(family), complete, ...(signal ? { signal } : {}) }) };
}

/** Most files of an include closure walked for {@link declarationsOf}. */
const MAX_CLOSURE_FILES = 4000;

/**
 * The declarations that stand for `target` (`ReferenceRules.separateDeclarations`): those of the
 * same qualified name, marked `declaration`, in a loaded file that is the target's file, one it
 * includes (breadth first over resolved imports, at most {@link MAX_CLOSURE_FILES} files), or one
 * with the same stem.
 */
async function declarationsOf(r: Resolver, target: LocatedDefinition, facts: FactsMap, language: LanguageSpec): Promise<string[]> {
  const holders = [...facts].filter(([, f]) => f.symbols.some((s) => s.declaration === true && qualifiedOf(s) === target.qualified)).map(([file]) => file);
  if (holders.length === 0) return [];
  const stem = (f: string) => f.slice(f.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
  const closure = new Set([target.file]);
  for (let queue = [target.file]; queue.length > 0 && closure.size < MAX_CLOSURE_FILES; ) {
    const file = queue.shift() as string;
    for (const ref of await r.imports(file)) {
      const res = await r.resolve(language, ref, file);
      for (const f of res.external ? [] : res.files) {
        if (closure.has(f)) continue;
        closure.add(f);
        queue.push(f);
      }
    }
  }
  return holders.filter((f) => closure.has(f) || stem(f) === stem(target.file)).map((f) => defKey(f, target.qualified));
}

function hitOf(file: string, u: NameUse, i: number, moduleContext: string, byName: boolean): ReferenceHit {
  const whole = i === u.path.length - 1;
  return {
    file,
    line: u.line,
    start_line: u.start_line,
    end_line: u.end_line,
    use: whole ? u.use : u.use === "import" ? "import" : "value",
    context: u.context ?? moduleContext,
    byName,
  };
}

/**
 * Whether part `i` of use `u` in `file` refers to the definition `want`: `yes`, `no`, or `unknown`
 * (a member of a receiver whose type is not known: the `by_name` rule decides).
 */
async function judge(
  r: Resolver,
  file: string,
  u: NameUse,
  i: number,
  bindings: readonly NameBinding[],
  want: ReadonlySet<string>,
  target: LocatedDefinition,
  local: LocalSites,
): Promise<"yes" | "no" | "unknown"> {
  const has = (values: Value[]) => values.some((v) => v.kind === "def" && want.has(defKey(v.file, v.qualified)));
  if (u.fixture === true) return i === 0 && target.def.container === undefined && (await r.fixtureSite(file, u.path[0] as string)) === target.file ? "yes" : "no";
  if (u.binding !== undefined) {
    const b = bindings[u.binding];
    return b !== undefined && has(await r.binding(file, b, 0)) ? "yes" : "no";
  }
  if (u.localDef !== undefined) {
    // A function or class declared inside the enclosing function: that declaration (or one of its
    // overload signatures), nothing else; the next part a member of that class.
    if (file !== target.file) return "no";
    if (i === 0) return local.lines.has(u.localDef) ? "yes" : "no";
    return i === 1 && local.classLine === u.localDef ? "yes" : "no";
  }
  const name = u.path[i] as string;
  // An extension function is named only by a call or a reference (`x.buffer()`, `::buffer`), never by a value (`buffer.size`: a local or property).
  if (target.def.extension === true && target.def.kind === "function" && (i < u.path.length - 1 || (u.use !== "call" && u.methodRef !== true))) return "no";
  // `methodsOnlyCalled`: a member that is not called (`this.x = …`, `o.x`) is no method.
  const noMethods = (i < u.path.length - 1 || (u.use !== "call" && u.methodRef !== true)) && languageFor(file)?.references?.methodsOnlyCalled === true;
  const nonMethods = async (values: Value[]) => (noMethods ? r.ofKinds(values, (k) => k !== "method") : values);
  // A receiver of unknown type leaves the `by_name` rule to decide, unless the part cannot name the target at all (a method not called).
  const unknown = noMethods && target.def.kind === "method" ? "no" : "unknown";
  if (i === 1 && u.selfClass !== undefined) return has(await nonMethods(await r.classMember(file, u.selfClass, name))) ? "yes" : "no";
  // A receiver holding a call's result (`NameUse.receiverCall`): the callee's declared return type;
  // none declared, it is of unknown type as before.
  const returned = i === 1 && u.receiverType === undefined && u.receiverCall !== undefined ? await r.returnTypes(file, u.receiverCall) : [];
  if (i === 1 && (u.receiverType !== undefined || returned.length > 0)) {
    const types = u.receiverType !== undefined ? await r.path(file, u.receiverType) : returned;
    let members = 0;
    for (const t of types) {
      if (t.kind !== "def") continue;
      const found = await nonMethods(await r.classMember(t.file, t.qualified, name));
      if (has(found)) return "yes";
      members += found.length;
    }
    // A type outside the repository (`String`, an external class) is not the target's class,
    // unless the target extends it (`fun Char.isAsciiLetter()` on `c: Char`, where imported); a repository
    // definition without that member (a factory function taken for the type) leaves the
    // receiver's type unknown.
    // Where types from outside may be given members anywhere (Swift's `extension String`, `outsideTypeMembers`):
    // the repository's member of that type, in any file, else no use.
    if (types.length === 0 && u.receiverType !== undefined && languageFor(file)?.references?.outsideTypeMembers === true) {
      return has(await nonMethods(await r.classMember(file, u.receiverType.join("."), name))) ? "yes" : "no";
    }
    if (types.length === 0 && u.receiverType !== undefined && u.receiverType[u.receiverType.length - 1] === extendedType(target.def)) {
      return (await extensionVisible(r, file, target, has)) ? "yes" : "no";
    }
    return types.length > 0 && members === 0 && target.def.container !== undefined ? unknown : "no";
  }
  if (i === 1 && u.path[0] === "") return target.def.container !== undefined ? unknown : "no";
  if (i === 0 && u.selfClass !== undefined) {
    // A bare name inside a class of a language with implicit `this` (Java): a member of the class
    // first, then of each enclosing class; a type name only a member type, and (`methodsOnlyCalled`)
    // a name not called no method.
    const typeUse = u.use === "type" || u.use === "inherit";
    for (let cls: string | undefined = u.selfClass; cls !== undefined; cls = cls.includes(".") ? cls.slice(0, cls.lastIndexOf(".")) : undefined) {
      let member = await r.classMember(file, cls, name);
      if (typeUse || noMethods) member = await r.ofKinds(member, (k) => (typeUse ? TYPE_KINDS.has(k) : k !== "method"));
      if (member.length > 0) return has(member) ? "yes" : "no";
      if (!typeUse) {
        const extensions = memberExtensions((await r.outline(file, name))?.symbols ?? [], cls, name).map((q): Value => ({ kind: "def", file, qualified: q }));
        if (extensions.length > 0) return has(extensions) ? "yes" : "no";
      }
    }
  }
  const values = await r.path(file, u.path.slice(0, i + 1));
  if (has(values)) return "yes";
  if (values.length === 0 && i >= 2 && target.def.container !== undefined) return (await chainOfUnknownType(r, file, u, i, bindings)) ? unknown : "no";
  if (values.length === 0 && i === 1 && target.def.container !== undefined) {
    // `x.m` where `x` is neither resolved nor imported (an attribute of a parameter, a global of
    // unknown origin); an imported `x` that leads outside the repository is not the target's class.
    const head = u.path[0] as string;
    const heads = await r.path(file, [head]);
    if (!bindings.some((b) => b.local === head) && heads.length === 0) return unknown;
    // `v.m` where `v` is a variable or constant of the repository (a top-level `val` of undeclared
    // type, a module-level name): its type is not known, as for a local.
    if ((await r.ofKinds(heads, (k) => VALUE_KINDS.has(k))).length > 0) return unknown;
  }
  return "no";
}

/**
 * True when class `cls` of `file` is the class `goal` ({@link defKey}) or derives from it through
 * the bases its file writes (each resolved where written; `seen` stops cycles).
 */
async function derivesFrom(r: Resolver, file: string, cls: string, goal: string, seen: Set<string>): Promise<boolean> {
  const key = defKey(file, cls);
  if (key === goal) return true;
  if (seen.has(key) || seen.size > 64) return false;
  seen.add(key);
  const info = (await r.facts(file))?.references?.classes.find((c) => c.name === cls);
  for (const base of info?.bases ?? []) {
    for (const b of await r.path(file, base)) if (b.kind === "def" && (await derivesFrom(r, b.file, b.qualified, goal, seen))) return true;
  }
  return false;
}

/**
 * The qualified names of the member extensions named `name` that class `cls` declares in its body
 * (Kotlin `class Gen { private fun Builder.build() … }`: container `Builder`, the receiver type, and
 * callable bare only inside `Gen`, https://kotlinlang.org/docs/extensions.html#declaring-extensions-as-members):
 * definitions inside the class's lines whose container is neither the class nor a type nested in it.
 */
function memberExtensions(symbols: readonly SymbolDef[], cls: string, name: string): string[] {
  const owner = symbols.find((s) => qualifiedOf(s) === cls && TYPE_KINDS.has(s.kind));
  if (owner === undefined) return [];
  return symbols
    .filter((s) => s.name === name && s.container !== undefined && s.container !== cls && !s.container.startsWith(`${cls}.`) && !TYPE_KINDS.has(s.kind))
    .filter((s) => s.start_line > owner.start_line && s.end_line <= owner.end_line)
    .map(qualifiedOf);
}

/** The type an extension extends (Kotlin: its container, the receiver type; C#: `SymbolDef.extends`), else `undefined`. */
function extendedType(def: SymbolDef): string | undefined {
  return def.extension === true ? def.container?.split(".").pop() : def.extends;
}

/**
 * Whether the extension `target` is seen in `file`: a Kotlin extension where its name resolves to
 * it (imported, or in its package); a C# extension method where its static class is (a `using` of
 * its namespace, or the namespace itself).
 */
async function extensionVisible(r: Resolver, file: string, target: LocatedDefinition, has: (values: Value[]) => boolean): Promise<boolean> {
  if (target.def.extension === true) return has(await r.name(file, target.def.name));
  const cls = target.def.container;
  if (cls === undefined) return false;
  return (await r.path(file, cls.split("."))).some((v) => v.kind === "def" && v.qualified === cls);
}

/** Kinds of definitions whose members a path reaches statically (`Type.Nested.m`, `pkg.mod.f`), not through a value. */
const STATIC_KINDS: ReadonlySet<string> = new Set([...TYPE_KINDS, "module"]);

/** Kinds of definitions that hold a value of a type not written with them (`x.m` on them is `by_name`'s). */
const VALUE_KINDS: ReadonlySet<string> = new Set(["variable", "constant"]);

/** Receivers a language writes for the instance of the class around it (`NameUse.selfClass`). */
const SELF_NAMES: ReadonlySet<string> = new Set(["this", "self", "cls"]);

/**
 * For part `i` ≥ 2 of `u` (`a.b.m`), whose path names no definition: true when the receiver
 * `path[0..i-1]` is a value whose type is not known, so the `by_name` rule decides, as for `x.m`.
 * That is when the chain passes a value of unknown type: a receiver that is no name (`f().b.m`)
 * and holds no call of a declared return type; a head neither bound nor defined (a local, a
 * parameter, a closure's `$0`/`it`); a property, field, variable or function met on the way
 * (`Type.shared.m`, `x.inner.m` with `x: Type`); a member a repository class does not declare
 * (C/C++ fields and Python attributes are no definitions). It is false for a type or namespace
 * path outside the repository: a head an import binds that leads nowhere in the tree; an unknown
 * head written with a capital (a type or namespace by the naming conventions of every language
 * here: `System.out.println`, `Console.Out.Write`) or in a language whose paths may name
 * namespaces (`ReferenceRules.namespacePaths`: C++ `std::chrono::now`); a declared type outside
 * the repository; a class literal (`C::class.java`, `C.class`); a member a module lacks. Also
 * false for a type name (`type`, `inherit`), an import, and a path whose first parts are implied
 * by the lexical scope (`NameUse.from`).
 */
async function chainOfUnknownType(r: Resolver, file: string, u: NameUse, i: number, bindings: readonly NameBinding[]): Promise<boolean> {
  if ((u.from ?? 0) > 0 || u.use === "import" || (i === u.path.length - 1 && (u.use === "type" || u.use === "inherit"))) return false;
  const head = u.path[0] as string;
  let values: Value[];
  if (u.receiverType !== undefined) {
    values = (await r.path(file, u.receiverType)).filter((v) => v.kind === "def");
    if (values.length === 0) return false; // a declared type outside the repository
  } else if (u.receiverCall !== undefined) {
    values = await r.returnTypes(file, u.receiverCall);
    if (values.length === 0) return true; // no declared return type
  } else if (head === "") {
    return true;
  } else if (u.selfClass !== undefined && SELF_NAMES.has(head)) {
    values = [{ kind: "def", file, qualified: u.selfClass }];
  } else {
    values = await r.path(file, [head]);
    if (values.length === 0) {
      if (bindings.some((b) => b.local === head) || /^[A-Z]/.test(head)) return false;
      return languageFor(file)?.references?.namespacePaths !== true;
    }
  }
  for (let k = 1; ; k++) {
    // A value met on the way (a property, field, variable, function): its type is not known.
    if ((await r.ofKinds(values, (kind) => !STATIC_KINDS.has(kind))).length > 0) return true;
    if (k === i) return false; // a type or module: its member was looked up and is not the target
    // A class literal (Kotlin `C::class.java`, Java `C.class`, Ruby `x.class`) is an object of the runtime.
    if (u.path[k] === "class") return false;
    const next: Value[] = [];
    for (const v of values) next.push(...(await r.member(v, u.path[k] as string, 0)));
    // A member a repository class does not declare (a C struct's field, a Python attribute set in a method): of unknown type.
    if (next.length === 0) return values.some((v) => v.kind === "def");
    values = next;
  }
}

/**
 * Lists the places that refer to the definition `args.name` (see the module comment).
 * @throws ToolError as {@link collectReferences}.
 */
export async function findReferences(ws: Workspace, args: FindReferencesArgs, signal?: AbortSignal, output?: OutputScope): Promise<EvidenceResult> {
  const { target, hits, leftOut, definers, facts, language, lines, keep } = await collectReferences(ws, args, signal);
  const seen = new Set<string>();
  const kept = hits
    .filter((h) => args.kind === undefined || h.use === args.kind)
    .filter((h) => {
      const k = `${h.file}\0${h.start_line}\0${h.end_line}\0${h.use}\0${h.byName}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => (a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.start_line - b.start_line || a.end_line - b.end_line || (a.use < b.use ? -1 : a.use > b.use ? 1 : 0)));
  const shown = recordsShown(
    kept.map((h) => h.file),
    output?.all === true ? Infinity : args.max_results,
  );
  const texts = new Map<string, readonly string[] | undefined>();
  await mapLimit([...new Set([...shown].map((i) => (kept[i] as ReferenceHit).file))], 8, async (file) => {
    const have = lines?.get(file);
    if (have !== undefined) {
      texts.set(file, have);
      return;
    }
    try {
      texts.set(file, (ws.readTextSync(file) ?? (await ws.readText(file))).lines);
    } catch {
      texts.set(file, undefined);
    }
  });
  keep?.(texts);
  const evidence: Evidence[] = [];
  kept.forEach((h, i) => {
    const fields = {
      kind: "reference" as const,
      name: target.qualified,
      language: languageFor(h.file)?.id ?? language.id,
      context: h.context,
      flags: h.byName ? [h.use, "by_name"] : [h.use],
    };
    if (!shown.has(i)) {
      if (texts.get(h.file) !== undefined || !texts.has(h.file)) {
        const { kind, name, ...rest } = fields;
        evidence.push({ path: h.file, start_line: h.start_line, end_line: h.end_line, kind, name, snippet: "", ...rest });
      }
      return;
    }
    const lines = texts.get(h.file);
    if (lines !== undefined) evidence.push(linesEvidence(h.file, lines, h.start_line, h.end_line, fields));
  });
  evidence.sort((a, b) => compareEvidence(a, b));

  const notes: AdviceText[] = [advice`References of ${target.qualified} (${target.def.kind}, ${location(target.file, target.def.start_line)}).`];
  if (evidence.length === 0) notes.push(plain(`No place of the repository refers to it${args.kind ? ` as ${args.kind}` : ""}.`));
  if (leftOut > 0) {
    notes.push(
      advice`${leftOut} use${leftOut === 1 ? "" : "s"} of .${target.def.name} on receivers of unknown type left out: ${definers} classes define ${target.def.name}. ${tool("search_code")} finds them by text.`,
    );
  }
  const skipped = describeFactsSkips(facts);
  if (skipped) notes.push(plain(`${skipped}.`));
  const { form: _form, ...result } = applyBudget(evidence, scopedBudget({ maxResults: args.max_results, note: joinAdvice(...notes), narrowWith: ["kind"] }, output));
  return result;
}
