/**
 * @module indexer/store/d1/repo-refs
 *
 * The `repo_refs` rows (migrations/0029, docs/refs.md): one per tracked ref of a git repo, the
 * default included (`is_default = 1`, its `commit_sha` equal to `repos.active_commit`). The
 * catalog's rows are the truth; the shard holding the repo's index keeps a mirror of each row
 * with a snapshot (written with the snapshot, deleted with the ref), so garbage collection in
 * the shard knows every snapshot to keep without asking the catalog. Written by the
 * RepoCoordinator only.
 *
 * `status`: `queued` (tracked, a job waits), `indexing` (its job runs), `ready` (its snapshot is
 * `commit_sha`), `failed` (the last job failed: `last_error`; an earlier `commit_sha` keeps serving).
 */

/** A `repo_refs` row as status and the coordinator read it. Times in ms since epoch. */
export interface RepoRefRow {
  name: string;
  isDefault: boolean;
  pattern: string | null;
  commit: string | null;
  indexedAt: number | null;
  status: RefStatus;
  lastError: string | null;
  updatedAt: number;
}

/** Values of `repo_refs.status`. */
export type RefStatus = "queued" | "indexing" | "ready" | "failed";

type Row = {
  name: string;
  is_default: number;
  pattern: string | null;
  commit_sha: string | null;
  indexed_at: number | null;
  status: RefStatus;
  last_error: string | null;
  updated_at: number;
};

const COLUMNS = "name, is_default, pattern, commit_sha, indexed_at, status, last_error, updated_at";

function fromRow(r: Row): RepoRefRow {
  return {
    name: r.name,
    isDefault: r.is_default === 1,
    pattern: r.pattern,
    commit: r.commit_sha,
    indexedAt: r.indexed_at,
    status: r.status,
    lastError: r.last_error,
    updatedAt: r.updated_at,
  };
}

/** Every tracked ref of `repo`, the default first, then by name. */
export async function listRepoRefs(db: D1Database, repo: string): Promise<RepoRefRow[]> {
  const { results } = await db.prepare(`SELECT ${COLUMNS} FROM repo_refs WHERE repo = ? ORDER BY is_default DESC, name`).bind(repo).all<Row>();
  return results.map(fromRow);
}

/** Tracked refs of several repos (one statement per 90 ids), by repo. */
export async function listRefsOfRepos(db: D1Database, repos: readonly string[]): Promise<Map<string, RepoRefRow[]>> {
  const out = new Map<string, RepoRefRow[]>();
  for (let i = 0; i < repos.length; i += 90) {
    const part = repos.slice(i, i + 90);
    const { results } = await db
      .prepare(`SELECT repo, ${COLUMNS} FROM repo_refs WHERE repo IN (${part.map(() => "?").join(", ")}) ORDER BY repo, is_default DESC, name`)
      .bind(...part)
      .all<Row & { repo: string }>();
    for (const r of results) out.set(r.repo, [...(out.get(r.repo) ?? []), fromRow(r)]);
  }
  return out;
}

/** Adds an extra (non-default) tracked ref in status `queued`; an existing row only gets its pattern. */
export function trackRefStatement(db: D1Database, repo: string, name: string, pattern: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO repo_refs (repo, name, is_default, pattern, status, updated_at) VALUES (?, ?, 0, ?, 'queued', ?) " +
        "ON CONFLICT (repo, name) DO UPDATE SET pattern = excluded.pattern WHERE is_default = 0",
    )
    .bind(repo, name, pattern, now);
}

/** Deletes tracked refs by name (never the default row). */
export function untrackRefStatements(db: D1Database, repo: string, names: readonly string[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  for (let i = 0; i < names.length; i += 90) {
    const part = names.slice(i, i + 90);
    out.push(db.prepare(`DELETE FROM repo_refs WHERE repo = ? AND is_default = 0 AND name IN (${part.map(() => "?").join(", ")})`).bind(repo, ...part));
  }
  return out;
}

/**
 * Sets a ref's job status: the extra ref `name`, or with `name` null the default row (whatever
 * its name). `error` is kept for `failed` and cleared otherwise.
 */
export async function setRefStatus(
  db: D1Database,
  repo: string,
  name: string | null,
  status: RefStatus,
  now: number,
  error: string | null = null,
): Promise<void> {
  const where = name === null ? "is_default = 1" : "name = ? AND is_default = 0";
  await db
    .prepare(`UPDATE repo_refs SET status = ?, last_error = ?, updated_at = ? WHERE repo = ? AND ${where}`)
    .bind(status, status === "failed" ? (error ?? "").slice(0, 1000) : null, now, repo, ...(name === null ? [] : [name]))
    .run();
}

/**
 * Makes `name` the default ref at its new snapshot `commit` (`now`: `indexed_at`), in the batch
 * that flips `repos.active_commit`: any other default row goes (a ref re-targeted by a refresh),
 * an extra row of that name becomes the default.
 */
export function defaultRefStatements(db: D1Database, repo: string, name: string, commit: string, now: number): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM repo_refs WHERE repo = ? AND is_default = 1 AND name != ?").bind(repo, name),
    db
      .prepare(
        "INSERT INTO repo_refs (repo, name, is_default, pattern, commit_sha, indexed_at, status, last_error, updated_at) VALUES (?, ?, 1, NULL, ?, ?, 'ready', NULL, ?) " +
          "ON CONFLICT (repo, name) DO UPDATE SET is_default = 1, pattern = NULL, commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at, " +
          "status = 'ready', last_error = NULL, updated_at = excluded.updated_at",
      )
      .bind(repo, name, commit, now, now),
  ];
}

/** Records an extra ref's new snapshot in the catalog; no row changes when the ref was untracked meanwhile. */
export function extraRefReadyStatement(db: D1Database, repo: string, name: string, commit: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE repo_refs SET commit_sha = ?, indexed_at = ?, status = 'ready', last_error = NULL, updated_at = ? WHERE repo = ? AND name = ? AND is_default = 0",
    )
    .bind(commit, now, now, repo, name);
}

/** Writes the shard's mirror of an extra ref at its new snapshot (the pattern as the catalog has it). */
export function mirrorRefStatement(db: D1Database, repo: string, name: string, pattern: string | null, commit: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO repo_refs (repo, name, is_default, pattern, commit_sha, indexed_at, status, updated_at) VALUES (?, ?, 0, ?, ?, ?, 'ready', ?) " +
        "ON CONFLICT (repo, name) DO UPDATE SET pattern = excluded.pattern, commit_sha = excluded.commit_sha, indexed_at = excluded.indexed_at, status = 'ready', updated_at = excluded.updated_at",
    )
    .bind(repo, name, pattern, commit, now, now);
}

/**
 * The commits whose snapshots `repo` must keep in `db` (a shard, or the catalog serving as the
 * only shard): the active one and every tracked ref's, as that database's rows say.
 */
export async function keptCommits(db: D1Database, repo: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT active_commit AS c FROM repos WHERE id = ?1 AND active_commit IS NOT NULL UNION SELECT commit_sha FROM repo_refs WHERE repo = ?1 AND commit_sha IS NOT NULL",
    )
    .bind(repo)
    .all<{ c: string }>();
  return results.map((r) => r.c);
}
