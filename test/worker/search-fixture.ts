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

/** Indexes `files` as snapshot `commit` of `repo` and makes it active. Returns the chunk ids by path. */
export async function indexFixture(
  repo: string,
  commit: string,
  files: FixtureFile[],
  opts: { embed?: boolean; activate?: boolean; model?: string } = {},
): Promise<void> {
  const now = Date.now();
  await env.DB.prepare("INSERT OR IGNORE INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES (?, ?, 'archive', 'indexing', ?, ?)")
    .bind(repo, repo, now, now)
    .run();
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
  const records = await writeFiles(env.DB, indexed);
  const config = loadConfig(env);
  if (opts.embed !== false) {
    const embedder = createEmbeddingProvider(env, config);
    const vectors = await embedder.embed(
      records.map((r) => chunkIndexText(r.path, r)),
      "document",
    );
    await createVectorStore(env, config).upsert(
      repo,
      records.map((r, i) => ({ id: r.id, vector: vectors[i], metadata: { path: r.path, language: r.language } })),
    );
  }
  await env.DB.batch([
    ...indexed.map((f) =>
      env.DB.prepare("INSERT OR REPLACE INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(repo, commit, f.path, f.fileId),
    ),
    ...snapshotStatisticsStatements(env.DB, repo, commit),
  ]);
  if (opts.activate !== false) {
    await env.DB.prepare("UPDATE repos SET status = 'ready', active_commit = ?, active_indexed_at = ?, embedding_model = ?, embedding_dims = ? WHERE id = ?")
      .bind(commit, now, opts.model ?? config.embeddingModel, config.embeddingDimensions, repo)
      .run();
  }
}
