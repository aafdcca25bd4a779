/**
 * @module worker/services/repo-delete
 *
 * Deleting a repo and its whole index (`deleteRepo`, admin; `removeRepo` for connection syncs);
 * re-exported by worker/services/repos.ts.
 */
import { deleteRepoData } from "../../indexer/store/d1/snapshots";
import { repoPlacement, shardDb } from "../../indexer/store/shards";
import { createVectorStore, shardVectorStore } from "../../indexer/store/vectors";
import type { Config, Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { callerAllows, requireScope, type ServiceContext } from "./context";
import type { RepoIdInput } from "./repo-row";

/** Deletes a repo: its coordinator's storage, every D1 row and its vectors. Needs `admin`. Throws `repo_not_found`. */
export async function deleteRepo(ctx: ServiceContext, { repo }: RepoIdInput): Promise<{ deleted: string }> {
  // Destroys an index others may rely on: more than the `index` scope that adds and refreshes.
  requireScope(ctx.caller, "admin");
  // Management, not reading: a withdrawn repo (hidden from every reader) can still be deleted at once.
  const exists = callerAllows(ctx.caller, repo) && (await ctx.env.DB.prepare("SELECT 1 AS x FROM repos WHERE id = ?").bind(repo).first());
  if (!exists) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  await removeRepo(ctx.env, ctx.config, repo);
  // A repo a connection brought stays out of later syncs (worker/connections/sync.ts) instead of coming back.
  await ctx.env.DB.prepare("UPDATE connection_repos SET registered_at = NULL, skip_reason = 'deleted_by_admin' WHERE repo = ?").bind(repo).run();
  return { deleted: repo };
}

/**
 * Deletes a repo's coordinator storage, its rows in the shards holding it (a move's target too)
 * and their vectors, then its catalog rows. No access checks (deleteRepo checks; connection
 * syncs remove their own repos).
 */
export async function removeRepo(env: Env, config: Config, repo: string): Promise<void> {
  await env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo)).destroy();
  const { shard, writeShard } = await repoPlacement(env, repo);
  for (const n of new Set([shard, writeShard])) {
    const db = shardDb(env, n);
    if (db !== env.DB) await deleteRepoData(db, shardVectorStore(env, config, n), repo);
  }
  // Rows the catalog held before shards existed; their vectors are in shard 0's index (it kept the one index).
  await deleteRepoData(env.DB, config.vectorStore === "local" ? createVectorStore(env, config) : shardVectorStore(env, config, 0), repo);
  // Its readers go too: a later repo of the same id starts with none (migration 0027).
  await env.DB.prepare("DELETE FROM repo_readers WHERE repo = ?").bind(repo).run();
}
