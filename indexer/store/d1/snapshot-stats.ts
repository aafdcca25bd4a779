/**
 * @module indexer/store/d1/snapshot-stats
 *
 * A snapshot's BM25 statistics in D1 (migrations/0026, 0032): `snapshot_stats` (chunk count,
 * token total, the snapshot's number `terms_key`) and `snapshot_df` (document frequency of each
 * term over the snapshot's chunks, under that number).
 *
 * Full or delta. The active snapshot's rows are full. Another snapshot of the repo (an extra
 * tracked ref, docs/refs.md) is stored as a difference against the active one when that is full:
 * `snapshot_stats.base_key` names the base's number, and the snapshot's own `snapshot_df` rows
 * hold `df - base df` for the terms where they differ (negative for a term the base has more of;
 * none where equal). A reader sums the rows under both numbers and drops terms summing to 0
 * (worker/search/term-stats.ts); the sums equal the full figures by construction. So a second
 * branch that differs in N files costs rows for the terms of those N files, not a second table
 * of every term (about 10,000 rows on hono, 0.27 MB by dbstat; docs/refs.md).
 *
 * Rows under a number some snapshot names as `base_key` are never deleted or rewritten:
 * re-activating the base gives it a new number, and garbage collection keeps a base while a kept
 * snapshot names it. Garbage collection rebases kept snapshots onto the current active one
 * (`rebaseStatistics`), after which old bases go.
 */
import { movePostingsStatements } from "./write-files";

/** Options of `snapshotStatisticsStatements`. */
export interface StatisticsOptions {
  /**
   * Store `snapshot_df` as a difference against the repo's active snapshot (`repos.active_commit`
   * as it is when the statements run) when that is another commit with full rows in this
   * database; otherwise full rows. Default false: full rows.
   */
  againstActive?: boolean;
}

/** The base (commit `c`, number `k`) a delta of snapshot ?2 of repo ?1 is taken against; empty unless ?3. */
const BASE_CTE =
  "WITH b(c, k) AS (SELECT s.commit_sha, s.terms_key FROM repos r JOIN snapshot_stats s ON s.repo = r.id AND s.commit_sha = r.active_commit " +
  "WHERE ?3 AND r.id = ?1 AND r.active_commit <> ?2 AND s.terms_key IS NOT NULL AND s.base_key IS NULL) ";

/**
 * Rows `(term, n)` of the member files of snapshot `commit` (SQL) that snapshot `other` (SQL)
 * does not hold at the same path, each count multiplied by `sign`: from `file_terms`, or from
 * format 9's `chunk_terms` (one per chunk) for a member written by format 9 (migrations/0025).
 */
function memberTerms(from: string, commit: string, other: string, sign: 1 | -1): string {
  const notInOther = `NOT EXISTS (SELECT 1 FROM snapshot_files o WHERE o.repo = ?1 AND o.commit_sha = ${other} AND o.path = sf.path AND o.file_id = sf.file_id)`;
  return (
    `SELECT j.key AS term, ${sign} * j.value AS n FROM ${from} CROSS JOIN file_terms ft CROSS JOIN json_each(ft.terms) j ` +
    `WHERE sf.repo = ?1 AND sf.commit_sha = ${commit} AND ${notInOther} AND ft.repo = ?1 AND ft.file_id = sf.file_id ` +
    // Format 9: member files -> their chunks (chunks_by_file) -> postings by chunk (chunk_terms_by_chunk).
    `UNION ALL SELECT t.term, ${sign} FROM ${from} CROSS JOIN chunks c CROSS JOIN chunk_terms t ` +
    `WHERE sf.repo = ?1 AND sf.commit_sha = ${commit} AND ${notInOther} AND c.repo = ?1 AND c.file_id = sf.file_id AND c.text_from IS NULL AND t.chunk_rowid = c.rowid`
  );
}

/** A number no snapshot of repo ?1 uses, as a base or its own: the largest + 1. */
const NEXT_KEY = "(SELECT max(coalesce(max(terms_key), 0), coalesce(max(base_key), 0)) + 1 FROM snapshot_stats WHERE repo = ?1)";
/** Numbers that other snapshots' deltas are taken against (never deleted nor rewritten). */
const BASE_KEYS = "(SELECT base_key FROM snapshot_stats WHERE repo = ?1 AND base_key IS NOT NULL)";

