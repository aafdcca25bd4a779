/**
 * @module worker/search/engine/deps
 *
 * What a search runs over and with: the repos (RepoTarget), the validated options
 * (SearchOptions), the platform bindings (SearchDeps) and the channels of each mode. Types and
 * constants only; worker/search/searcher.ts re-exports them.
 */
import type { EmbeddingProvider, RepoPackage, VectorStore } from "../../../indexer/store/contract";
import type { ChannelName, SearchFilters, SearchMode } from "../types";
import type { ShardedDeps } from "../shard-targets";

/** Channels each mode runs. */
export const MODE_CHANNELS: Record<SearchMode, ChannelName[]> = {
  hybrid: ["bm25", "vector", "symbol", "path"],
  bm25: ["bm25"],
  vector: ["vector"],
  symbol: ["symbol"],
};

/** A repo to search: its id, active snapshot, embedding provenance and the packages it publishes. */
export interface RepoTarget {
  id: string;
  commit: string;
  /** `repos.active_indexed_at` of that snapshot, when read (saves the vector store reading it). */
  indexedAt?: number | null;
  embeddingModel: string | null;
  embeddingDims: number | null;
  /**
   * The npm packages that snapshot publishes (D1 `snapshot_packages`): a report's frames under
   * `node_modules/<name>/` name this repo's files (worker/search/stack-trace.ts). None when absent.
   */
  packages?: RepoPackage[];
  /** The shard serving this snapshot (indexer/store/shards.ts); absent: `SearchDeps.db`. */
  shard?: number;
}

/** Search options after validation. */
export interface SearchOptions {
  k: number;
  mode: SearchMode;
  filters: Omit<SearchFilters, "includeTests"> & { includeTests?: boolean };
  /** Per-file cap; 0 disables. */
  fileCap: number;
  /** Overrides the mode's channels (ablations). */
  channels?: ChannelName[];
  /** RRF weight per channel (default: the plan's, QueryPlan.fusion). */
  weights?: Partial<Record<ChannelName, number>>;
  /** Return each result's explanation (reader, channel ranks, fused score, each ranking stage's factor and plan element). */
  explain?: boolean;
  /** Report rules switched off for this search, by id (worker/search/rules.ts; evaluations only). */
  disabledRules?: ReadonlySet<string>;
}

/** What the searcher needs from the platform. */
export interface SearchDeps extends ShardedDeps {
  db: D1Database;
  embedder: EmbeddingProvider;
  vectors: VectorStore;
}
