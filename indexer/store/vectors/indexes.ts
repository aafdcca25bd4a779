/**
 * @module indexer/store/vectors/indexes
 *
 * Which vector index holds a repo's vectors (docs/storage.md, "Shards"; docs/scale.md). The vector
 * index follows the repo's D1 shard: shard n's vectors live in vector index n, so every place
 * that picks a repo's D1 shard (reads: `shard`, a job's writes: `writeShard`, a move's old copy)
 * picks its vector index with the same number, and a move carries the vectors with the rows.
 *
 * Why one index per shard, not a placement of its own: Cloudflare caps an index at 10,000,000
 * vectors and 50,000 namespaces (Workers Paid; https://developers.cloudflare.com/vectorize/platform/limits/).
 * A shard takes no new repo past its high-water mark (8 GB of D1), which at the measured
 * ratios (docs/scale.md: 3.36 bytes of D1 and 0.0013 vectors per source byte) is about 3.1M
 * vectors, a third of an index; so an index never fills before its shard, and needs neither a
 * second placement rule nor a second move. Indexes cost nothing by themselves (Vectorize bills
 * stored and queried dimensions), and an account may have 50,000 of them.
 *
 * - `VECTOR_STORE=local`: vector index n is the `local_vectors` table of shard n's D1 database
 *   (indexer/store/vectors/local.ts), so `npm start` (two shards) and the tests (three) run the
 *   multi-index path.
 * - `VECTOR_STORE=vectorize`: `VECTORIZE_BINDINGS` lists one Vectorize binding per shard, in
 *   shard order (`VECTORIZE,VECTORIZE_1,VECTORIZE_2`: shard 0 keeps the index a deployment had
 *   before it was sharded). Unset, every shard shares the one `VECTORIZE` index (namespace = repo),
 *   which holds at most 10,000,000 vectors in all.
 */
import type { Config } from "../../../kernel/env";
import type { VectorStore } from "../contract";
import { shardBindings, shardDb, type ShardEnv } from "../shards";
import { LocalVectorStore } from "./local";
import { VectorizeVectorStore, type VectorizeLike } from "./vectorize";

/** The bindings the resolver reads: the shards, and the Vectorize bindings when VECTOR_STORE=vectorize. */
export interface VectorIndexEnv extends ShardEnv {
  /** The one Vectorize index every shard shares when VECTORIZE_BINDINGS is unset. */
  VECTORIZE?: Vectorize;
  /** Comma-separated Vectorize binding names, one per shard, shard 0 first (wrangler.toml `[vars]`). */
  VECTORIZE_BINDINGS?: string;
}

/** The binding shared by every shard when `VECTORIZE_BINDINGS` is unset. */
export const SHARED_VECTORIZE_BINDING = "VECTORIZE";

/** Vectors one Vectorize index holds at most (https://developers.cloudflare.com/vectorize/platform/limits/). */
export const VECTORIZE_MAX_VECTORS_PER_INDEX = 10_000_000;
/** Vectors past which the health report warns about an index: 80% of Vectorize's limit, room for its repos to grow. */
export const VECTOR_INDEX_WARN_VECTORS = 8_000_000;

function vectorizeBinding(env: VectorIndexEnv, name: string): VectorizeLike & Partial<Pick<Vectorize, "describe">> {
  const b = (env as unknown as Record<string, unknown>)[name] as (Partial<VectorizeLike> & Partial<Pick<Vectorize, "describe">>) | undefined;
  if (!b || typeof b.query !== "function" || typeof b.upsert !== "function" || typeof b.deleteByIds !== "function") {
    throw new TypeError(
      name === SHARED_VECTORIZE_BINDING && !env.VECTORIZE_BINDINGS
        ? "VECTOR_STORE=vectorize needs the VECTORIZE binding ([[vectorize]] in wrangler.toml)"
        : `VECTORIZE_BINDINGS names "${name}", which is not a Vectorize binding: add [[vectorize]] binding = "${name}" to wrangler.toml (npm run deploy -- --shards N does)`,
    );
  }
  return b as VectorizeLike & Partial<Pick<Vectorize, "describe">>;
}

/**
 * The Vectorize binding names of the shards, shard 0 first: `VECTORIZE_BINDINGS`, or the shared
 * `VECTORIZE` for every shard when unset. Throws TypeError when the list's length is not the
 * number of shards (`SHARD_BINDINGS`), since a shard without its index would lose vectors.
 */
export function vectorizeBindings(env: VectorIndexEnv): string[] {
  const shards = shardBindings(env).length;
  const names = (env.VECTORIZE_BINDINGS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) return Array.from({ length: shards }, () => SHARED_VECTORIZE_BINDING);
  if (names.length !== shards) {
    throw new TypeError(
      `VECTORIZE_BINDINGS names ${names.length} Vectorize indexes for ${shards} shards (SHARD_BINDINGS): list one per shard, in shard order, or leave it unset to share VECTORIZE`,
    );
  }
  return names;
}

/**
 * The name of the vector index holding shard `n`'s vectors: with the local store the shard's D1
 * binding (`SHARD_1`, whose `local_vectors` table it is), with Vectorize the index's binding.
 * Two shards share an index exactly when their names are equal. Throws RangeError for a shard
 * that does not exist, TypeError for a misconfigured binding list.
 */
export function vectorIndexName(env: VectorIndexEnv, config: Pick<Config, "vectorStore">, n: number): string {
  shardDb(env, n); // RangeError for a shard that does not exist
  return config.vectorStore === "local" ? shardBindings(env)[n] : vectorizeBindings(env)[n];
}

/** Whether shards `a` and `b` keep their vectors in the same index (a move between them then carries nothing). */
export function sameVectorIndex(env: VectorIndexEnv, config: Pick<Config, "vectorStore">, a: number, b: number): boolean {
  return vectorIndexName(env, config, a) === vectorIndexName(env, config, b);
}

/**
 * The vector store of shard `n`'s vector index: `local_vectors` in shard n's D1 database, or
 * the Vectorize index `vectorizeBindings(env)[n]`. Throws as `vectorIndexName` does, and
 * TypeError when a named Vectorize binding is missing.
 */
export function shardVectorStore(env: VectorIndexEnv, config: Pick<Config, "vectorStore" | "embeddingDimensions">, n: number): VectorStore {
  const db = shardDb(env, n);
  if (config.vectorStore === "local") return new LocalVectorStore(db, config.embeddingDimensions);
  return new VectorizeVectorStore(vectorizeBinding(env, vectorizeBindings(env)[n]));
}

/**
 * Vectors in shard `n`'s vector index, for the health report: the rows of `local_vectors` in the
 * shard, or the Vectorize index's `describe().vectorCount` (every namespace of the index, so
 * shards sharing one index report the same count; Vectorize counts mutations it has processed).
 * Throws as `shardVectorStore` does.
 */
export async function vectorIndexSize(env: VectorIndexEnv, config: Pick<Config, "vectorStore">, n: number): Promise<number> {
  const db = shardDb(env, n);
  if (config.vectorStore === "local") return (await db.prepare("SELECT count(*) AS n FROM local_vectors").first<{ n: number }>())?.n ?? 0;
  const index = vectorizeBinding(env, vectorizeBindings(env)[n]);
  if (typeof index.describe !== "function") throw new TypeError(`Vectorize binding ${vectorizeBindings(env)[n]} has no describe(): a V2 index is needed`);
  return (await index.describe()).vectorCount;
}
