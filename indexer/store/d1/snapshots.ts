/**
 * @module indexer/store/d1/snapshots
 *
 * Snapshot bookkeeping in D1, done by the RepoCoordinator:
 * - which file versions a repo already has (`listKnownFileIds`), so unchanged files are skipped;
 * - `activateSnapshot`: writes `snapshot_files`, `snapshot_packages` and the snapshot's BM25
 *   statistics (`snapshot_df`, `snapshot_stats`; indexer/store/d1/snapshot-stats.ts) for (repo, commit) and flips `repos.active_commit` in the same transaction, so readers see the old snapshot or the
 *   new one, never a mix;
 * - `readFileTexts`: the text of a few file versions (the manifests the packages are read from);
 * - `collectGarbage`: deletes snapshots other than the kept ones (the active one and every tracked
 *   ref's, indexer/store/d1/repo-refs.ts) and every file version (rows and vectors) no snapshot
 *   references;
 * - `deleteRepoData`: removes a repo entirely.
 */
import type { JobStatus } from "../../../kernel/coordinator";
import type { RepoPackage, VectorStore } from "../contract";
import { deleteFilesStatements } from "./write-files";
import { deleteHistoryStatements } from "./history";
import { rebaseStatistics, snapshotStatisticsStatements } from "./snapshot-stats";

export { snapshotStatisticsStatements } from "./snapshot-stats";

/** Rows per multi-row INSERT into snapshot_files and snapshot_packages: 4 parameters each, under D1's 100 per statement. */
const SNAPSHOT_ROWS_PER_INSERT = 24;
/** File versions deleted per D1 batch during garbage collection (one transaction: deleteFilesStatements, 9 statements with IN lists). */
const GC_FILES_PER_BATCH = 50;
/** Ids per `IN (...)` list (D1: 100 bound parameters per statement). */
const IDS_PER_QUERY = 90;

/** File ids of every file version of `repo` present in D1 (in any snapshot, or orphaned by a failed job). */
export async function listKnownFileIds(db: D1Database, repo: string): Promise<Set<string>> {
  const { results } = await db.prepare("SELECT file_id FROM files WHERE repo = ?").bind(repo).all<{ file_id: string }>();
  return new Set(results.map((r) => r.file_id));
}

/** The embedding model that built the repo's vectors, or null before the first snapshot. */
export async function getRepoEmbedding(db: D1Database, repo: string): Promise<{ model: string | null; dims: number | null } | null> {
  const row = await db
    .prepare("SELECT embedding_model, embedding_dims FROM repos WHERE id = ?")
    .bind(repo)
    .first<{ embedding_model: string | null; embedding_dims: number | null }>();
  return row ? { model: row.embedding_model, dims: row.embedding_dims } : null;
}

/** Mirrors the coordinator's job status into `repos.status`. */
export async function setRepoStatus(db: D1Database, repo: string, status: JobStatus, now: number): Promise<void> {
  await db.prepare("UPDATE repos SET status = ?, updated_at = ? WHERE id = ?").bind(status, now, repo).run();
}

/**
 * Records why the repo's snapshot is stale (a job failed, the upstream is gone, the token was
 * revoked): `last_error` is the newest reason, `failing_since` (ms) the first failure since the
 * last completed job. Cleared by `activateSnapshot`.
 */
export async function markRepoFailing(db: D1Database, repo: string, error: string, now: number): Promise<void> {
  await db.prepare("UPDATE repos SET last_error = ?, failing_since = coalesce(failing_since, ?) WHERE id = ?").bind(error.slice(0, 1000), now, repo).run();
}

/**
 * Creates the `repos` row of an archive repo when absent (status `queued`), called once the
 * upload proved valid. Returns the row's `source_kind`: "git" means the id belongs to a git
 * repo, which an archive must not replace.
 */
export async function claimArchiveRepo(db: D1Database, repo: string, now: number): Promise<string | null> {
  const [, row] = await db.batch<{ source_kind: string }>([
    db
      .prepare(
        "INSERT INTO repos (id, name, source_kind, url, ref, status, created_at, updated_at) VALUES (?, ?, 'archive', NULL, NULL, 'queued', ?, ?) ON CONFLICT (id) DO NOTHING",
      )
      .bind(repo, repo, now, now),
    db.prepare("SELECT source_kind FROM repos WHERE id = ?").bind(repo),
  ]);
  return row.results[0]?.source_kind ?? null;
}

/** What `activateSnapshot` records. */
export interface SnapshotActivation {
  repo: string;
  commit: string;
  members: { path: string; fileId: string }[];
  embeddingModel: string;
  embeddingDims: number;
  /** ms since epoch. */
  now: number;
  /** Packages the snapshot publishes (indexer/own-packages.ts); none when absent. */
  packages?: RepoPackage[];
  /** Files of the snapshot that are not indexed, with reason and rule; none when absent. */
  skipped?: { path: string; reason: string; rule: string }[];
  /**
   * Whether the snapshot becomes `repos.active_commit` (default true). False for an extra tracked
   * ref's snapshot (docs/refs.md): written beside the active one, which keeps serving.
   */
  flip?: boolean;
  /** Statements run in the same transaction, last (the ref's `repo_refs` mirror row). */
  also?: D1PreparedStatement[];
}

