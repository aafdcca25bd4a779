/**
 * @module durable-objects/finalize
 *
 * The coordinator's two steps that talk to D1 and the vector store: planning a job against
 * what D1 already holds, and completing it (snapshot flip, then garbage collection).
 */
import { createVectorStore } from "../indexer/store/vectors";
import { activateSnapshot, collectGarbage, getRepoEmbedding, listKnownFileIds } from "../indexer/store/d1/snapshots";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import { loadConfig, type Env } from "../worker/env";
import { addMember } from "./ledger";
import { planSnapshot, type PlanResult } from "./plan";

/** The repo's active snapshot and whether its vectors were built by the configured model. */
export async function activeSnapshotOf(env: Env, repo: string): Promise<{ commit: string | null; sameModel: boolean }> {
  const config = loadConfig(env);
  const row = await env.DB.prepare("SELECT active_commit, embedding_model, embedding_dims FROM repos WHERE id = ?")
    .bind(repo)
    .first<{ active_commit: string | null; embedding_model: string | null; embedding_dims: number | null }>();
  const sameModel = !row?.embedding_model || (row.embedding_model === config.embeddingModel && row.embedding_dims === config.embeddingDimensions);
  return { commit: row?.active_commit ?? null, sameModel };
}

/**
 * Plans a job: compares the snapshot with the file versions D1 already has. When the embedding
 * model changed since the last snapshot, nothing counts as known, so every file is re-embedded.
 */
export async function planJob(env: Env, sql: SqlStorage, repo: string, jobId: string, snapshot: SourceSnapshot): Promise<PlanResult> {
  const config = loadConfig(env);
  const embedding = await getRepoEmbedding(env.DB, repo);
  const reembed = !!embedding?.model && (embedding.model !== config.embeddingModel || embedding.dims !== config.embeddingDimensions);
  const known = reembed ? new Set<string>() : await listKnownFileIds(env.DB, repo);
  return planSnapshot(sql, snapshot, { repo, jobId, maxFileBytes: config.maxFileBytes, known });
}

/**
 * Plans a job whose commit is already the active snapshot (and built by the configured model):
 * the snapshot's members are taken over as they are, without fetching. `previous` carries the
 * tree size and skip counts of the job that built the snapshot.
 */
export async function planUnchanged(
  env: Env,
  sql: SqlStorage,
  repo: string,
  jobId: string,
  commit: string,
  previous: { filesTotal: number; skipped: Record<string, number> } | null,
): Promise<PlanResult> {
  const { results } = await env.DB.prepare("SELECT path, file_id FROM snapshot_files WHERE repo = ? AND commit_sha = ?").bind(repo, commit).all<{ path: string; file_id: string }>();
  for (const r of results) addMember(sql, jobId, r.path, r.file_id);
  return { commit, filesTotal: previous?.filesTotal ?? results.length, filesQueued: 0, unchanged: results.length, batches: 0, skipped: previous?.skipped ?? {} };
}

/**
 * Completes a job: writes the snapshot's membership and flips `repos.active_commit` (one D1
 * transaction), then deletes what no snapshot references. Idempotent; safe to retry.
 */
export async function finalizeJob(env: Env, repo: string, commit: string, members: { path: string; fileId: string }[]): Promise<void> {
  const config = loadConfig(env);
  await activateSnapshot(env.DB, { repo, commit, members, embeddingModel: config.embeddingModel, embeddingDims: config.embeddingDimensions, now: Date.now() });
  await collectGarbage(env.DB, createVectorStore(env, config), repo, commit);
}
