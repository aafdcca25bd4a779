/**
 * @module indexer/store/d1/history
 *
 * The one module that reads and writes commit history (migration 0028: `commits`,
 * `commit_changes`, `commits_fts`, `repo_history`). Everything else goes through these
 * functions, so that moving the tables into a per-repo shard database means changing the
 * `D1Database` handed in, here only. Rows are keyed by (repo, commit SHA): immutable, so a
 * re-run writes nothing new and readers never see a half-written commit (one batch per commit
 * chunk, commits written after their changes).
 */
import { tokenize } from "../tokenize";

/** A line hunk: [oldStart, oldEnd, newStart, newEnd], 0-based, end exclusive. */
export type Hunk = [number, number, number, number];

/** One commit as stored. Times are unix seconds. */
export interface CommitRecord {
  sha: string;
  parents: string[];
  /** Its parents were not fetched (depth limit): history stops here. */
  boundary: boolean;
  authorName: string;
  authorEmail: string;
  authorTime: number;
  committerTime: number;
  subject: string;
  body: string;
}

/** What a commit changed in one file against parent `parentIndex` (see migration 0028). */
export interface ChangeRecord {
  sha: string;
  parentIndex: number;
  path: string;
  status: "A" | "M" | "R" | "=";
  oldPath: string | null;
  hunks: Hunk[] | null;
}

/** The commit graph: SHA -> parents, boundary flag and committer time (unix s). */
export type CommitGraph = Map<string, { parents: string[]; boundary: boolean; committerTime: number }>;

/** Whether and how a repo keeps history. */
export interface HistoryMeta {
  head: string;
  /** Full ref name the head was fetched as (`refs/heads/main`). */
  ref: string;
  /** The depth fetched, as HISTORY_DEPTH writes it (less than configured when a budget halved it). */
  depth: string;
  commits: number;
  updatedAt: number;
  /** Why history is shorter than the depth ("history truncated at <sha>, because ..."), or null (migration 0031). */
  limit: string | null;
  /** A step stopped at its budget: the next refresh continues from where it stopped. */
  pending: boolean;
}

/** D1 allows 100 bound parameters per statement; these statements use at most 10. */
const ROWS_PER_BATCH = 200;

function encodeHunks(h: Hunk[] | null): string | null {
  return h === null ? null : h.map((x) => x.join(",")).join(";");
}

function decodeHunks(s: string | null): Hunk[] | null {
  if (s === null) return null;
  if (s === "") return [];
  return s.split(";").map((x) => x.split(",").map(Number) as Hunk);
}

/**
 * The stored commits (a refresh records only new ones), and the frontier: parents of stored non-boundary commits that are not
 * stored themselves (where a step stopped at its budget; the next step starts there too).
 */
export async function storedHistory(db: D1Database, repo: string): Promise<{ known: Set<string>; frontier: string[] }> {
  const graph = await commitGraph(db, repo);
  const frontier = new Set<string>();
  for (const node of graph.values()) if (!node.boundary) for (const p of node.parents) if (!graph.has(p)) frontier.add(p);
  return { known: new Set(graph.keys()), frontier: [...frontier] };
}

/** Whether the repo's stored history holds `sha` (a fetch of any tracked ref recorded it). */
export async function hasCommit(db: D1Database, repo: string, sha: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS x FROM commits WHERE repo = ? AND sha = ?").bind(repo, sha).first()) !== null;
}

/**
 * Writes commits and their changes (upserts; changes first, so a commit row, and with it the
 * commit's searchability, appears only once its changes are stored), then the repo's meta row.
 * The commit graph is one per repo, whatever ref a fetch was of; the meta row's `head` and `ref`
 * (with `depth`, `limit` and `pending`) are the default ref's: a step for another tracked ref
 * (`defaultRef: false`) keeps them (it writes them only when the row does not exist yet) and
 * updates the commit count and time.
 */
