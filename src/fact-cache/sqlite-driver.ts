/**
 * better-sqlite3's JavaScript as compiled into the command line's query bundles, for
 * `sqlite-backend.ts` to use instead of the installed copy when it may.
 *
 * Loading the driver from `node_modules` resolves, reads and compiles its 13 modules one by one
 * through Node's CommonJS loader, none of them in a code cache: about 15 ms of CPU in every warm
 * query that opens the fact cache (`node -e 'require("better-sqlite3")'` against `node -e 0`,
 * process CPU time). The query bundles (`scripts/bundle-cli.ts`) replace this module's body with
 * a `require` of the package that the bundler follows, so those modules come compiled from the
 * bundle's V8 code cache (`cli/compile-cache.ts`) and are evaluated when first asked for.
 *
 * Elsewhere (the ES module build, tests) there is no bundled copy: {@link bundledDriver} returns
 * undefined and the installed package is loaded as before.
 */
import type BetterSqlite3 from "better-sqlite3";

/** The driver compiled into a bundle, with the package version it was taken from. */
export interface BundledDriver {
  /** better-sqlite3's `Database` constructor. */
  Database: typeof BetterSqlite3;
  /** `version` of the package.json of the copy it was bundled from, e.g. `12.11.1`. */
  version: string;
}

/**
 * The bundled driver, or undefined outside a query bundle. It can load its native addon only
 * when given the addon's file (the `nativeBinding` option): its own search (the `bindings`
 * package) looks next to the code that calls it, which in a bundle is not the package's folder.
 */
export function bundledDriver(): BundledDriver | undefined {
  return undefined;
}
