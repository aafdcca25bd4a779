/**
 * @module indexer/store/shard-placement
 *
 * How full each shard is and where a new repo goes (docs/storage.md, "Shards"): the least-full
 * shard below the high-water mark, by the bytes the database reports. A shard past the mark
 * takes no new repos; `GET /api/health` (admin) and the repositories page list it.
 */
import { listShards, SHARD_HIGH_WATER_DEFAULT, type ShardEnv } from "./shards";

/** One shard's fill, for placement and the health report. */
export interface ShardFill {
  shard: number;
  binding: string;
  /** Database size, bytes, as D1 reports it (`meta.size_after`). */
  bytes: number;
  /** Repos the catalog places here (serving or moving in). */
  repos: number;
  /** Whether `bytes` passed the high-water mark: no new repo is placed here. */
  full: boolean;
}

/** The high-water mark, bytes (SHARD_HIGH_WATER_BYTES; default 8 GB). Throws TypeError for a value that is not a positive integer. */
export function highWaterBytes(env: ShardEnv): number {
  const raw = env.SHARD_HIGH_WATER_BYTES;
  if (raw === undefined || raw === "") return SHARD_HIGH_WATER_DEFAULT;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new TypeError(`SHARD_HIGH_WATER_BYTES must be a positive integer (bytes), got "${raw}"`);
  return n;
}

/**
 * The size of a D1 database, bytes: every D1 result's `meta.size_after` (the database file's size
 * after the statement; checked in workerd's D1 simulator and documented for D1). `PRAGMA
 * page_count` is refused by D1 ("not authorized") and `dbstat` is not compiled into workerd.
 */
export async function databaseBytes(db: D1Database): Promise<number> {
  const r = await db.prepare("SELECT 1").run();
  return Number((r.meta as { size_after?: number }).size_after ?? 0);
}

/** Fill of every shard, in shard order. */
export async function shardFills(env: ShardEnv): Promise<ShardFill[]> {
  const mark = highWaterBytes(env);
  const shards = listShards(env);
  const [sizes, counts] = await Promise.all([
    Promise.all(shards.map((s) => databaseBytes(s.db))),
    env.DB.prepare("SELECT coalesce(moving_to, shard, 0) AS shard, count(*) AS n FROM repos GROUP BY 1").all<{ shard: number; n: number }>(),
  ]);
  const byShard = new Map(counts.results.map((r) => [r.shard, r.n]));
  return shards.map((s, i) => ({ shard: s.shard, binding: s.binding, bytes: sizes[i], repos: byShard.get(s.shard) ?? 0, full: sizes[i] >= mark }));
}

/** The least-full shard below the high-water mark (ties: fewer repos, then lower number); null when every shard is full. */
export function chooseShard(fills: readonly ShardFill[]): number | null {
  const open = fills.filter((f) => !f.full);
  if (!open.length) return null;
  return open.reduce((best, f) => (f.bytes < best.bytes || (f.bytes === best.bytes && f.repos < best.repos) ? f : best)).shard;
}

/**
 * Places `repo` (a catalog row that exists) when it has no shard yet, and returns its shard.
 * Every shard full: the least-full one anyway (indexing must not stop; the health report says
 * so). Two concurrent calls keep the first placement (`WHERE shard IS NULL`).
 */
export async function placeRepo(env: ShardEnv, repo: string): Promise<number> {
  const row = await env.DB.prepare("SELECT shard FROM repos WHERE id = ?").bind(repo).first<{ shard: number | null }>();
  if (row?.shard !== null && row?.shard !== undefined) return row.shard;
  const fills = await shardFills(env);
  const chosen = chooseShard(fills) ?? [...fills].sort((a, b) => a.bytes - b.bytes)[0].shard;
  await env.DB.prepare("UPDATE repos SET shard = ? WHERE id = ? AND shard IS NULL").bind(chosen, repo).run();
  const placed = await env.DB.prepare("SELECT shard FROM repos WHERE id = ?").bind(repo).first<{ shard: number | null }>();
  return placed?.shard ?? chosen;
}
