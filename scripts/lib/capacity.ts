/**
 * @module scripts/lib/capacity
 *
 * The capacity model of docs/scale.md (issue #45): for a deployment size (repositories, bytes of
 * source) it derives how many D1 shards, Vectorize indexes, queue messages and Worker invocations
 * a cold index and a month of use take, what that costs on Cloudflare's published prices, which
 * platform limit binds first, and, once D1 and the vector indexes are both sharded (one Vectorize
 * index per shard, indexer/store/vectors/indexes.ts), which limit binds next. Pure arithmetic over three kinds of input, each kept apart so
 * a reader can check it:
 * - `LIMITS` and `PRICES`: Cloudflare's documented figures, each with the page it comes from;
 * - `Measured`: ratios measured here with `npm run bench:storage -- --json` (scripts/bench-storage.ts);
 * - `Assumptions`: usage figures nobody can measure on one machine (queries per day, churn), named
 *   as assumptions in the output.
 */

/** A documented figure and where it is documented. */
export interface Sourced {
  value: number;
  source: string;
}

const D1_LIMITS = "https://developers.cloudflare.com/d1/platform/limits/";
const D1_PRICING = "https://developers.cloudflare.com/d1/platform/pricing/";
const VECTORIZE_LIMITS = "https://developers.cloudflare.com/vectorize/platform/limits/";
const VECTORIZE_PRICING = "https://developers.cloudflare.com/vectorize/platform/pricing/";
const QUEUES_PRICING = "https://developers.cloudflare.com/queues/platform/pricing/";
const WORKERS_PRICING = "https://developers.cloudflare.com/workers/platform/pricing/";
const WORKERS_AI_PRICING = "https://developers.cloudflare.com/workers-ai/platform/pricing/";

/**
 * Platform limits on Workers Paid. Vectorize's, as its limits page states them (V2 indexes):
 * 10,000,000 vectors and 50,000 namespaces per index, 50,000 indexes per account, 1536
 * dimensions, 10 metadata indexes per index, topK 100 (20 with values or metadata).
 */
export const LIMITS = {
  d1DatabaseBytes: { value: 10e9, source: D1_LIMITS },
  d1AccountBytes: { value: 1e12, source: D1_LIMITS },
  d1DatabasesPerAccount: { value: 50_000, source: D1_LIMITS },
  bindingsPerWorker: { value: 5_000, source: D1_LIMITS },
  d1QueriesPerInvocation: { value: 1_000, source: D1_LIMITS },
  vectorsPerIndex: { value: 10_000_000, source: VECTORIZE_LIMITS },
  namespacesPerIndex: { value: 50_000, source: VECTORIZE_LIMITS },
  vectorizeIndexesPerAccount: { value: 50_000, source: VECTORIZE_LIMITS },
  vectorizeDimensions: { value: 1536, source: VECTORIZE_LIMITS },
  metadataIndexesPerIndex: { value: 10, source: VECTORIZE_LIMITS },
  queueMessagesPerSecond: { value: 5_000, source: "https://developers.cloudflare.com/queues/platform/limits/" },
} satisfies Record<string, Sourced>;

