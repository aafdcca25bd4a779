/**
 * @module indexer/store/vectors
 *
 * Vector stores behind the `VectorStore` port (indexer/store/contract.ts), chosen by
 * configuration: `local` (exact cosine over D1, the offline default) or `vectorize`.
 */
import type { Config, Env } from "../../../kernel/env";
import type { VectorStore } from "../contract";
import { LocalVectorStore } from "./local";
import { VectorizeVectorStore } from "./vectorize";

export { LocalVectorStore } from "./local";
export { VectorizeVectorStore, VECTORIZE_MAX_TOPK, VECTORIZE_MAX_UPSERT, type VectorizeLike } from "./vectorize";

/**
 * The configured vector store. `db`: the shard holding the repos it serves (indexer/store/shards.ts),
 * where the local store keeps its `local_vectors` rows; Vectorize ignores it. Throws TypeError
 * when VECTOR_STORE=vectorize has no VECTORIZE binding.
 */
export function createVectorStore(env: Env, config: Config, db: D1Database = env.DB): VectorStore {
  if (config.vectorStore === "local") return new LocalVectorStore(db, config.embeddingDimensions);
  if (!env.VECTORIZE) throw new TypeError("VECTOR_STORE=vectorize needs the VECTORIZE binding ([[vectorize]] in wrangler.toml)");
  return new VectorizeVectorStore(env.VECTORIZE);
}