/** Rows per multi-row INSERT into skipped_files: 5 parameters each, under D1's 100 per statement. */
const SKIPPED_ROWS_PER_INSERT = 19;

/** The skipped files recorded for (repo, commit), by path. */
export async function listSkippedFiles(db: D1Database, repo: string, commit: string): Promise<{ path: string; reason: string; rule: string }[]> {
  const { results } = await db
    .prepare("SELECT path, reason, rule FROM skipped_files WHERE repo = ? AND commit_sha = ? ORDER BY path")
    .bind(repo, commit)
    .all<{ path: string; reason: string; rule: string }>();
  return results;
}

/**
 * Texts of `files` (file versions of `repo` that D1 holds), by path; a file without a row is
 * left out. One statement per IDS_PER_QUERY files.
 */
export async function readFileTexts(db: D1Database, repo: string, files: { path: string; fileId: string }[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (let i = 0; i < files.length; i += IDS_PER_QUERY) {
    const part = files.slice(i, i + IDS_PER_QUERY);
    const { results } = await db
      .prepare(`SELECT file_id, text FROM files WHERE repo = ? AND file_id IN (${part.map(() => "?").join(", ")})`)
      .bind(repo, ...part.map((f) => f.fileId))
      .all<{ file_id: string; text: string }>();
    const byId = new Map(results.map((r) => [r.file_id, r.text]));
    for (const f of part) if (byId.has(f.fileId)) texts.set(f.path, byId.get(f.fileId)!);
  }
  return texts;
}

/**
 * Writes the snapshot's membership, packages and BM25 statistics and makes it the repo's active snapshot, in
 * one D1 transaction (`db.batch`): rows for (repo, commit) are replaced, then
 * `repos.active_commit` is flipped by a single UPDATE (not with `flip: false`). Idempotent.
 */
export async function activateSnapshot(db: D1Database, a: SnapshotActivation): Promise<void> {
  const statements: D1PreparedStatement[] = [
    db.prepare("DELETE FROM snapshot_files WHERE repo = ? AND commit_sha = ?").bind(a.repo, a.commit),
    db.prepare("DELETE FROM snapshot_packages WHERE repo = ? AND commit_sha = ?").bind(a.repo, a.commit),
    db.prepare("DELETE FROM skipped_files WHERE repo = ? AND commit_sha = ?").bind(a.repo, a.commit),
  ];
  const skipped = a.skipped ?? [];
  for (let i = 0; i < skipped.length; i += SKIPPED_ROWS_PER_INSERT) {
    const rows = skipped.slice(i, i + SKIPPED_ROWS_PER_INSERT);
    statements.push(
      db
        .prepare(`INSERT INTO skipped_files (repo, commit_sha, path, reason, rule) VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}`)
        .bind(...rows.flatMap((r) => [a.repo, a.commit, r.path, r.reason, r.rule])),
    );
  }
  for (let i = 0; i < a.members.length; i += SNAPSHOT_ROWS_PER_INSERT) {
    const rows = a.members.slice(i, i + SNAPSHOT_ROWS_PER_INSERT);
    const values = rows.map(() => "(?, ?, ?, ?)").join(", ");
    statements.push(
      db
        .prepare(`INSERT INTO snapshot_files (repo, commit_sha, path, file_id) VALUES ${values}`)
        .bind(...rows.flatMap((m) => [a.repo, a.commit, m.path, m.fileId])),
    );
  }
  const packages = a.packages ?? [];
  for (let i = 0; i < packages.length; i += SNAPSHOT_ROWS_PER_INSERT) {
    const rows = packages.slice(i, i + SNAPSHOT_ROWS_PER_INSERT);
    statements.push(
      db
        .prepare(`INSERT INTO snapshot_packages (repo, commit_sha, name, folder) VALUES ${rows.map(() => "(?, ?, ?, ?)").join(", ")}`)
        .bind(...rows.flatMap((p) => [a.repo, a.commit, p.name, p.folder])),
    );
  }
  // An extra ref's statistics are a delta against the active snapshot (snapshot-stats.ts).
  statements.push(...snapshotStatisticsStatements(db, a.repo, a.commit, { againstActive: a.flip === false }));
  if (a.flip !== false)
    statements.push(
      db
        .prepare(
          "UPDATE repos SET active_commit = ?, active_indexed_at = ?, status = 'ready', last_error = NULL, failing_since = NULL, embedding_model = ?, embedding_dims = ?, updated_at = ? WHERE id = ?",
        )
        .bind(a.commit, a.now, a.embeddingModel, a.embeddingDims, a.now, a.repo),
    );
  statements.push(...(a.also ?? []));
  await db.batch(statements);
}

async function chunkIdsOf(db: D1Database, repo: string, fileIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < fileIds.length; i += IDS_PER_QUERY) {
    const part = fileIds.slice(i, i + IDS_PER_QUERY);
    const { results } = await db
      .prepare(`SELECT id FROM chunks WHERE repo = ? AND file_id IN (${part.map(() => "?").join(", ")})`)
      .bind(repo, ...part)
      .all<{ id: string }>();
    ids.push(...results.map((r) => r.id));
  }
  return ids;
}

