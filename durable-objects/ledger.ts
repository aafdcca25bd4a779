/**
 * @module durable-objects/ledger
 *
 * The coordinator's own SQLite storage (one database per repo):
 * - `kv`: the repo's settings and the current job state, as JSON.
 * - `batches`: the ledger, one row per queued batch: state (`pending` -> `enqueued` -> `done` |
 *   `failed`), delivery attempts, when it was last sent, when a consumer last took it or
 *   renewed its lease.
 * - `staged`: bytes of the new or changed files of a batch, so that a queue message only
 *   carries ids (Queues: 128 KB per message; DO SQLite: 2 MB per row, above MAX_FILE_BYTES).
 * - `members`: the new snapshot's (path, file id) pairs as they become known; written to D1
 *   `snapshot_files` when the job completes.
 * - `skipped`: the new snapshot's skipped files (path, reason, rule); written to D1
 *   `skipped_files` when the job completes.
 *
 * All functions take the DO's `SqlStorage` and are synchronous (DO SQLite is).
 */

// RepoSettings and StagedFile cross the coordinator's RPC boundary (kernel/coordinator.ts).
import type { StagedFile } from "../kernel/coordinator";
export type { RepoSettings, StagedFile } from "../kernel/coordinator";

/** Ledger state of a batch. */
export type BatchState = "pending" | "enqueued" | "done" | "failed";

/** A ledger row. Times in ms since epoch. */
export interface BatchRow {
  batchId: number;
  state: BatchState;
  attempts: number;
  enqueuedAt: number;
  /** When a consumer last asked for the batch's files or renewed its lease (0: not since it was sent). */
  startedAt: number;
  fileCount: number;
  byteSize: number;
}

/** Creates the tables (idempotent). Call from the DO constructor inside `blockConcurrencyWhile`. */
export function migrateLedger(sql: SqlStorage): void {
  sql.exec(`
    CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS batches (
      job_id TEXT NOT NULL, batch_id INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
      enqueued_at INTEGER NOT NULL, file_count INTEGER NOT NULL, byte_size INTEGER NOT NULL,
      PRIMARY KEY (job_id, batch_id));
    CREATE TABLE IF NOT EXISTS staged (
      job_id TEXT NOT NULL, batch_id INTEGER NOT NULL, path TEXT NOT NULL, blob_sha TEXT NOT NULL,
      file_id TEXT NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (job_id, path));
    CREATE INDEX IF NOT EXISTS staged_by_batch ON staged (job_id, batch_id);
    CREATE TABLE IF NOT EXISTS members (job_id TEXT NOT NULL, path TEXT NOT NULL, file_id TEXT NOT NULL, PRIMARY KEY (job_id, path));
    CREATE TABLE IF NOT EXISTS skipped (job_id TEXT NOT NULL, path TEXT NOT NULL, reason TEXT NOT NULL, rule TEXT NOT NULL, PRIMARY KEY (job_id, path));
  `);
  // Ledgers created before the consumer lease lack `started_at`.
  const columns = sql.exec<{ name: string }>("PRAGMA table_info(batches)").toArray();
  if (!columns.some((c) => c.name === "started_at")) sql.exec("ALTER TABLE batches ADD COLUMN started_at INTEGER NOT NULL DEFAULT 0");
}

/** Reads a JSON value from `kv`, or null. */
export function getValue<T>(sql: SqlStorage, key: string): T | null {
  const row = sql.exec<{ value: string }>("SELECT value FROM kv WHERE key = ?", key).toArray()[0];
  return row ? (JSON.parse(row.value) as T) : null;
}

/** Writes a JSON value to `kv`. */
export function putValue(sql: SqlStorage, key: string, value: unknown): void {
  sql.exec("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", key, JSON.stringify(value));
}

/** Stages one file into a batch of a job. */
export function stageFile(sql: SqlStorage, jobId: string, batchId: number, f: StagedFile): void {
  sql.exec(
    "INSERT OR REPLACE INTO staged (job_id, batch_id, path, blob_sha, file_id, bytes) VALUES (?, ?, ?, ?, ?, ?)",
    jobId,
    batchId,
    f.path,
    f.blobSha,
    f.fileId,
    f.bytes,
  );
}

/** Adds a ledger row in state `pending`. */
export function addBatch(sql: SqlStorage, jobId: string, batchId: number, fileCount: number, byteSize: number): void {
  sql.exec(
    "INSERT OR REPLACE INTO batches (job_id, batch_id, state, attempts, enqueued_at, file_count, byte_size) VALUES (?, ?, 'pending', 0, 0, ?, ?)",
    jobId,
    batchId,
    fileCount,
    byteSize,
  );
}

