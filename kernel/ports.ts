/**
 * @module kernel/ports
 *
 * Ports both sides use: text embeddings and vector search. The index side writes through them
 * (indexer/pipeline.ts), the query side reads (worker/search/channels/vector.ts); the
 * implementations live in indexer/embed/ and indexer/store/vectors/, chosen by config.
 * The storage contract (indexer/store/contract.ts) re-exports them.
 */

/**
 * Port for text embeddings. Implementations: `indexer/embed/local.ts` (hashed features, the
 * default offline) and `indexer/embed/workers-ai.ts`.
 */
export interface EmbeddingProvider {
  /** Model name recorded in the index, e.g. `@cf/baai/bge-base-en-v1.5` or `local-hash-v1`. */
  readonly model: string;
  /**
   * True when vectors are built from the text's own words (hashed features) rather than learned
   * meaning: a vector match then is lexical evidence, and the confidence gate treats it so
   * (worker/search/gate.ts).
   */
  readonly lexical: boolean;
  /** Vector length. */
  readonly dimensions: number;
  /** Largest number of texts per `embed` call the backend accepts. */
  readonly maxBatch: number;
  /** Embeds texts; returns one L2-normalised vector per text, in order. `kind` lets asymmetric models prefix queries. */
  embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]>;
}

/** A vector to store, keyed by chunk id. */
export interface VectorRecord {
  id: string;
  vector: Float32Array;
  metadata: { path: string; language: string };
}

/** A nearest-neighbour match; score is cosine similarity in [-1, 1]. */
export interface VectorMatch {
  id: string;
  score: number;
}

/** Optional hints of `VectorStore.query`. */
export interface VectorQueryOptions {
  /**
   * The repo's active snapshot as the caller read it: `repos.active_commit`, `active_indexed_at`
   * and, when known, `embedding_model` (a cache may reuse vectors across snapshots only while
   * the model that built them is the same).
   */
  snapshot?: { commit: string; indexedAt: number | null; model?: string | null };
}

/**
 * Port for vector search, one namespace per repo. Implementations: `indexer/store/vectors/local.ts`
 * (exact cosine over D1 rows, the default offline) and `indexer/store/vectors/vectorize.ts`.
 */
export interface VectorStore {
  upsert(repo: string, records: VectorRecord[]): Promise<void>;
  /**
   * Nearest neighbours by cosine, best first. `topK` is capped by the backend (Vectorize: 100
   * without metadata). `options.snapshot` is the repo's active snapshot as the caller already
   * read it (`repos.active_commit`, `active_indexed_at`); a store that keys a cache by it (the
   * local one) then need not read it again. Backends without such a cache ignore it.
   */
  query(repo: string, vector: Float32Array, topK: number, options?: VectorQueryOptions): Promise<VectorMatch[]>;
  delete(repo: string, ids: string[]): Promise<void>;
}
