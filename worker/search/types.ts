/**
 * @module worker/search/types
 *
 * Shapes shared by the retrieval modules: channels, candidates, results and the response. The
 * wire shapes (results, confidence, response) are inferred from the zod schemas in ./schema.ts.
 */
import type { z } from "zod";
import type { CHANNEL_NAMES, confidenceSchema, resultExplainSchema, searchResponseSchema, searchResultSchema, staleInfoSchema } from "./schema";

/** A retrieval channel. Each nominates candidate chunks independently; RRF fuses them. */
export type ChannelName = (typeof CHANNEL_NAMES)[number];

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
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Why a repo's results may be out of date (see `staleInfoSchema`). */
export type StaleInfo = z.infer<typeof staleInfoSchema>;

/** A result's explanation with `explain` (see `resultExplainSchema`). */
export type SearchResultExplain = z.infer<typeof resultExplainSchema>;

/** How much to trust the results. */
export type Confidence = z.infer<typeof confidenceSchema>;

/** Response of a search. */
export type SearchResponse = z.infer<typeof searchResponseSchema>;
