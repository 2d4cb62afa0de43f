/**
 * The agent's defaults that the configuration also needs (a module with no imports, so
 * `config.ts` can read them without loading the agent): a repository's `.codecite.yml` may lower
 * these settings, never raise them above the user's own value or these defaults (SECURITY.md,
 * "Configuration files").
 */

/** Context size of a session in tokens when none is configured (`--num-ctx`, `CODECITE_NUM_CTX`). */
export const DEFAULT_CONTEXT_TOKENS = 8192;

/** Default step limit (`--max-steps`). */
export const DEFAULT_MAX_STEPS = 8;
