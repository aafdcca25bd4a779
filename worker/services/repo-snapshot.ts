/**
 * @module worker/services/repo-snapshot
 *
 * Which snapshot a single-repo read uses: the repo's row if the caller may see it
 * (`visibleRepo`), resolved at an optional ref (`activeRepo`, through worker/services/refs.ts),
 * and the shard database holding it (`indexDb`). Re-exported by worker/services/files.ts.
 */
import { shardDb } from "../../indexer/store/shards";
import { CodeSearchError } from "../../kernel/errors";
import { canSee, type RepoVisibility, type ServiceContext } from "./context";
import { refColumns, resolveRef, type RefRepoRow, type RefSnapshot } from "./refs";

/** Most repo ids named in a "repo not found" message. */
const AVAILABLE_REPOS_SHOWN = 20;

/** The snapshot a read uses (worker/services/refs.ts): repo, ref (full name; null for an archive), commit and serving shard. */
export type ActiveRepo = RefSnapshot;

/** The D1 database holding `snap`'s index rows. */
export function indexDb(ctx: ServiceContext, snap: { shard: number }): D1Database {
  return shardDb(ctx.env, snap.shard);
}

/**
 * Resolves `repo` at `ref` (default: its default ref) to a snapshot (worker/services/refs.ts).
 * Throws `repo_not_found` (naming the repos the caller may see) for unknown or invisible repos,
 * `index_not_ready` before the first snapshot, `ref_not_found` for a ref the repo does not
 * track (naming those it does), `invalid_input` for a ref on an archive.
 */
export async function activeRepo(ctx: ServiceContext, repo: string, ref?: string): Promise<ActiveRepo> {
  return resolveRef(ctx, await visibleRepo(ctx, repo), ref);
}

/** A visible repo's row: status, default snapshot, placement and what `resolveRef` reads. */
export type VisibleRepoRow = RefRepoRow & { status: string; moving_to: number | null };

/**
 * The repos row of a repo the caller may see, snapshot or not. Throws `repo_not_found` naming
 * the repos the caller may see (an invisible repo answers exactly like a missing one).
 */
export async function visibleRepo(ctx: ServiceContext, repo: string): Promise<VisibleRepoRow> {
  const row = await ctx.env.DB.prepare(
    `SELECT id, status, active_commit, active_indexed_at, withdrawn_at, visibility, shard, moving_to, ${refColumns()} FROM repos WHERE id = ?`,
  )
    .bind(repo)
    .first<RepoVisibility & VisibleRepoRow>();
  if (!row || !canSee(ctx.caller, row)) {
    const names = await visibleRepoIds(ctx);
    const shown = names.slice(0, AVAILABLE_REPOS_SHOWN).join(", ") + (names.length > AVAILABLE_REPOS_SHOWN ? ", ..." : "");
    throw new CodeSearchError(
      "repo_not_found",
      names.length ? `Unknown repo "${repo}". Available: ${shown}.` : `Unknown repo "${repo}". No repos are indexed yet; register one with POST /api/repos.`,
    );
  }
  return row;
}

/** Ids of the repos the caller may see, sorted. */
export async function visibleRepoIds(ctx: ServiceContext): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare("SELECT id, withdrawn_at, visibility FROM repos ORDER BY id").all<RepoVisibility>();
  return results.filter((r) => canSee(ctx.caller, r)).map((r) => r.id);
}
