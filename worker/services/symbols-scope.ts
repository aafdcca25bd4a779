/**
 * @module worker/services/symbols-scope
 *
 * The snapshots a symbol read (find_symbol, find_references) covers: one named repo, or every
 * visible repo, each at `ref` or its default ref (worker/services/refs.ts), and the SQL that
 * restricts a table to those snapshots with their commits bound.
 */
import { canSee, type RepoVisibility, type ServiceContext } from "./context";
import { activeRepo } from "./repo-snapshot";
import { noRepoHasRef, refColumns, resolveRefs, type RefRepoRow, type RefSnapshot } from "./refs";

/**
 * SQL restricting `alias` (a table with repo and file_id columns) to the snapshots bound as
 * `?snapParam`, a JSON object `{repo: commit}` (`snapshotParam`): the one place that joins
 * `snapshot_files`. The commit is bound, never read from the shard's `repos` mirror, which only
 * knows the default ref's snapshot (worker/services/refs.ts).
 */
export function activeSnapshotJoin(alias: string, snapParam: string): string {
  return `JOIN json_each(${snapParam}) snap ON snap.key = ${alias}.repo
    JOIN snapshot_files sf ON sf.repo = ${alias}.repo AND sf.commit_sha = snap.value AND sf.file_id = ${alias}.file_id
    WHERE ${alias}.repo IN (SELECT key FROM json_each(${snapParam}))`;
}

/** The repos and snapshots a symbol read covers: `commits` by repo id, `repos` their ids (sorted). */
export interface SymbolScope {
  repos: string[];
  commits: Map<string, RefSnapshot>;
  /** With `ref` and no `repo`: repos that do not track it (not searched). */
  withoutRef: string[];
}

/** The `activeSnapshotJoin` parameter for `part` (ids of `scope`). */
export function snapshotParam(scope: SymbolScope, part: readonly string[]): string {
  return JSON.stringify(Object.fromEntries(part.map((r) => [r, scope.commits.get(r)!.commit])));
}

/**
 * Repos to search at `ref` (default: each one's default ref): the one named (checked, throwing
 * as `activeRepo`), or every visible repo with a snapshot of that ref; with `ref`, repos without
 * it are listed in `withoutRef` (and `ref_not_found` is thrown when no repo has it).
 */
export async function reposInScope(ctx: ServiceContext, repo: string | undefined, ref?: string): Promise<SymbolScope> {
  if (repo !== undefined) {
    const snap = await activeRepo(ctx, repo, ref);
    return { repos: [snap.id], commits: new Map([[snap.id, snap]]), withoutRef: [] };
  }
  const { results } = await ctx.env.DB.prepare(
    `SELECT id, withdrawn_at, visibility, status, active_commit, active_indexed_at, shard, moving_to, ${refColumns()} FROM repos WHERE active_commit IS NOT NULL ORDER BY id`,
  ).all<RepoVisibility & RefRepoRow>();
  const { snapshots, missing } = await resolveRefs(
    ctx,
    results.filter((r) => canSee(ctx.caller, r)),
    ref,
  );
  if (ref !== undefined && !snapshots.length && missing.length) throw noRepoHasRef(ref, missing);
  return { repos: snapshots.map((s) => s.id), commits: new Map(snapshots.map((s) => [s.id, s])), withoutRef: missing.map((m) => m.repo) };
}
