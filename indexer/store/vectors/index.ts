/**
 * @module indexer/store/vectors
 *
 * Vector stores behind the `VectorStore` port (indexer/store/contract.ts), chosen by
 * configuration: `local` (exact cosine over D1, the offline default) or `vectorize`. A repo's
 * vectors live in the vector index of its D1 shard (indexes.ts): services take a shard's store
 * from `shardVectorStore`.
 */
import type { Config, Env } from "../../../kernel/env";
import type { VectorStore } from "../contract";
import { LocalVectorStore } from "./local";
import { VectorizeVectorStore } from "./vectorize";

export {
  sameVectorIndex,
  shardVectorStore,
  VECTOR_INDEX_WARN_VECTORS,
  vectorIndexName,
  vectorIndexSize,
  vectorizeBindings,
  VECTORIZE_MAX_VECTORS_PER_INDEX,
  type VectorIndexEnv,
} from "./indexes";
export { LocalVectorStore } from "./local";
export { VectorizeVectorStore, VECTORIZE_MAX_TOPK, VECTORIZE_MAX_UPSERT, type VectorizeLike } from "./vectorize";

/**
 * The configured vector store over one database: `db`'s `local_vectors`, or the shared `VECTORIZE`
 * index. For tests and scripts with one database; the Worker resolves a shard's own vector index
 * with `shardVectorStore` (indexes.ts). Throws TypeError when VECTOR_STORE=vectorize has no
 * VECTORIZE binding.
 */
export function createVectorStore(env: Env, config: Config, db: D1Database = env.DB): VectorStore {
  if (config.vectorStore === "local") return new LocalVectorStore(db, config.embeddingDimensions);
  if (!env.VECTORIZE) throw new TypeError("VECTOR_STORE=vectorize needs the VECTORIZE binding ([[vectorize]] in wrangler.toml)");
  return new VectorizeVectorStore(env.VECTORIZE);
}
