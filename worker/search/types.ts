/**
 * @module worker/search/types
 *
 * Shapes shared by the retrieval modules: channels, candidates, results and the response.
 */

/** A retrieval channel. Each nominates candidate chunks independently; RRF fuses them. */
export type ChannelName = "bm25" | "vector" | "symbol" | "path";

/** Which channels run: all (`hybrid`) or one. */
export type SearchMode = "hybrid" | "bm25" | "vector" | "symbol";

/** One nominated chunk, best first within its channel; `score` is the channel's own (bm25: higher is better). */
export interface ChannelHit {
  chunkId: string;
  score: number;
}

/** What a channel returns: hits best first, or why it did not run. */
export interface ChannelResult {
  channel: ChannelName;
  hits: ChannelHit[];
  /** Set when the channel was skipped or failed, e.g. "embedding model mismatch". */
  skipped?: string;
}

/** Filters applied inside every channel. */
export interface SearchFilters {
  language?: string;
  /** Path prefix such as `src/router/`; compared as a plain string prefix (normalized: worker/search/path-filter.ts). */
  pathPrefix?: string;
  /** Path glob such as `src/**\/*.ts` (picomatch); resolved per repo into `paths` before the channels run. */
  pathGlob?: string;
  /** The snapshot's paths matching `pathGlob` (set per repo by the searcher); only these pass. */
  paths?: string[];
  includeTests: boolean;
}

/** A chunk row as search reads it. */
export interface ChunkRow {
  id: string;
  repo: string;
  path: string;
  language: string;
  kind: string;
  symbol: string | null;
  container: string | null;
  signature: string | null;
  startLine: number;
  endLine: number;
  content: string;
}

/** A result: one chunk with its fused score and its 1-based rank in each channel that found it. */
export interface SearchResult {
  repo: string;
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  language: string;
  symbol: string | null;
  kind: string;
  /** Reciprocal Rank Fusion score (sum of 1/(60 + rank) over channels). */
  score: number;
  ranks: Partial<Record<ChannelName, number>>;
  /** The chunk's code, at most SNIPPET_MAX_LINES lines / SNIPPET_MAX_CHARS characters. */
  snippet: string;
  /** True when `snippet` was cut; read the file for the rest. */
  snippetTruncated: boolean;
  chunkId: string;
  /** Set when the repo's snapshot may be out of date (its last refresh or check failed); see `StaleInfo`. */
  stale?: StaleInfo;
  /** With `explain`: why the result ranks where it does. */
  explain?: SearchResultExplain;
}

/**
 * Why a repo's results may be out of date: the last refresh failed, or the scheduled check
 * found the upstream gone or the token revoked, while an older snapshot keeps serving.
 */
export interface StaleInfo {
  /** The newest failure, as the job or the check reported it. */
  reason: string;
  /** First failure since the snapshot was built (ms since epoch). */
  since: number;
  /** Age of the snapshot being served (ms). */
  snapshotAge: number;
}

/**
 * A result's explanation (`explain=true`), like zoekt's DebugScore: its rank in each channel,
 * the fused RRF score, and each ranking stage that ran with the factor it multiplied the score
 * by (worker/search/ranking/stages.ts, docs/ranking.md). The final `score` is the fused score
 * times the factors (anchors, chunks the query itself names, enter at least at 1 / (RRF_K + 1)).
 */
export interface SearchResultExplain {
  ranks: Partial<Record<ChannelName, number>>;
  fused: number;
  stages: { stage: string; factor: number }[];
}

/** How much to trust the results. */
export interface Confidence {
  level: "high" | "low";
  /** Share of query terms (after term selection) found in the results, 0..1. */
  termCoverage: number;
  /** Best cosine similarity of the vector channel, null when it did not run. */
  bestVectorScore: number | null;
  /** Query terms found in no result. */
  missingTerms: string[];
  /** Why the level is what it is. */
  reason: string;
}

/** Response of a search. */
export interface SearchResponse {
  results: SearchResult[];
  confidence: Confidence;
  stats: {
    tookMs: number;
    /** Repos searched. */
    repos: string[];
    /** Repos whose search threw, with the error message. */
    failedRepos: { repo: string; error: string }[];
    /** Query terms used for BM25 after IDF selection. */
    queryTerms: string[];
    /** Candidates per channel (summed over repos). */
    candidates: Partial<Record<ChannelName, number>>;
    /** Channels skipped, with the reason, by repo. */
    skippedChannels: { repo: string; channel: ChannelName; reason: string }[];
  };
}
