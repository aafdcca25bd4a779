/**
 * @module worker/services/shard-reads
 *
 * Reads over several repos that may sit in different shards (indexer/store/shards.ts): the same
 * statement runs once per shard, over that shard's repos, in parallel, and the rows are merged
 * in the statement's own order. With one shard involved the rows are exactly the statement's.
 */
import { groupByShard, repoShards, shardDb } from "../../indexer/store/shards";
import type { ServiceContext } from "./context";

/** How per-shard rows merge: `compare` is the statement's ORDER BY, `limit` its LIMIT. */
export interface MergeOrder<T> {
  compare: (a: T, b: T) => number;
  limit: number;
}

/** Orders strings as SQLite's BINARY collation does for text without characters above U+FFFF (UTF-16 code units). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The databases of `repos`, each with the repos it serves (unknown repos: shard 0). */
export async function reposByShard(ctx: ServiceContext, repos: readonly string[]): Promise<{ db: D1Database; repos: string[] }[]> {
  const shards = await repoShards(ctx.env, repos);
  return [...groupByShard(repos, (r) => shards.get(r) ?? 0)].map(([n, list]) => ({ db: shardDb(ctx.env, n), repos: list }));
}

/**
 * Runs `read` once per shard holding some of `repos` (with that shard's database and repos) and
 * merges the rows by `order` (stable: rows equal by it keep their shard's order). Without
 * `order` the rows are concatenated in shard order.
 */
export async function readPerShard<T>(
  ctx: ServiceContext,
  repos: readonly string[],
  read: (db: D1Database, repos: string[]) => Promise<T[]>,
  order?: MergeOrder<T>,
): Promise<T[]> {
  const groups = await reposByShard(ctx, repos);
  if (groups.length === 0) return read(shardDb(ctx.env, 0), []);
  const parts = await Promise.all(groups.map((g) => read(g.db, g.repos)));
  if (parts.length === 1) return parts[0];
  const rows = parts.flat();
  return order ? rows.sort(order.compare).slice(0, order.limit) : rows;
}