/** Deletes file versions: their vectors first, then their D1 rows (in batches). */
export async function deleteFileVersions(db: D1Database, vectors: VectorStore, repo: string, fileIds: string[]): Promise<void> {
  if (!fileIds.length) return;
  const chunkIds = await chunkIdsOf(db, repo, fileIds);
  if (chunkIds.length) await vectors.delete(repo, chunkIds);
  for (let i = 0; i < fileIds.length; i += GC_FILES_PER_BATCH) {
    await db.batch(deleteFilesStatements(db, repo, fileIds.slice(i, i + GC_FILES_PER_BATCH)));
  }
}

/**
 * Deletes snapshots of `repo` other than those of `keep` (the active commit and every tracked
 * ref's: `keptCommits`), with their packages, skipped files and statistics (after rebasing the
 * kept snapshots' statistics onto the active one, so the old bases of deltas go too), then every file
 * version (rows and vectors) that no remaining snapshot references. Returns how many file
 * versions went. Run only while no job of the repo writes files (the coordinator runs it when a
 * job completes, and when a ref is untracked while no job runs). An empty `keep` deletes nothing.
 */
export async function collectGarbage(db: D1Database, vectors: VectorStore, repo: string, keep: readonly string[]): Promise<number> {
  if (keep.length === 0) return 0;
  // One bound parameter for the whole list (json_each), whatever MAX_REFS_PER_REPO is.
  const kept = JSON.stringify([...new Set(keep)]);
  const notKept = "commit_sha NOT IN (SELECT value FROM json_each(?2))";
  await rebaseStatistics(db, repo, keep);
  await db.batch([
    db.prepare(`DELETE FROM snapshot_files WHERE repo = ?1 AND ${notKept}`).bind(repo, kept),
    db.prepare(`DELETE FROM snapshot_packages WHERE repo = ?1 AND ${notKept}`).bind(repo, kept),
    db.prepare(`DELETE FROM skipped_files WHERE repo = ?1 AND ${notKept}`).bind(repo, kept),
    db.prepare(`DELETE FROM snapshot_terms WHERE repo = ?1 AND ${notKept}`).bind(repo, kept),
    // Numbered statistics of kept snapshots and of their bases stay; one activated by format 9 has no number, so none of its keeps one.
    db
      .prepare(
        "DELETE FROM snapshot_df WHERE repo = ?1 AND terms_key NOT IN (SELECT terms_key FROM snapshot_stats WHERE repo = ?1 AND terms_key IS NOT NULL AND commit_sha IN (SELECT value FROM json_each(?2)) " +
          "UNION ALL SELECT base_key FROM snapshot_stats WHERE repo = ?1 AND base_key IS NOT NULL AND commit_sha IN (SELECT value FROM json_each(?2)))",
      )
      .bind(repo, kept),
    db.prepare(`DELETE FROM snapshot_stats WHERE repo = ?1 AND ${notKept}`).bind(repo, kept),
  ]);
  const { results } = await db
    .prepare("SELECT file_id FROM files WHERE repo = ?1 AND file_id NOT IN (SELECT file_id FROM snapshot_files WHERE repo = ?1)")
    .bind(repo)
    .all<{ file_id: string }>();
  const orphans = results.map((r) => r.file_id);
  await deleteFileVersions(db, vectors, repo, orphans);
  return orphans.length;
}

/** Removes every row of `repo` (snapshots and their packages, files, chunks, FTS, symbols, grep trigrams, commit history, the repo row) and its vectors. */
export async function deleteRepoData(db: D1Database, vectors: VectorStore, repo: string): Promise<void> {
  const { results } = await db.prepare("SELECT id FROM chunks WHERE repo = ?").bind(repo).all<{ id: string }>();
  const ids = results.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 1000) await vectors.delete(repo, ids.slice(i, i + 1000));
  await db.batch([
    db.prepare("DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE repo = ?)").bind(repo),
    db.prepare("DELETE FROM chunk_terms WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM chunk_terms_staged WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM chunks WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM file_terms WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM symbols WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM files WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM grep_trigrams WHERE rowid IN (SELECT rowid FROM grep_docs WHERE repo = ?)").bind(repo),
    db.prepare("DELETE FROM grep_docs WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM snapshot_files WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM snapshot_packages WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM repo_webhooks WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM skipped_files WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM snapshot_terms WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM snapshot_df WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM snapshot_stats WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM repo_refs WHERE repo = ?").bind(repo),
    ...deleteHistoryStatements(db, repo),
    db.prepare("DELETE FROM repos WHERE id = ?").bind(repo),
  ]);
}