/** Published prices on Workers Paid, USD; "included" is the monthly allowance before the rate applies. */
export const PRICES = {
  workersPaidBase: { value: 5, source: WORKERS_PRICING },
  workerRequestsIncluded: { value: 10e6, source: WORKERS_PRICING },
  workerRequestsPerMillion: { value: 0.3, source: WORKERS_PRICING },
  d1RowsReadIncluded: { value: 25e9, source: D1_PRICING },
  d1RowsReadPerMillion: { value: 0.001, source: D1_PRICING },
  d1RowsWrittenIncluded: { value: 50e6, source: D1_PRICING },
  d1RowsWrittenPerMillion: { value: 1, source: D1_PRICING },
  d1StorageIncludedBytes: { value: 5e9, source: D1_PRICING },
  d1StoragePerGbMonth: { value: 0.75, source: D1_PRICING },
  vectorizeStoredDimsIncluded: { value: 10e6, source: VECTORIZE_PRICING },
  vectorizeQueriedDimsIncluded: { value: 50e6, source: VECTORIZE_PRICING },
  vectorizePerMillionDims: { value: 0.04, source: VECTORIZE_PRICING },
  queueOpsIncluded: { value: 1e6, source: QUEUES_PRICING },
  queueOpsPerMillion: { value: 0.4, source: QUEUES_PRICING },
  queueOpsPerMessage: { value: 3, source: QUEUES_PRICING },
  /** `@cf/baai/bge-base-en-v1.5` (768 dims): the embedding model whose price the pricing page lists. */
  embeddingPerMillionTokens: { value: 0.067, source: WORKERS_AI_PRICING },
} satisfies Record<string, Sourced>;

/** Ratios measured on real trees with `npm run bench:storage -- --json`. */
export interface Measured {
  /** Bytes of D1 per byte of indexed source, without `local_vectors` (production keeps vectors in Vectorize). */
  d1BytesPerSourceByte: number;
  /** Embedded chunks (vectors) per byte of indexed source. */
  vectorsPerSourceByte: number;
  /** Rows a cold index writes per byte of source (rows plus index entries, a lower bound). */
  rowsWrittenPerSourceByte: number;
  /** Where the ratios come from (corpora and commits), printed with the tables. */
  provenance: string;
}

/** Usage that cannot be measured here, stated in the output as assumptions. */
export interface Assumptions {
  /** Searches per repository per day (MCP, REST and web together). */
  searchesPerRepoPerDay: number;
  /** D1 rows read per search (all channels, one repository). */
  rowsReadPerSearch: number;
  /** Fraction of the source re-indexed per month (changed files re-chunked and re-embedded). */
  monthlyChurn: number;
  /** Source bytes per embedding input token. */
  bytesPerToken: number;
  /** Files per indexing batch (one queue message each; at most BATCH_MAX_FILES = 40, durable-objects/plan.ts). */
  filesPerBatch: number;
  /** Average bytes per source file. */
  bytesPerFile: number;
  /** Shard high-water mark in bytes (`SHARD_HIGH_WATER_BYTES`): new repos go elsewhere above it. */
  shardHighWaterBytes: number;
  /** Embedding dimensions (1024 for `@cf/qwen/qwen3-embedding-0.6b`, production's default). */
  dimensions: number;
  /** Worker bindings besides the shards' (catalog, queues, KV, rate limits, AI, vars, secrets): each shard adds a D1 and a Vectorize binding. */
  otherBindings: number;
}

/** One deployment size. */
export interface Tier {
  repos: number;
  sourceBytes: number;
}

/** What `plan` derives for one tier. */
export interface Plan extends Tier {
  d1Bytes: number;
  /** D1 shards: enough that none passes the high-water mark, and that each shard's vector index stays under its limits. */
  shards: number;
  vectors: number;
  /** Vectorize indexes: one per shard (the vector index follows the shard). */
  vectorIndexes: number;
  /** Vectors in each index, on average over the shards. */
  vectorsPerIndex: number;
  /** Repos (namespaces) in each index, on average over the shards. */
  reposPerIndex: number;
  /** The first scale-out limit (`scaleOutLimits`) beyond this tier's source; null when the tier is past all of them. */
  nextLimit: Binding | null;
  coldIndexRowsWritten: number;
  coldIndexQueueMessages: number;
  searchesPerMonth: number;
  workerInvocationsPerMonth: number;
  monthlyUsd: { d1Storage: number; d1Writes: number; d1Reads: number; vectorize: number; embeddings: number; queues: number; workers: number; total: number };
  coldIndexEmbeddingUsd: number;
  /** D1 rows written by the cold index beyond the month's included rows, USD. */
  coldIndexWritesUsd: number;
}

