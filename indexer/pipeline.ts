/**
 * @module indexer/pipeline
 *
 * Indexes one batch of staged files: decode -> chunk (tree-sitter or windows) -> embed and
 * upsert vectors -> write D1 rows (file text, chunks, FTS, symbols). Vectors are written before
 * the D1 rows on purpose: a `files` row is what marks a file version as indexed (the
 * coordinator skips known file ids), so it must only exist once its vectors do.
 *
 * Every write is keyed by content (file id, chunk id) and replaces what the same file version
 * wrote before, so running a batch twice leaves the same rows as running it once.
 */
import type { Config, Env } from "../kernel/env";
import { chunkFile } from "./chunk";
import { createEmbeddingProvider } from "./embed";
import { chunkIndexText, type ChunkRecord, type EmbeddingProvider, type VectorStore } from "./store/contract";
import { toChunkRecords, writeFiles, type IndexedFile } from "./store/d1/write-files";
import { repoPlacement, shardDb } from "./store/shards";
import { shardVectorStore } from "./store/vectors";

/** D1 statements per `db.batch` when writing files (a file writes ~2 per chunk + symbols). */
const WRITE_STATEMENTS_PER_BATCH = 2_000;

/** What the pipeline needs; built from env by `createPipelineDeps`, replaced in tests. */
export interface PipelineDeps {
  db: D1Database;
  embedder: EmbeddingProvider;
  vectors: VectorStore;
}

/** A file to index, as staged by the coordinator. */
export interface PipelineFile {
  path: string;
  blobSha: string;
  fileId: string;
  bytes: Uint8Array;
}

/** Outcome of one batch, reported to the coordinator. */
import type { BatchResult } from "../kernel/coordinator";
export type { BatchResult };

/** The configured embedder, and the D1 database and vector index of the shard a job of `repo` writes into (indexer/store/shards.ts, vectors/indexes.ts). */
export async function createPipelineDeps(env: Env, config: Config, repo: string): Promise<PipelineDeps> {
  const { writeShard } = await repoPlacement(env, repo);
  return { db: shardDb(env, writeShard), embedder: createEmbeddingProvider(env, config), vectors: shardVectorStore(env, config, writeShard) };
}

/** Embeds chunks in batches of `embedder.maxBatch` and upserts their vectors. */
export async function embedChunks(deps: PipelineDeps, repo: string, chunks: ChunkRecord[]): Promise<void> {
  const step = Math.max(1, deps.embedder.maxBatch);
  for (let i = 0; i < chunks.length; i += step) {
    const part = chunks.slice(i, i + step);
    const vectors = await deps.embedder.embed(
      part.map((c) => chunkIndexText(c.path, c)),
      "document",
    );
    await deps.vectors.upsert(
      repo,
      part.map((c, j) => ({ id: c.id, vector: vectors[j]!, metadata: { path: c.path, language: c.language } })),
    );
  }
}

/** Writes files to D1 in transactions of at most ~WRITE_STATEMENTS_PER_BATCH statements. */
async function writeInGroups(db: D1Database, files: IndexedFile[]): Promise<void> {
  let group: IndexedFile[] = [];
  let size = 0;
  for (const f of files) {
    const cost = 5 + 2 * f.chunked.chunks.length + f.chunked.symbols.length;
    if (group.length && size + cost > WRITE_STATEMENTS_PER_BATCH) {
      await writeFiles(db, group);
      group = [];
      size = 0;
    }
    group.push(f);
    size += cost;
  }
  if (group.length) await writeFiles(db, group);
}

/**
 * Indexes `files` of `repo`. Per-file chunker failures are contained (counted as
 * `index_failed`); embedding and D1 failures throw, and the caller retries the whole batch.
 */
export async function indexFiles(deps: PipelineDeps, repo: string, files: PipelineFile[]): Promise<BatchResult> {
  const decoder = new TextDecoder("utf-8");
  const indexed: IndexedFile[] = [];
  const skipped: Record<string, number> = {};
  for (const f of files) {
    const text = decoder.decode(f.bytes);
    try {
      const chunked = await chunkFile(f.path, text);
      indexed.push({ repo, fileId: f.fileId, path: f.path, blobSha: f.blobSha, text, chunked });
    } catch (err) {
      console.error(`chunker failed on ${repo}:${f.path}`, err);
      skipped.index_failed = (skipped.index_failed ?? 0) + 1;
    }
  }
  const chunks = indexed.flatMap((f) => toChunkRecords(f));
  await embedChunks(deps, repo, chunks);
  try {
    await writeInGroups(deps.db, indexed);
  } catch (err) {
    // Without D1 rows nothing references these vectors; a retry upserts them again.
    await deps.vectors
      .delete(
        repo,
        chunks.map((c) => c.id),
      )
      .catch((e) => console.error("could not remove vectors of a failed batch", e));
    throw err;
  }
  return { written: indexed.map((f) => ({ path: f.path, fileId: f.fileId })), chunks: chunks.length, skipped };
}
