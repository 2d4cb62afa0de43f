/**
 * Tool arguments for calling the evidence functions directly, with the defaults the zod schemas
 * of `src/tools/code-tools.ts` fill in (`regex: false`, `max_results: 50`, `context_lines: 3`).
 * Plain spreads, not `schema.parse`, so that a test can still pass values the schema would
 * reject and check the evidence function's own validation.
 */
import type { ReadGitDiffArgs, SearchCodeArgs } from "../../src/tools/code-tools.js";

/** `search_code` arguments: the schema defaults overridden by `a`. */
export const searchArgs = (a: Partial<SearchCodeArgs> & { query: string }): SearchCodeArgs => ({
  regex: false,
  max_results: 50,
  ...a,
});

/** `read_git_diff` arguments: the schema default (`context_lines: 3`) overridden by `a`. */
export const diffArgs = (a: Partial<ReadGitDiffArgs> = {}): ReadGitDiffArgs => ({ context_lines: 3, ...a });
