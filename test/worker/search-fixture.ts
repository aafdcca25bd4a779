/**
 * Test fixture for search: writes file versions through `writeFiles`, embeds their chunks with
 * the configured local provider into the local vector store, adds `snapshot_files` rows and
 * flips `repos.active_commit`, as the ingestion pipeline does.
 */
import { env } from "cloudflare:test";
import { createEmbeddingProvider } from "../../indexer/embed";
import { chunkIndexText, fileId, type Chunk, type ChunkedFile } from "../../indexer/store/contract";
import { snapshotStatisticsStatements } from "../../indexer/store/d1/snapshots";
import { writeFiles } from "../../indexer/store/d1/write-files";
import { ensureShardRow } from "../../indexer/store/d1/shard-rows";
import { placeRepo } from "../../indexer/store/shard-placement";
import { shardDb } from "../../indexer/store/shards";
import { createVectorStore } from "../../indexer/store/vectors";
import { loadConfig } from "../../kernel/env";

/** A file of the fixture: path, language and its chunks (symbols derived from named chunks). */
export interface FixtureFile {
  path: string;
  language?: string;
  chunks: Chunk[];
}

/** A chunk of `lines` lines starting at `start`, with `content` padded to that many lines. */
export function chunk(kind: Chunk["kind"], start: number, content: string, symbol?: string, container?: string): Chunk {
  const n = content.split("\n").length;
  return { kind, startLine: start, endLine: start + n - 1, content, symbol, container, signature: content.split("\n")[0] };
}

/**
 * Indexes `files` as snapshot `commit` of `repo` and makes it active, in the shard `opts.shard`
 * (default: where placement puts it; docs/storage.md, "Shards"), as a job would: rows and the
 * mirror `repos` row in the shard, the flip in both.
 */
export async function indexFixture(
  repo: string,
  commit: string,
  files: FixtureFile[],
  opts: { embed?: boolean; activate?: boolean; model?: string; shard?: number } = {},
): Promise<void> {
  const now = Date.now();
  await env.DB.prepare("INSERT OR IGNORE INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES (?, ?, 'archive', 'indexing', ?, ?)")
    .bind(repo, repo, now, now)
    .run();
  if (opts.shard !== undefined) await env.DB.prepare("UPDATE repos SET shard = ? WHERE id = ? AND shard IS NULL").bind(opts.shard, repo).run();
  const db = shardDb(env, await placeRepo(env, repo));
  await ensureShardRow(env.DB, db, repo);
  const indexed = await Promise.all(
    files.map(async (f) => {
      const text = f.chunks.map((c) => c.content).join("\n");
      const blobSha = (await fileId("blob", f.path, text)).padEnd(40, "0");
      const chunked: ChunkedFile = {
        language: f.language ?? "typescript",
        chunks: f.chunks,
        imports: [],
        symbols: f.chunks
          .filter((c) => c.symbol)
          .map((c) => ({ name: c.symbol!, kind: c.kind, container: c.container, startLine: c.startLine, endLine: c.endLine })),
      };
      return { repo, path: f.path, blobSha, text, fileId: await fileId(repo, f.path, blobSha), chunked };
    }),
  );
  const records = await writeFiles(db, indexed);
  const config = loadConfig(env);
  if (opts.embed !== false) {
    const embedder = createEmbeddingProvider(env, config);
    const vectors = await embedder.embed(
      records.map((r) => chunkIndexText(r.path, r)),
      "document",
    );
    await createVectorStore(env, config, db).upsert(
      repo,
      records.map((r, i) => ({ id: r.id, vector: vectors[i], metadata: { path: r.path, language: r.language } })),
    );
  }
  await db.batch([
    ...indexed.map((f) =>
      db.prepare("INSERT OR REPLACE INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(repo, commit, f.path, f.fileId),
    ),
    ...snapshotStatisticsStatements(db, repo, commit),
  ]);
  if (opts.activate !== false) {
    for (const target of new Set([db, env.DB])) {
      await target
        .prepare("UPDATE repos SET status = 'ready', active_commit = ?, active_indexed_at = ?, embedding_model = ?, embedding_dims = ? WHERE id = ?")
        .bind(commit, now, opts.model ?? config.embeddingModel, config.embeddingDimensions, repo)
        .run();
    }
  }
}