/** One limit and the bytes of source at which one resource (one database, one index, one account) reaches it. */
export interface Binding {
  limit: string;
  sourceBytes: number;
  source: string;
}

/**
 * Where each capacity limit binds as a deployment grows, smallest first: the source size at which
 * one D1 database, one Vectorize index or the account is full. The first one is what sharding
 * must address first.
 */
export function bindingLimits(m: Measured, a: Assumptions): Binding[] {
  return [
    { limit: "one D1 database (10 GB)", sourceBytes: LIMITS.d1DatabaseBytes.value / m.d1BytesPerSourceByte, source: LIMITS.d1DatabaseBytes.source },
    { limit: "one D1 shard at the high-water mark", sourceBytes: a.shardHighWaterBytes / m.d1BytesPerSourceByte, source: "SHARD_HIGH_WATER_BYTES" },
    {
      limit: "one Vectorize index shared by every shard (10,000,000 vectors)",
      sourceBytes: LIMITS.vectorsPerIndex.value / m.vectorsPerSourceByte,
      source: LIMITS.vectorsPerIndex.source,
    },
    { limit: "D1 storage per account (1 TB)", sourceBytes: LIMITS.d1AccountBytes.value / m.d1BytesPerSourceByte, source: LIMITS.d1AccountBytes.source },
  ].sort((x, y) => x.sourceBytes - y.sourceBytes);
}

/** Bytes of source one shard holds at the high-water mark. */
export const shardSourceBytes = (m: Measured, a: Assumptions): number => a.shardHighWaterBytes / m.d1BytesPerSourceByte;

/** Vectors in a shard's own index when the shard is at the high-water mark (the fullest an index gets). */
export const vectorsPerFullShard = (m: Measured, a: Assumptions): number => shardSourceBytes(m, a) * m.vectorsPerSourceByte;

/**
 * Where each limit binds once D1 and vectors are sharded (one Vectorize index per shard, shards
 * filled to the high-water mark), smallest first: the per-account and per-Worker limits that
 * adding shards cannot lift. A shard's own index is listed too: it binds before the shard's D1
 * only if a shard at the mark would hold more than 10,000,000 vectors.
 */
export function scaleOutLimits(m: Measured, a: Assumptions): Binding[] {
  const perShard = shardSourceBytes(m, a);
  const maxBindingShards = Math.floor((LIMITS.bindingsPerWorker.value - a.otherBindings) / 2);
  return [
    { limit: "D1 storage per account (1 TB)", sourceBytes: LIMITS.d1AccountBytes.value / m.d1BytesPerSourceByte, source: LIMITS.d1AccountBytes.source },
    {
      limit: `bindings per Worker (~5,000; 2 per shard, ${a.otherBindings} others)`,
      sourceBytes: maxBindingShards * perShard,
      source: LIMITS.bindingsPerWorker.source,
    },
    {
      limit: "D1 databases per account (50,000)",
      sourceBytes: (LIMITS.d1DatabasesPerAccount.value - 1) * perShard,
      source: LIMITS.d1DatabasesPerAccount.source,
    },
    {
      limit: "Vectorize indexes per account (50,000)",
      sourceBytes: LIMITS.vectorizeIndexesPerAccount.value * perShard,
      source: LIMITS.vectorizeIndexesPerAccount.source,
    },
    {
      limit: "vectors per index (10,000,000), a shard's own index",
      sourceBytes: vectorsPerFullShard(m, a) > LIMITS.vectorsPerIndex.value ? perShard : Infinity,
      source: LIMITS.vectorsPerIndex.source,
    },
  ].sort((x, y) => x.sourceBytes - y.sourceBytes);
}

const over = (used: number, included: number, perMillion: number) => (Math.max(0, used - included) / 1e6) * perMillion;

