/**
 * The one rule `find_importers` applies when a module name is compared with an import that left
 * the tree (a library, the standard library): **the exact module by default**, the module **and
 * everything under it** with `include_submodules` — the same rule as for modules of the repository.
 *
 * Languages whose imports name a member of a module (Java `import java.util.List`, Kotlin, PHP
 * `use Psr\Http\Message\ResponseInterface`, Rust `use std::fs::File`) write the module followed by
 * one more segment; such an import still imports from that module, so it matches the module exactly.
 */

/** How one language writes module paths. */
export interface ModulePathSyntax {
  /** Separators between segments (`.`, `/`, `::`, `\`). */
  readonly separators: readonly string[];
  /** Whether an import's path may end in a member of the module (a class, a function): `a.b.C` imports from `a.b`. */
  readonly members: boolean;
}

/**
 * Whether the module path `written` (as an import resolved outside the tree names it) matches the
 * query `query`: equal, one member below it when {@link ModulePathSyntax.members}, or anywhere below
 * it when `includeSubmodules`.
 */
export function matchesModulePath(query: string, written: string, syntax: ModulePathSyntax, includeSubmodules: boolean): boolean {
  if (written === query) return true;
  for (const sep of syntax.separators) {
    if (!written.startsWith(`${query}${sep}`)) continue;
    if (includeSubmodules) return true;
    if (syntax.members && !written.slice(query.length + sep.length).includes(sep)) return true;
  }
  return false;
}