export async function writeHistory(
  db: D1Database,
  repo: string,
  commits: CommitRecord[],
  changes: ChangeRecord[],
  meta: Omit<HistoryMeta, "commits"> & { defaultRef?: boolean },
): Promise<void> {
  const changeStmts = changes.map((c) =>
    db
      .prepare("INSERT INTO commit_changes (repo, path, sha, parent_index, status, old_path, hunks) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
      .bind(repo, c.path, c.sha, c.parentIndex, c.status, c.oldPath, encodeHunks(c.hunks)),
  );
  for (let i = 0; i < changeStmts.length; i += ROWS_PER_BATCH) await db.batch(changeStmts.slice(i, i + ROWS_PER_BATCH));
  const commitStmts = commits.flatMap((c) => [
    db
      .prepare(
        "INSERT INTO commits (repo, sha, parents, boundary, author_name, author_email, author_time, committer_time, subject, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (repo, sha) DO NOTHING",
      )
      .bind(repo, c.sha, c.parents.join(" "), c.boundary ? 1 : 0, c.authorName, c.authorEmail, c.authorTime, c.committerTime, c.subject, c.body),
    // Only for a row just inserted (changes() = 1), so a re-run adds no second FTS row.
    db
      .prepare("INSERT INTO commits_fts (rowid, subject, body, author) SELECT rowid, ?, ?, ? FROM commits WHERE repo = ? AND sha = ? AND changes() = 1")
      .bind(tokenize(c.subject).join(" "), tokenize(c.body).join(" "), tokenize(`${c.authorName} ${c.authorEmail}`).join(" "), repo, c.sha),
  ]);
  for (let i = 0; i < commitStmts.length; i += ROWS_PER_BATCH) await db.batch(commitStmts.slice(i, i + ROWS_PER_BATCH));
  await db
    .prepare(
      "INSERT INTO repo_history (repo, head, ref, depth, commits, updated_at, limit_note, pending) VALUES (?1, ?2, ?5, ?3, (SELECT COUNT(*) FROM commits WHERE repo = ?1), ?4, ?6, ?7) " +
        "ON CONFLICT (repo) DO UPDATE SET head = CASE WHEN ?8 THEN excluded.head ELSE head END, ref = CASE WHEN ?8 THEN excluded.ref ELSE ref END, " +
        "depth = CASE WHEN ?8 THEN excluded.depth ELSE depth END, commits = excluded.commits, updated_at = excluded.updated_at, " +
        "limit_note = CASE WHEN ?8 THEN excluded.limit_note ELSE limit_note END, pending = CASE WHEN ?8 THEN excluded.pending ELSE pending END",
    )
    .bind(repo, meta.head, meta.depth, meta.updatedAt, meta.ref, meta.limit, meta.pending ? 1 : 0, meta.defaultRef === false ? 0 : 1)
    .run();
}

/** The repo's history meta row, or null when it keeps no history (archive, or a depth-0 fetch). */
export async function historyMeta(db: D1Database, repo: string): Promise<HistoryMeta | null> {
  const row = await db
    .prepare('SELECT head, ref, depth, commits, updated_at AS updatedAt, limit_note AS "limit", pending FROM repo_history WHERE repo = ?')
    .bind(repo)
    .first<Omit<HistoryMeta, "pending"> & { pending: number }>();
  return row ? { ...row, pending: row.pending === 1 } : null;
}

/** The repo's whole commit graph (one row per commit: ~100 bytes, 2,000 commits ~ 200 KB). */
export async function commitGraph(db: D1Database, repo: string): Promise<CommitGraph> {
  const { results } = await db
    .prepare("SELECT sha, parents, boundary, committer_time FROM commits WHERE repo = ?")
    .bind(repo)
    .all<{ sha: string; parents: string; boundary: number; committer_time: number }>();
  return new Map(results.map((r) => [r.sha, { parents: r.parents ? r.parents.split(" ") : [], boundary: r.boundary === 1, committerTime: r.committer_time }]));
}

/** Every change row of `path`, by commit SHA. */
export async function changesOfPath(db: D1Database, repo: string, path: string): Promise<Map<string, ChangeRecord[]>> {
  const { results } = await db
    .prepare("SELECT sha, parent_index, status, old_path, hunks FROM commit_changes WHERE repo = ? AND path = ?")
    .bind(repo, path)
    .all<{ sha: string; parent_index: number; status: ChangeRecord["status"]; old_path: string | null; hunks: string | null }>();
  const out = new Map<string, ChangeRecord[]>();
  for (const r of results) {
    const rec: ChangeRecord = { sha: r.sha, parentIndex: r.parent_index, path, status: r.status, oldPath: r.old_path, hunks: decodeHunks(r.hunks) };
    out.set(
      r.sha,
      [...(out.get(r.sha) ?? []), rec].sort((a, b) => a.parentIndex - b.parentIndex),
    );
  }
  return out;
}

/** Commit rows by SHA (for the entries a walk returns). */
export async function commitsBySha(db: D1Database, repo: string, shas: string[]): Promise<Map<string, CommitRecord>> {
  const out = new Map<string, CommitRecord>();
  for (let i = 0; i < shas.length; i += 90) {
    const part = shas.slice(i, i + 90);
    const { results } = await db
      .prepare(`SELECT * FROM commits WHERE repo = ? AND sha IN (${part.map(() => "?").join(", ")})`)
      .bind(repo, ...part)
      .all<CommitRow>();
    for (const r of results) out.set(r.sha, fromRow(r));
  }
  return out;
}

interface CommitRow {
  sha: string;
  parents: string;
  boundary: number;
  author_name: string;
  author_email: string;
  author_time: number;
  committer_time: number;
  subject: string;
  body: string;
}

function fromRow(r: CommitRow): CommitRecord {
  return {
    sha: r.sha,
    parents: r.parents ? r.parents.split(" ") : [],
    boundary: r.boundary === 1,
    authorName: r.author_name,
    authorEmail: r.author_email,
    authorTime: r.author_time,
    committerTime: r.committer_time,
    subject: r.subject,
    body: r.body,
  };
}

/** Filters of `searchCommitRows`: author substring (name or e-mail, any case), author time bounds (unix s). */
export interface CommitFilters {
  author?: string;
  since?: number;
  until?: number;
}

/**
 * BM25 over the repos' commit messages (`match`: an FTS5 expression of pre-tokenized terms;
 * subject weighted 3, body 1, author 1), best first, at most `limit` rows.
 */
export async function searchCommitRows(
  db: D1Database,
  repos: string[],
  match: string,
  f: CommitFilters,
  limit: number,
): Promise<(CommitRecord & { repo: string; score: number })[]> {
  const where: string[] = [`c.repo IN (${repos.map(() => "?").join(", ")})`];
  const bind: unknown[] = [match, ...repos];
  if (f.author) {
    where.push("(instr(lower(c.author_name), ?) > 0 OR instr(lower(c.author_email), ?) > 0)");
    bind.push(f.author.toLowerCase(), f.author.toLowerCase());
  }
  if (f.since !== undefined) {
    where.push("c.author_time >= ?");
    bind.push(f.since);
  }
  if (f.until !== undefined) {
    where.push("c.author_time <= ?");
    bind.push(f.until);
  }
  const { results } = await db
    .prepare(
      `SELECT c.*, -bm25(commits_fts, 3, 1, 1) AS score FROM commits_fts JOIN commits c ON c.rowid = commits_fts.rowid
       WHERE commits_fts MATCH ? AND ${where.join(" AND ")} ORDER BY score DESC, c.committer_time DESC LIMIT ${limit}`,
    )
    .bind(...bind)
    .all<CommitRow & { repo: string; score: number }>();
  return results.map((r) => ({ ...fromRow(r), repo: r.repo, score: r.score }));
}

/** Statements that delete every history row of `repo` (for deleteRepoData's batch). */
export function deleteHistoryStatements(db: D1Database, repo: string): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM commits_fts WHERE rowid IN (SELECT rowid FROM commits WHERE repo = ?)").bind(repo),
    db.prepare("DELETE FROM commits WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM commit_changes WHERE repo = ?").bind(repo),
    db.prepare("DELETE FROM repo_history WHERE repo = ?").bind(repo),
  ];
}
