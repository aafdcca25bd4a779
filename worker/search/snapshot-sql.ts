/**
 * @module worker/search/snapshot-sql
 *
 * SQL shared by every read of the index: the join restricting chunks (alias `c`) to a repo's
 * active snapshot, a chunk's code, and the id-list size per statement. Imports nothing, so the query parser's
 * helpers and the channels can all use it without a cycle through the channel scope.
 */

/** JOIN restricting chunks `c` to the active snapshot; binds one parameter, the commit. */
export const SNAPSHOT_JOIN = "JOIN snapshot_files sf ON sf.repo = c.repo AND sf.commit_sha = ? AND sf.path = c.path AND sf.file_id = c.file_id";

/** JOIN to chunk `c`'s file version (alias `cf`), whose text holds the chunk's code from format 10 on. */
export const CHUNK_FILE_JOIN = "LEFT JOIN files cf ON cf.repo = c.repo AND cf.file_id = c.file_id";

/**
 * The code of chunk `c` (needs CHUNK_FILE_JOIN): the range `text_from`, `text_len` (code points)
 * of its file's text in format 10 (migrations/0025), `c.content` in rows written before, whose
 * range is NULL.
 */
export const CHUNK_CONTENT = "coalesce(substr(cf.text, c.text_from, c.text_len), c.content)";

/** Bound parameters per D1 statement, minus room for the fixed ones. */
export const IDS_PER_STATEMENT = 80;
