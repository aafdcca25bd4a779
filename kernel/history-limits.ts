/**
 * @module kernel/history-limits
 *
 * The limits of file history, blame and commit search, in one place for every client: the REST
 * and MCP schemas (worker/services/history-schema.ts re-exports them) and the CLI
 * (bin/lib/cmd-history.ts), which cannot import the worker's schemas (Node runs bin/ without a
 * bundler, and those modules import without extensions). docs/history.md lists them.
 */

/** Most commits one history page returns. */
export const HISTORY_MAX_LIMIT = 100;
/** Most lines one blame call covers. */
export const BLAME_MAX_LINES = 500;
/** Wall-clock budget of one history or blame walk, ms; past it the call fails with `payload_too_large`. */
export const HISTORY_TIME_BUDGET_MS = 5_000;
/** Most commits one commit search returns. */
export const COMMIT_SEARCH_MAX_LIMIT = 50;
