/**
 * @module kernel/search-options
 *
 * The search options with a fixed set of values, in one place for every client: the REST and
 * MCP schemas (worker/services/search.ts `searchInput`, worker/search/schema.ts
 * `confidenceSchema`) and the CLI (bin/lib/search-options.ts), which cannot import the worker's
 * schemas (Node runs bin/ without a bundler, and those modules import without extensions).
 */
import { z } from "zod";

/** `mode`: hybrid fuses all channels; the others run one channel. */
export const SEARCH_MODES = ["hybrid", "bm25", "vector", "symbol"] as const;
/** The zod schema of `mode` (default hybrid). */
export const searchModeSchema = z.enum(SEARCH_MODES).default("hybrid").describe("hybrid fuses all channels (default); the others run one channel.");

/** `confidence.level` of a search answer, highest first (worker/search/gate.ts decides it). */
export const CONFIDENCE_LEVELS = ["high", "low"] as const;
/** One of CONFIDENCE_LEVELS. */
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];
