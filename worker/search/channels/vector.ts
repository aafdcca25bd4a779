/**
 * @module worker/search/channels/vector
 *
 * The vector channel: embeds the query with the configured `EmbeddingProvider`, asks the
 * `VectorStore` for nearest chunks, then keeps those in the active snapshot that pass the
 * filters. It refuses to mix models: when the repo's vectors were built by another model or
 * dimension count (`repos.embedding_model`, `repos.embedding_dims`) it is skipped with the
 * reason until the repo is re-embedded. With Vectorize, vectors written moments ago may not be
 * visible yet (its writes are asynchronous).
 *
 * Which matches belong to the active snapshot (and their path and language, for the filters) is
 * read once per isolate and snapshot (repo + commit: a commit names immutable content) and kept,
 * so a warm query spends no D1 round trip here; snapshots above SNAPSHOT_CACHE_MAX_CHUNKS chunks
 * are checked in SQL per query instead.
 */
import { LRUCache } from "lru-cache";
import type { EmbeddingProvider, VectorStore } from "../../../indexer/store/contract";
import { filterSql, INLINE_TEST_SQL, isTestPath, passesFilters } from "../filters";
import type { ChannelResult } from "../types";
import { IDS_PER_STATEMENT, SNAPSHOT_JOIN } from "../snapshot-sql";
import type { ChannelScope } from "./scope";

/** Nearest neighbours asked per candidate wanted: room for chunks of old snapshots and filtered ones. */
const OVERFETCH = 3;
/** Vectorize's topK cap without metadata; the local store follows it too. */
const MAX_TOPK = 100;
/** Most query characters embedded (a pasted bug report is cut; providers cut further). */
const MAX_QUERY_CHARS = 8000;

/** Largest snapshot (chunks) whose chunk list is cached: ~100 bytes per chunk in memory. */
export const SNAPSHOT_CACHE_MAX_CHUNKS = 100_000;
/** Snapshots whose chunk lists are kept per isolate. */
const SNAPSHOT_CACHE_MAX_ENTRIES = 8;

/** Path and language of each chunk of a snapshot, or null when it is too large to keep. */
type SnapshotChunks = Map<string, { path: string; language: string; inlineTest: boolean; test: boolean }> | null;
/** Boxed: the cache holds no null values, and "too large" is worth remembering too. */
const snapshotCache = new LRUCache<string, { chunks: SnapshotChunks }>({ max: SNAPSHOT_CACHE_MAX_ENTRIES });

/** The chunk list of the scope's snapshot (cached), or null when it exceeds SNAPSHOT_CACHE_MAX_CHUNKS. */
async function snapshotChunks(scope: ChannelScope): Promise<SnapshotChunks> {
  const key = `${scope.repo}\0${scope.commit}`;
  const cached = snapshotCache.get(key);
  if (cached) return cached.chunks;
  const { results } = await scope.db
    .prepare(
      `SELECT c.id AS id, c.path AS path, c.language AS language, ${INLINE_TEST_SQL} AS inlineTest FROM chunks c ${SNAPSHOT_JOIN} WHERE c.repo = ? LIMIT ?`,
    )
    .bind(scope.commit, scope.repo, SNAPSHOT_CACHE_MAX_CHUNKS + 1)
    .all<{ id: string; path: string; language: string; inlineTest: number }>();
  const chunks: SnapshotChunks =
    results.length > SNAPSHOT_CACHE_MAX_CHUNKS
      ? null
      : new Map(results.map((r) => [r.id, { path: r.path, language: r.language, inlineTest: r.inlineTest === 1, test: isTestPath(r.path) }]));
  snapshotCache.set(key, { chunks });
  return chunks;
}

/** Ids among `ids` that are chunks of the active snapshot passing the filters, by SQL. */
async function keptBySql(scope: ChannelScope, ids: string[]): Promise<Set<string>> {
  const f = filterSql(scope.filters);
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const part = ids.slice(i, i + IDS_PER_STATEMENT);
    statements.push(
      scope.db
        .prepare(`SELECT c.id AS id FROM chunks c ${SNAPSHOT_JOIN} WHERE c.repo = ? AND c.id IN (${part.map(() => "?").join(", ")})${f.sql}`)
        .bind(scope.commit, scope.repo, ...part, ...f.params),
    );
  }
  return new Set((await scope.db.batch<{ id: string }>(statements)).flatMap((r) => r.results.map((x) => x.id)));
}

/** Embedding provenance of a repo's active vectors. */
export interface RepoEmbedding {
  model: string | null;
  dims: number | null;
}

/** Why the channel cannot use the repo's vectors, or null when it can. */
export function embeddingMismatch(repo: RepoEmbedding, provider: Pick<EmbeddingProvider, "model" | "dimensions">): string | null {
  if (!repo.model) return "the index records no embedding model (no vectors written yet)";
  if (repo.model !== provider.model || repo.dims !== provider.dimensions) {
    return `index built with ${repo.model} (${repo.dims} dims) but ${provider.model} (${provider.dimensions} dims) is configured; re-index the repo to re-embed`;
  }
  return null;
}

/** Runs the channel; `bestScore` is the best similarity among kept hits (null when none). */
export async function vectorChannel(
  scope: ChannelScope,
  embedder: EmbeddingProvider,
  store: VectorStore,
  embedding: RepoEmbedding,
): Promise<ChannelResult & { bestScore: number | null }> {
  const mismatch = embeddingMismatch(embedding, embedder);
  if (mismatch) return { channel: "vector", hits: [], skipped: mismatch, bestScore: null };
  const [v] = await embedder.embed([scope.query.text.slice(0, MAX_QUERY_CHARS)], "query");
  const snapshot = scope.indexedAt === undefined ? undefined : { commit: scope.commit, indexedAt: scope.indexedAt, model: embedding.model };
  const matches = await store.query(scope.repo, v, Math.min(MAX_TOPK, scope.depth * OVERFETCH), { snapshot });
  if (!matches.length) return { channel: "vector", hits: [], bestScore: null };
  const chunks = await snapshotChunks(scope);
  const inSnapshot = (id: string) => {
    const c = chunks?.get(id);
    return c !== undefined && passesFilters(scope.filters, c.path, c.language, c.inlineTest, c.test);
  };
  const kept = chunks
    ? new Set(matches.map((m) => m.id).filter(inSnapshot))
    : await keptBySql(
        scope,
        matches.map((m) => m.id),
      );
  const hits = matches
    .filter((m) => kept.has(m.id))
    .slice(0, scope.depth)
    .map((m) => ({ chunkId: m.id, score: m.score }));
  return { channel: "vector", hits, bestScore: hits.length ? hits[0].score : null };
}
