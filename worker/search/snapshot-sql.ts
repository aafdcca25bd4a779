/**
 * @module worker/search/snapshot-sql
 *
 * SQL shared by every read of the index: the join restricting chunks (alias `c`) to a repo's
 * active snapshot, and the id-list size per statement. Imports nothing, so the query parser's
 * helpers and the channels can all use it without a cycle through the channel scope.
 */

/** JOIN restricting chunks `c` to the active snapshot; binds one parameter, the commit. */
export const SNAPSHOT_JOIN = "JOIN snapshot_files sf ON sf.repo = c.repo AND sf.commit_sha = ? AND sf.path = c.path AND sf.file_id = c.file_id";

/** Bound parameters per D1 statement, minus room for the fixed ones. */
export const IDS_PER_STATEMENT = 80;
