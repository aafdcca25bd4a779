/**
 * @module durable-objects/ref-tracking
 *
 * The coordinator's D1 side of tracking several refs (docs/refs.md): reading and storing
 * `repos.ref_patterns`, checking what a user asked to track against the remote's ref list, and
 * bringing the `repo_refs` rows in line with what the patterns match now (new rows `queued`, rows
 * of refs no longer matched or gone from the remote deleted, in the catalog and in the shard's
 * mirror). Which refs then need a job is the coordinator's decision.
 */
import type { ExpandedRef } from "../indexer/source/ref-patterns";
import { listRepoRefs, trackRefStatement, untrackRefStatements, type RepoRefRow } from "../indexer/store/d1/repo-refs";
import { repoPlacement, shardDb } from "../indexer/store/shards";
import type { Env } from "../kernel/env";

/** The normalised patterns stored for `repo` (`repos.ref_patterns`); [] when unset or unreadable. */
export async function storedPatterns(db: D1Database, repo: string): Promise<string[]> {
  const row = await db.prepare("SELECT ref_patterns FROM repos WHERE id = ?").bind(repo).first<{ ref_patterns: string | null }>();
  try {
    const parsed: unknown = JSON.parse(row?.ref_patterns ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string") : [];
  } catch {
    return [];
  }
}

/** Stores the normalised patterns of `repo`. */
export async function storePatterns(db: D1Database, repo: string, patterns: readonly string[], now: number): Promise<void> {
  await db.prepare("UPDATE repos SET ref_patterns = ?, updated_at = ? WHERE id = ?").bind(JSON.stringify(patterns), now, repo).run();
}

/** What `applyTracking` changed: the extra refs' rows now, and the names it untracked. */
export interface TrackingChange {
  rows: RepoRefRow[];
  removed: string[];
}

/**
 * Makes the extra rows of `repo` the refs in `tracked`: adds the missing ones (`queued`), keeps
 * the others (their pattern updated), deletes the rest from the catalog and from the shards that
 * hold the repo's index (their snapshots are then collected). The default row is never touched.
 */
export async function applyTracking(env: Env, repo: string, tracked: readonly ExpandedRef[], now: number): Promise<TrackingChange> {
  const before = (await listRepoRefs(env.DB, repo)).filter((r) => !r.isDefault);
  const keep = new Set(tracked.map((r) => r.name));
  const removed = before.filter((r) => !keep.has(r.name)).map((r) => r.name);
  const statements = [...tracked.map((r) => trackRefStatement(env.DB, repo, r.name, r.pattern, now)), ...untrackRefStatements(env.DB, repo, removed)];
  if (statements.length) await env.DB.batch(statements);
  if (removed.length) {
    const { shard, writeShard } = await repoPlacement(env, repo);
    for (const n of new Set([shard, writeShard])) {
      const db = shardDb(env, n);
      if (db !== env.DB) await db.batch(untrackRefStatements(db, repo, removed));
    }
  }
  return { rows: (await listRepoRefs(env.DB, repo)).filter((r) => !r.isDefault), removed };
}
