/**
 * @module worker/search/schema
 *
 * The wire shape of a search, as zod schemas: what `runSearch` returns, what REST
 * `/api/search` answers, what MCP `search_code` declares as its output and what `ask` embeds.
 * The TypeScript types in ./types.ts are `z.infer` of these, so the documented shape (OpenAPI,
 * MCP outputSchema) and the code's shape cannot drift apart.
 */
import { z } from "zod";
import { CONFIDENCE_LEVELS } from "../../kernel/search-options";

/** Retrieval channels. Each nominates candidate chunks independently; RRF fuses them. */
export const CHANNEL_NAMES = ["bm25", "vector", "symbol", "path"] as const;

/** A result's 1-based rank in each channel that found it. */
export const channelRanksSchema = z
  .object({
    bm25: z.number().int().optional(),
    vector: z.number().int().optional(),
    symbol: z.number().int().optional(),
    path: z.number().int().optional(),
  })
  .describe("1-based rank in each channel that nominated the chunk.");

/**
 * Why a repo's results may be out of date: the last refresh failed, or the scheduled check
 * found the upstream gone or the token revoked, while an older snapshot keeps serving.
 */
export const staleInfoSchema = z
  .object({
    reason: z.string().describe("The newest failure, as the job or the check reported it."),
    since: z.number().describe("First failure since the snapshot was built (ms since epoch)."),
    snapshotAge: z.number().describe("Age of the snapshot being served (ms)."),
  })
  .describe("Present when the repo's last refresh or check failed: the results come from an older snapshot (times in ms).");

/**
 * A result's explanation (`explain=true`), like zoekt's DebugScore: the reader that planned the
 * search, its rank in each channel, the fused RRF score, and each ranking stage that ran with
 * the factor it multiplied the score by and the plan element that turned it on
 * (worker/search/ranking/stages.ts, docs/ranking.md). The final `score` is the fused score
 * times the factors (anchors, chunks the query itself names, enter at least at 1 / (RRF_K + 1)).
 */
export const resultExplainSchema = z
  .object({
    reader: z.string().describe("The query reader that planned the search: question, report or identifier (worker/search/readers/)."),
    ranks: channelRanksSchema,
    fused: z.number().describe("RRF score before the ranking stages."),
    stages: z
      .array(
        z.object({
          stage: z.string(),
          factor: z.number(),
          plan: z.string().describe("The plan element that turned the stage on and set it (`stages.trace`, `evidence.options`)."),
        }),
      )
      .describe("Each ranking stage that ran, in order, with the factor it applied."),
  })
  .describe("With explain: channel ranks, fused score and each ranking stage's factor.");

/** One hit: a chunk with its fused score. Lines are 1-based and inclusive. */
export const searchResultSchema = z.object({
  repo: z.string(),
  // Set by every search (worker/services/search.ts); optional for the ranking core, which does not know refs.
  ref: z.string().nullable().optional(),
  commit: z.string().optional(),
  path: z.string(),
  startLine: z.number().int().describe("1-based, inclusive."),
  endLine: z.number().int().describe("1-based, inclusive."),
  language: z.string(),
  symbol: z.string().nullable(),
  kind: z.string(),
  score: z.number().describe("Reciprocal Rank Fusion score (sum of 1/(60 + rank) over channels) times the ranking stages' factors."),
  ranks: channelRanksSchema,
  snippet: z.string().describe("The chunk's code, at most SNIPPET_MAX_LINES lines / SNIPPET_MAX_CHARS characters."),
  snippetTruncated: z.boolean().describe("True when the snippet was cut; read the file for the rest."),
  chunkId: z.string(),
  stale: staleInfoSchema.optional(),
  explain: resultExplainSchema.optional(),
});

/** How much to trust the results (worker/search/gate.ts). */
export const confidenceSchema = z.object({
  level: z.enum(CONFIDENCE_LEVELS),
  termCoverage: z.number().describe("Share of query terms (after term selection) found in the results, 0..1."),
  bestVectorScore: z.number().nullable().describe("Best cosine similarity of the vector channel; null when it did not run."),
  missingTerms: z.array(z.string()).describe("Query terms found in no result."),
  reason: z.string().describe("Why the level is what it is."),
  signals: z
    .object({
      weightedCoverage: z.number().nullable().describe("IDF-weighted share of the query's terms found in the results (absent terms weigh most), 0..1."),
      bestChunkCoverage: z
        .number()
        .nullable()
        .describe("The same share found together in one result, the best one: the rare words of an answer meet in one place, 0..1."),
      channelAgreement: z
        .number()
        .nullable()
        .describe("Best rank at which the lexical and vector channels both put one of the top 3 results (max of its two ranks); null when none has both."),
    })
    .optional()
    .describe("The evidence the level was decided on (worker/search/gate.ts)."),
});

/** What every search reports about itself, whichever surface asked. */
export const searchStatsSchema = z.object({
  tookMs: z.number(),
  repos: z.array(z.string()).describe("Repos searched."),
  failedRepos: z.array(z.object({ repo: z.string(), error: z.string() })).describe("Repos whose search failed, with a coded reason."),
  queryTerms: z.array(z.string()).describe("Query terms used for BM25 after IDF selection."),
});

/** How a query in another language was read (worker/search/language); absent for English queries. */
export const queryLanguageSchema = z.object({
  detected: z.string().describe("Language of the query's prose (ISO 639-1: zh, ja, ko, es, pt, de, fr)."),
  via: z.enum(["glossary", "provider"]).describe("glossary: the offline multilingual glossary; provider: the configured model translated it."),
  original: z.string().describe("The query as sent."),
  searchedAs: z.string().describe("The English words and passed-through code the channels searched for."),
  terms: z.array(z.object({ source: z.string(), english: z.string() })).describe("Glossary matches, in query order."),
  passthrough: z.array(z.string()).describe("Identifiers, quoted code and English kept verbatim."),
  unmapped: z.array(z.string()).describe("Words the glossary does not know (not searched on the glossary path)."),
  fallback: z.string().optional().describe("Why the configured model was not used (the glossary was)."),
});

/** Full statistics of a search: the common part plus per-channel detail (REST and evals). */
export const searchStatsDetailSchema = searchStatsSchema.extend({
  candidates: z.partialRecord(z.enum(CHANNEL_NAMES), z.number().int()).describe("Candidates per channel, summed over repos."),
  skippedChannels: z
    .array(z.object({ repo: z.string(), channel: z.enum(CHANNEL_NAMES), reason: z.string() }))
    .describe("Channels skipped, with the reason, by repo."),
  queryLanguage: queryLanguageSchema.optional(),
});

/** Response of a search (REST /api/search). */
export const searchResponseSchema = z.object({
  results: z.array(searchResultSchema),
  confidence: confidenceSchema,
  stats: searchStatsDetailSchema,
});