/**
 * Statements that (re)compute a snapshot's BM25 statistics from its member files, after its
 * `snapshot_files` rows are written: `snapshot_stats` (chunk count, token total, a new
 * `terms_key`, and `base_key` for a delta) and `snapshot_df` (full, or the difference against
 * the active snapshot with `againstActive`: only the members the two do not share are read).
 * Rows a format 9 activation wrote in `snapshot_terms` are deleted. These equal a fresh build's
 * by construction: only the snapshot's own rows (and its base's) are counted, whatever else D1
 * holds. Members written by a deployment of format 9 have `chunk_terms` postings instead of a
 * `file_terms` row (migrations/0025): their staged postings are moved first and their chunks
 * counted from `chunk_terms`, so such a snapshot is counted whole too.
 */
export function snapshotStatisticsStatements(db: D1Database, repo: string, commit: string, options: StatisticsOptions = {}): D1PreparedStatement[] {
  const delta = options.againstActive ? 1 : 0;
  return [
    ...movePostingsStatements(db, repo),
    db.prepare("DELETE FROM snapshot_terms WHERE repo = ? AND commit_sha = ?").bind(repo, commit),
    db
      .prepare(
        `DELETE FROM snapshot_df WHERE repo = ?1 AND terms_key = (SELECT terms_key FROM snapshot_stats WHERE repo = ?1 AND commit_sha = ?2) AND terms_key NOT IN ${BASE_KEYS}`,
      )
      .bind(repo, commit),
    db.prepare("DELETE FROM snapshot_stats WHERE repo = ? AND commit_sha = ?").bind(repo, commit),
    db
      .prepare(
        `${BASE_CTE}INSERT INTO snapshot_stats (repo, commit_sha, chunks, tokens, terms_key, base_key) SELECT ?1, ?2, count(c.rowid), coalesce(sum(c.token_count), 0), ` +
          `${NEXT_KEY}, (SELECT k FROM b) FROM snapshot_files sf ` +
          "JOIN chunks c ON c.repo = sf.repo AND c.file_id = sf.file_id WHERE sf.repo = ?1 AND sf.commit_sha = ?2",
      )
      .bind(repo, commit, delta),
    db
      .prepare(
        `${BASE_CTE}INSERT INTO snapshot_df (repo, terms_key, term, df) SELECT ?1, (SELECT terms_key FROM snapshot_stats WHERE repo = ?1 AND commit_sha = ?2), term, sum(n) FROM (` +
          `${memberTerms("snapshot_files sf", "?2", "(SELECT c FROM b)", 1)} UNION ALL ${memberTerms("b CROSS JOIN snapshot_files sf", "b.c", "?2", -1)}` +
          ") GROUP BY term HAVING sum(n) <> 0",
      )
      .bind(repo, commit, delta),
  ];
}

/**
 * Rebases the statistics of `keep`'s snapshots other than the active one onto the active one
 * (full rows, or a delta against an older base, become a delta against the active), one D1
 * transaction per snapshot, so that the bases they named can be deleted. A snapshot activated
 * by format 9 (no `terms_key`) is left as it is. Returns the commits rebased.
 */
export async function rebaseStatistics(db: D1Database, repo: string, keep: readonly string[]): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT s.commit_sha FROM snapshot_stats s JOIN repos r ON r.id = s.repo JOIN snapshot_stats a ON a.repo = r.id AND a.commit_sha = r.active_commit " +
        "WHERE s.repo = ?1 AND s.commit_sha <> r.active_commit AND s.commit_sha IN (SELECT value FROM json_each(?2)) AND s.terms_key IS NOT NULL " +
        "AND a.terms_key IS NOT NULL AND a.base_key IS NULL AND s.base_key IS NOT a.terms_key",
    )
    .bind(repo, JSON.stringify([...keep]))
    .all<{ commit_sha: string }>();
  for (const r of results) await db.batch(snapshotStatisticsStatements(db, repo, r.commit_sha, { againstActive: true }));
  return results.map((r) => r.commit_sha);
}
