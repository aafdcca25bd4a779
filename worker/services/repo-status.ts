/**
 * @module worker/services/repo-status
 *
 * A repo's status as the API shows it (`GET /api/repos[/{id}]`, MCP `get_index_status`): the
 * catalog row, the coordinator's current job, the active snapshot's totals and every tracked
 * ref (`repo_refs`, docs/refs.md). Split from repos.ts, which registers, refreshes and deletes.
 */
import type { JobState, JobView } from "../../kernel/coordinator";
import { listRefsOfRepos, type RepoRefRow } from "../../indexer/store/d1/repo-refs";
import { batchAcross, placementOf, shardDb } from "../../indexer/store/shards";
import type { RepoStatus } from "./repo-status-schema";
import type { ServiceContext } from "./context";

/** What the status of an archive repo says about refs (docs/refs.md). */
export const ARCHIVE_REFS_NOTE = "archive: no refs (an uploaded archive is one snapshot; register a git URL to track branches and tags)";

/** The stored ref patterns (`repos.ref_patterns`, a JSON list); [] when unset or malformed. */
export function parsePatterns(json: string | null | undefined): string[] {
  try {
    const v: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** A `repos` row as the services read it (`SELECT *`). */
export interface RepoRow {
  id: string;
  name: string;
  source_kind: "git" | "archive";
  url: string | null;
  ref: string | null;
  status: JobState["status"];
  active_commit: string | null;
  active_indexed_at: number | null;
  embedding_model: string | null;
  embedding_dims: number | null;
  last_error?: string | null;
  failing_since?: number | null;
  /** Set while the repo's connection cannot see it upstream (migration 0022): it serves no one. */
  withdrawn_at: number | null;
  /** Who may read it (migration 0027): everyone, public, private, internal or listed; see `canSee`. */
  visibility: string;
  /** Placement (migration 0024; indexer/store/shards.ts). */
  shard: number | null;
  moving_to: number | null;
  /** JSON list of the extra tracked refs' patterns (migration 0029; docs/refs.md). */
  ref_patterns?: string | null;
  created_at: number;
  updated_at: number;
}

/** Files and chunks of the active snapshot of each repo in `repos` that has one. */
export async function indexTotals(ctx: ServiceContext, repos: readonly RepoRow[]): Promise<Map<string, { files: number; chunks: number }>> {
  const out = new Map<string, { files: number; chunks: number }>();
  const active = repos.filter((r) => r.active_commit);
  if (active.length === 0) return out;
  const statements = active.map((r) => {
    const db = shardDb(ctx.env, placementOf(r).shard);
    const statement = db
      .prepare(
        `SELECT (SELECT count(*) FROM snapshot_files WHERE repo = ?1 AND commit_sha = ?2) AS files,
              (SELECT count(*) FROM snapshot_files s JOIN chunks c ON c.repo = s.repo AND c.file_id = s.file_id WHERE s.repo = ?1 AND s.commit_sha = ?2) AS chunks`,
      )
      .bind(r.id, r.active_commit);
    return { db, statement };
  });
  const results = await batchAcross<{ files: number; chunks: number }>(statements);
  active.forEach((r, i) => {
    const row = results[i].results[0];
    out.set(r.id, { files: row?.files ?? 0, chunks: row?.chunks ?? 0 });
  });
  return out;
}

/** `statusOf` with the index totals of the row's active snapshot and its tracked refs. */
export async function fullStatus(ctx: ServiceContext, row: RepoRow, job: JobView | JobState | null): Promise<RepoStatus> {
  const [totals, refs] = await Promise.all([indexTotals(ctx, [row]), listRefsOfRepos(ctx.env.DB, [row.id])]);
  return statusOf(row, job, totals.get(row.id) ?? null, refs.get(row.id) ?? []);
}

/**
 * The wire status of a repo from its row, its coordinator's job, its active snapshot's totals and
 * its `repo_refs` rows (`refs`: each tracked ref with its commit, age and state; `refsNote` says
 * why an archive has none).
 */
export function statusOf(row: RepoRow, job: JobView | JobState | null, index: { files: number; chunks: number } | null, refs: RepoRefRow[] = []): RepoStatus {
  const now = Date.now();
  return {
    id: row.id,
    name: row.name,
    sourceKind: row.source_kind,
    url: row.url,
    ref: row.ref,
    status: job?.status ?? row.status,
    progress: job
      ? { filesTotal: job.progress.filesTotal, filesQueued: job.progress.filesQueued, filesDone: job.progress.filesDone, chunks: job.progress.chunks }
      : { filesTotal: 0, filesQueued: 0, filesDone: 0, chunks: 0 },
    skipped: job?.skipped ?? {},
    index: row.active_commit ? index : null,
    snapshot: row.active_commit ? { commit: row.active_commit, indexedAt: row.active_indexed_at ?? row.updated_at } : null,
    embedding: row.embedding_model ? { model: row.embedding_model, dimensions: row.embedding_dims ?? 0 } : null,
    lastError: job?.lastError ?? null,
    pending: job?.pending ?? null,
    stale:
      row.active_commit && row.last_error && row.failing_since != null
        ? { reason: row.last_error, since: row.failing_since, snapshotAge: Math.max(0, now - (row.active_indexed_at ?? row.updated_at)) }
        : null,
    waiting: (job && "waiting" in job ? job.waiting : null) ?? null,
    placement: { shard: row.shard ?? null, movingTo: row.moving_to ?? null },
    refPatterns: parsePatterns(row.ref_patterns),
    refs: refs.map((r) => ({
      name: r.name,
      default: r.isDefault,
      pattern: r.pattern,
      commit: r.commit,
      indexedAt: r.indexedAt,
      status: r.status,
      lastError: r.lastError,
    })),
    refsNote: row.source_kind === "archive" ? ARCHIVE_REFS_NOTE : null,
    job: job
      ? {
          id: job.jobId,
          source: job.source,
          ref: job.ref,
          commit: job.commit,
          status: job.status,
          unchanged: job.progress.unchanged,
          batches: job.batches,
          requestedAt: job.requestedAt,
          startedAt: job.startedAt,
          finishedAt: job.finishedAt,
        }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