/** Ledger rows of a job, optionally only those in `states`. */
export function listBatches(sql: SqlStorage, jobId: string, states?: BatchState[]): BatchRow[] {
  const rows = sql
    .exec<{ batch_id: number; state: BatchState; attempts: number; enqueued_at: number; started_at: number; file_count: number; byte_size: number }>(
      "SELECT batch_id, state, attempts, enqueued_at, started_at, file_count, byte_size FROM batches WHERE job_id = ? ORDER BY batch_id",
      jobId,
    )
    .toArray();
  return rows
    .filter((r) => !states || states.includes(r.state))
    .map((r) => ({
      batchId: r.batch_id,
      state: r.state,
      attempts: r.attempts,
      enqueuedAt: r.enqueued_at,
      startedAt: r.started_at,
      fileCount: r.file_count,
      byteSize: r.byte_size,
    }));
}

/** One ledger row, or null. */
export function getBatch(sql: SqlStorage, jobId: string, batchId: number): BatchRow | null {
  return listBatches(sql, jobId).find((b) => b.batchId === batchId) ?? null;
}

/** Marks batches as sent now (attempts + 1; the consumer lease starts over). */
export function markEnqueued(sql: SqlStorage, jobId: string, batchIds: number[], now: number): void {
  for (const id of batchIds) {
    sql.exec(
      "UPDATE batches SET state = 'enqueued', attempts = attempts + 1, enqueued_at = ?, started_at = 0 WHERE job_id = ? AND batch_id = ?",
      now,
      jobId,
      id,
    );
  }
}

/** Records that a consumer took an enqueued batch, or renewed its lease, at `now` (every delivery and heartbeat). */
export function markStarted(sql: SqlStorage, jobId: string, batchId: number, now: number): void {
  sql.exec("UPDATE batches SET started_at = ? WHERE job_id = ? AND batch_id = ? AND state = 'enqueued'", now, jobId, batchId);
}

/** Sets a batch's final state and frees its staged bytes. */
export function settleBatch(sql: SqlStorage, jobId: string, batchId: number, state: "done" | "failed"): void {
  sql.exec("UPDATE batches SET state = ? WHERE job_id = ? AND batch_id = ?", state, jobId, batchId);
  sql.exec("DELETE FROM staged WHERE job_id = ? AND batch_id = ?", jobId, batchId);
}

/** The staged files of a batch (empty once the batch is settled). */
export function stagedFiles(sql: SqlStorage, jobId: string, batchId: number): StagedFile[] {
  return sql
    .exec<{ path: string; blob_sha: string; file_id: string; bytes: ArrayBuffer }>(
      "SELECT path, blob_sha, file_id, bytes FROM staged WHERE job_id = ? AND batch_id = ? ORDER BY path",
      jobId,
      batchId,
    )
    .toArray()
    .map((r) => ({ path: r.path, blobSha: r.blob_sha, fileId: r.file_id, bytes: new Uint8Array(r.bytes) }));
}

/** Records that `path` is `fileId` in the job's new snapshot. */
export function addMember(sql: SqlStorage, jobId: string, path: string, fileId: string): void {
  sql.exec("INSERT OR REPLACE INTO members (job_id, path, file_id) VALUES (?, ?, ?)", jobId, path, fileId);
}

/** The job's snapshot membership, sorted by path. */
export function listMembers(sql: SqlStorage, jobId: string): { path: string; fileId: string }[] {
  return sql
    .exec<{ path: string; file_id: string }>("SELECT path, file_id FROM members WHERE job_id = ? ORDER BY path", jobId)
    .toArray()
    .map((r) => ({ path: r.path, fileId: r.file_id }));
}

/** A skipped file of the job's snapshot. */
export interface SkippedFile {
  path: string;
  reason: string;
  rule: string;
}

/** Records that `path` is skipped in the job's new snapshot. */
export function addSkipped(sql: SqlStorage, jobId: string, f: SkippedFile): void {
  sql.exec("INSERT OR REPLACE INTO skipped (job_id, path, reason, rule) VALUES (?, ?, ?, ?)", jobId, f.path, f.reason, f.rule);
}

/** The job's skipped files, sorted by path. */
export function listSkipped(sql: SqlStorage, jobId: string): SkippedFile[] {
  return sql.exec<{ path: string; reason: string; rule: string }>("SELECT path, reason, rule FROM skipped WHERE job_id = ? ORDER BY path", jobId).toArray();
}

const JOB_TABLES = ["batches", "staged", "members", "skipped"];

/** Drops everything of jobs other than `keepJobId` (ledger, staging, members, skips). */
export function clearJobsExcept(sql: SqlStorage, keepJobId: string | null): void {
  for (const table of JOB_TABLES) sql.exec(`DELETE FROM ${table} WHERE job_id IS NOT ?`, keepJobId);
}

/** Drops a finished job's ledger, staging, members and skips. */
export function clearJob(sql: SqlStorage, jobId: string): void {
  for (const table of JOB_TABLES) sql.exec(`DELETE FROM ${table} WHERE job_id = ?`, jobId);
}