/** Derives the plan of one tier; every input is named in `Measured`, `Assumptions`, `LIMITS` or `PRICES`. */
export function plan(tier: Tier, m: Measured, a: Assumptions): Plan {
  const d1Bytes = tier.sourceBytes * m.d1BytesPerSourceByte;
  const vectors = tier.sourceBytes * m.vectorsPerSourceByte;
  // Shards fill to the high-water mark; each has its own vector index, which must stay under
  // Vectorize's vectors and namespaces per index too (a repo lives in one shard and one index).
  const shards = Math.max(
    1,
    Math.ceil(d1Bytes / a.shardHighWaterBytes),
    Math.ceil(vectors / LIMITS.vectorsPerIndex.value),
    Math.ceil(tier.repos / LIMITS.namespacesPerIndex.value),
  );
  const vectorIndexes = shards;
  const nextLimit = scaleOutLimits(m, a).find((b) => b.sourceBytes > tier.sourceBytes) ?? null;
  const coldIndexRowsWritten = tier.sourceBytes * m.rowsWrittenPerSourceByte;
  const coldIndexQueueMessages = Math.ceil(tier.sourceBytes / a.bytesPerFile / a.filesPerBatch);
  const searchesPerMonth = tier.repos * a.searchesPerRepoPerDay * 30;
  const churnMessages = coldIndexQueueMessages * a.monthlyChurn;
  // One invocation per search, one per queue batch delivered (max_batch_size 4 messages per invocation counted as 1 each, an upper bound).
  const workerInvocationsPerMonth = searchesPerMonth + churnMessages;
  const storedDims = vectors * a.dimensions;
  const queriedDims = searchesPerMonth * a.dimensions;
  const monthlyTokens = (tier.sourceBytes * a.monthlyChurn) / a.bytesPerToken;
  const usd = {
    d1Storage: (Math.max(0, d1Bytes - PRICES.d1StorageIncludedBytes.value) / 1e9) * PRICES.d1StoragePerGbMonth.value,
    d1Writes: over(coldIndexRowsWritten * a.monthlyChurn, PRICES.d1RowsWrittenIncluded.value, PRICES.d1RowsWrittenPerMillion.value),
    d1Reads: over(searchesPerMonth * a.rowsReadPerSearch, PRICES.d1RowsReadIncluded.value, PRICES.d1RowsReadPerMillion.value),
    vectorize:
      over(storedDims, PRICES.vectorizeStoredDimsIncluded.value, PRICES.vectorizePerMillionDims.value) +
      over(queriedDims, PRICES.vectorizeQueriedDimsIncluded.value, PRICES.vectorizePerMillionDims.value),
    embeddings: (monthlyTokens / 1e6) * PRICES.embeddingPerMillionTokens.value,
    queues: over(churnMessages * PRICES.queueOpsPerMessage.value, PRICES.queueOpsIncluded.value, PRICES.queueOpsPerMillion.value),
    workers: PRICES.workersPaidBase.value + over(workerInvocationsPerMonth, PRICES.workerRequestsIncluded.value, PRICES.workerRequestsPerMillion.value),
    total: 0,
  };
  usd.total = Object.entries(usd).reduce((s, [k, v]) => (k === "total" ? s : s + v), 0);
  return {
    ...tier,
    d1Bytes,
    shards,
    vectors,
    vectorIndexes,
    vectorsPerIndex: vectors / vectorIndexes,
    reposPerIndex: tier.repos / vectorIndexes,
    nextLimit,
    coldIndexRowsWritten,
    coldIndexQueueMessages,
    searchesPerMonth,
    workerInvocationsPerMonth,
    monthlyUsd: usd,
    coldIndexEmbeddingUsd: (tier.sourceBytes / a.bytesPerToken / 1e6) * PRICES.embeddingPerMillionTokens.value,
    coldIndexWritesUsd: over(coldIndexRowsWritten, PRICES.d1RowsWrittenIncluded.value, PRICES.d1RowsWrittenPerMillion.value),
  };
}
