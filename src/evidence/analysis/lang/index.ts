/**
 * The registered language modules. Adding a language means adding one `lang/<language>.ts`
 * that exports a {@link LanguageSpec} and one line here.
 */
import type { LanguageSpec } from "./language.js";
import { python } from "./python.js";
import { typescript, tsx } from "./typescript.js";
import { javascript } from "./javascript.js";
import { go } from "./go.js";
import { rust } from "./rust.js";
import { java } from "./java.js";
import { c } from "./c.js";
import { cpp } from "./cpp.js";
import { csharp } from "./csharp.js";
import { ruby } from "./ruby.js";
import { php } from "./php.js";
import { kotlin } from "./kotlin.js";
import { swift } from "./swift.js";

/** Every language codecite parses, in a fixed order. */
export const LANGUAGES: readonly LanguageSpec[] = Object.freeze([python, typescript, tsx, javascript, go, rust, java, c, cpp, csharp, ruby, php, kotlin, swift]);

/** Ending (with the dot, lower case) → language. `.d.ts` falls under `.ts`. */
const BY_EXTENSION = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) BY_EXTENSION.set(ext.toLowerCase(), lang);

/**
 * The language of a repository-relative path, by its ending (the longest registered ending wins,
 * compared case-insensitively), or `undefined` when no language handles it.
 */
export function languageFor(path: string): LanguageSpec | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  // Endings from the first dot on, longest first: the first registered one is the answer.
  for (let i = base.indexOf("."); i >= 0; i = base.indexOf(".", i + 1)) {
    const lang = BY_EXTENSION.get(base.slice(i));
    if (lang !== undefined) return lang;
  }
  return undefined;
}

/** The importer family of a language (`js` for TypeScript, TSX and JavaScript). */
export function familyOf(lang: LanguageSpec): string {
  return lang.family ?? lang.id;
}

/**
 * The file endings of a language family (`.py`, `.pyi`), for ripgrep's `--iglob`
 * (`text-prefilter.ts` `endings`): every path {@link languageFor} gives a language of the family
 * ends with one of them, in any case.
 */
export function familyEndings(family: string): string[] {
  return LANGUAGES.filter((l) => familyOf(l) === family).flatMap((l) => l.extensions);
}

