/**
 * @module worker/search/shard-targets
 *
 * Which database and vector store serve a search target (docs/storage.md, "Shards"). A target
 * carries its shard number (`RepoTarget.shard`, from the catalog); `SearchDeps.shards` gives that
 * shard's D1 (a coalescing view, worker/search/d1-coalesce.ts) and vector store. Without either,
 * every target is read from `deps.db` and `deps.vectors` (one database: tests, evals).
 */
import type { VectorStore } from "../../indexer/store/contract";
import { loadChunks } from "./chunk-rows";
import type { ChunkRow } from "./types";

/** A shard's handles for the searcher. */
export interface ShardDeps {
  db: D1Database;
  vectors: VectorStore;
}

/** What the helpers read of the searcher's deps. */
export interface ShardedDeps extends ShardDeps {
  /** The handles of shard `n` (indexer/store/shards.ts); absent: every target is in `db`. */
  shards?: (n: number) => ShardDeps;
}

/** A database, or the database of each target (its shard). */
export type TargetDb<T> = D1Database | ((t: T) => D1Database);

/** The database `db` names for target `t`. */
export function dbOf<T>(db: TargetDb<T>, t: T): D1Database {
  return typeof db === "function" ? db(t) : db;
}

/** `deps` with the database and vector store of `t`'s shard. */
export function depsFor<D extends ShardedDeps>(deps: D, t: { shard?: number }): D {
  return t.shard !== undefined && deps.shards ? { ...deps, ...deps.shards(t.shard) } : deps;
}

/** The database of each target: `(t) => its shard's db`. */
export function targetDb(deps: ShardedDeps): (t: { id: string; shard?: number }) => D1Database {
  return (t) => depsFor(deps, t).db;
}

/**
 * Rows of chunk `ids` from every shard holding one of `targets` (in parallel): a chunk id does
 * not name its repo, and ids are unique across repos (contract.ts `fileId` hashes the repo).
 */
export async function loadChunksAcross(deps: ShardedDeps, targets: readonly { shard?: number }[], ids: string[]): Promise<Map<string, ChunkRow>> {
  const dbs = new Set(targets.map((t) => depsFor(deps, t).db));
  if (dbs.size <= 1) return loadChunks(dbs.values().next().value ?? deps.db, ids);
  const out = new Map<string, ChunkRow>();
  for (const m of await Promise.all([...dbs].map((db) => loadChunks(db, ids)))) for (const [id, row] of m) out.set(id, row);
  return out;
}
