/**
 * The regular-expression syntax ripgrep reads (Rust's `regex` crate), for the patterns codecite
 * builds from names. Its own module so that the language modules, which a parse worker loads,
 * need not load the ripgrep runner (`text-prefilter.ts`) for it.
 */

/** Escapes a string for Rust's `regex` crate (the characters `regex::escape` escapes). */
export function escapeRustRegex(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, "\\$&");
}
