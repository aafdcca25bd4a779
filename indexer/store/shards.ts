/**
 * @module indexer/store/shards
 *
 * The one place that maps a repo to the D1 database holding its index rows (docs/storage.md,
 * "Shards"). The catalog (binding `DB`) keeps repos, tokens, sessions, connections, audit and
 * the placement (`repos.shard`, `repos.moving_to`, migration 0024); each repo's snapshot rows
 * live in one shard, a D1 binding named in `SHARD_BINDINGS` (comma-separated, in shard order:
 * `SHARD_0,SHARD_1`). Without `SHARD_BINDINGS` the catalog itself is the only shard (shard 0).
 *
 * Reads go to the serving shard (`shard`); a job writes into `moving_to` when a move is under
 * way (POST /api/repos/{id}/move), else into `shard`. A repo not placed yet (`shard` NULL)
 * reads and writes shard 0 until `placeRepo` places it.
 */

/** The bindings a shard resolver reads: the catalog, the shard list and the shard bindings themselves. */
export interface ShardEnv {
  DB: D1Database;
  /** Comma-separated D1 binding names, shard 0 first (wrangler.toml `[vars]`). */
  SHARD_BINDINGS?: string;
  /** Bytes past which a shard takes no new repos (default SHARD_HIGH_WATER_DEFAULT). */
  SHARD_HIGH_WATER_BYTES?: string;
}

/**
 * Default high-water mark, bytes: 8 GB, under D1's 10 GB per database
 * (https://developers.cloudflare.com/d1/platform/limits/), room for a placed repo to grow.
 */
export const SHARD_HIGH_WATER_DEFAULT = 8_000_000_000;

/** One shard: its number, binding name and database. */
export interface Shard {
  shard: number;
  binding: string;
  db: D1Database;
}

/** Where a repo's index lives: `shard` serves reads, `writeShard` takes a job's writes (differs during a move). */
export interface Placement {
  shard: number;
  writeShard: number;
  /** Whether the repo row carries a placement (false: not placed yet, or no such repo). */
  placed: boolean;
}

function binding(env: ShardEnv, name: string): D1Database {
  const db = (env as unknown as Record<string, unknown>)[name] as D1Database | undefined;
  if (!db || typeof db.prepare !== "function") {
    throw new TypeError(`SHARD_BINDINGS names "${name}", which is not a D1 binding: add [[d1_databases]] binding = "${name}" to wrangler.toml`);
  }
  return db;
}

/** Binding names of the shards, shard 0 first; `["DB"]` when SHARD_BINDINGS is unset. Throws TypeError for a name bound to no D1 database. */
export function shardBindings(env: ShardEnv): string[] {
  const names = (env.SHARD_BINDINGS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) return ["DB"];
  for (const n of names) binding(env, n);
  return names;
}

/** Every shard, in order. */
export function listShards(env: ShardEnv): Shard[] {
  return shardBindings(env).map((name, shard) => ({ shard, binding: name, db: binding(env, name) }));
}

/** Number of shards (at least 1). */
export function shardCount(env: ShardEnv): number {
  return shardBindings(env).length;
}

/** The database of shard `n`; throws RangeError for a shard that does not exist. */
export function shardDb(env: ShardEnv, n: number): D1Database {
  const names = shardBindings(env);
  if (!Number.isInteger(n) || n < 0 || n >= names.length) throw new RangeError(`no shard ${n}: shards are 0..${names.length - 1} (SHARD_BINDINGS)`);
  return binding(env, names[n]);
}

/** A catalog row's placement columns as a Placement (NULL shard: shard 0, not placed). */
export function placementOf(row: { shard: number | null; moving_to: number | null } | null): Placement {
  const shard = row?.shard ?? 0;
  return { shard, writeShard: row?.moving_to ?? shard, placed: row?.shard !== null && row?.shard !== undefined };
}

/** The placement of `repo` from the catalog (shard 0 for an unknown or unplaced repo). */
export async function repoPlacement(env: ShardEnv, repo: string): Promise<Placement> {
  const row = await env.DB.prepare("SELECT shard, moving_to FROM repos WHERE id = ?").bind(repo).first<{ shard: number | null; moving_to: number | null }>();
  return placementOf(row);
}

/** The database serving `repo`'s index reads. */
export async function repoDb(env: ShardEnv, repo: string): Promise<D1Database> {
  return shardDb(env, (await repoPlacement(env, repo)).shard);
}

/** The database a job of `repo` writes into (the move's target during a move). */
export async function repoWriteDb(env: ShardEnv, repo: string): Promise<D1Database> {
  return shardDb(env, (await repoPlacement(env, repo)).writeShard);
}

/** Serving shard of each repo in `repos` that the catalog knows (unplaced: 0); one statement per 90 ids. */
export async function repoShards(env: ShardEnv, repos: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < repos.length; i += 90) {
    const part = repos.slice(i, i + 90);
    const { results } = await env.DB.prepare(`SELECT id, shard FROM repos WHERE id IN (${part.map(() => "?").join(", ")})`)
      .bind(...part)
      .all<{ id: string; shard: number | null }>();
    for (const r of results) out.set(r.id, r.shard ?? 0);
  }
  return out;
}

/** Items grouped by shard, in first-seen order within each group. */
export function groupByShard<T>(items: readonly T[], shardOf: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const n = shardOf(item);
    const g = groups.get(n);
    if (g) g.push(item);
    else groups.set(n, [item]);
  }
  return groups;
}

export { batchAcross } from "../../kernel/d1-batch";
