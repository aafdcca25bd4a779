/**
 * @module durable-objects/finalize
 *
 * The coordinator's two steps that talk to D1 and the vector store: planning a job against
 * what D1 already holds, and completing it (snapshot flip, then garbage collection).
 */
import { createVectorStore } from "../indexer/store/vectors";
import { ownPackages, ROOT_MANIFEST_PATHS, workspaceManifestPaths } from "../indexer/own-packages";
import type { RepoPackage } from "../indexer/store/contract";
import { activateSnapshot, collectGarbage, getRepoEmbedding, listKnownFileIds, listSkippedFiles, readFileTexts } from "../indexer/store/d1/snapshots";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import { loadConfig, type Env } from "../kernel/env";
import { addMember, addSkipped, type SkippedFile } from "./ledger";
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
  const { results } = await env.DB.prepare("SELECT path, file_id FROM snapshot_files WHERE repo = ? AND commit_sha = ?")
    .bind(repo, commit)
    .all<{ path: string; file_id: string }>();
  for (const r of results) addMember(sql, jobId, r.path, r.file_id);
  // The activation rewrites the snapshot's skipped rows: carry the recorded ones over.
  for (const f of await listSkippedFiles(env.DB, repo, commit)) addSkipped(sql, jobId, f);
  return {
    commit,
    filesTotal: previous?.filesTotal ?? results.length,
    filesQueued: 0,
    unchanged: results.length,
    batches: 0,
    skipped: previous?.skipped ?? {},
  };
}

/**
 * The packages a snapshot publishes (indexer/own-packages.ts), from the texts of its root
 * manifests and then of the workspace `package.json` files they declare: two D1 reads at most.
 * Malformed manifests give no package rather than an error; a failing D1 read throws, and the
 * job's completion is retried as a whole.
 */
async function snapshotPackages(db: D1Database, repo: string, members: { path: string; fileId: string }[]): Promise<RepoPackage[]> {
  const roots = await readFileTexts(
    db,
    repo,
    members.filter((m) => ROOT_MANIFEST_PATHS.includes(m.path)),
  );
  const workspace = new Set(
    workspaceManifestPaths(
      roots,
      members.map((m) => m.path),
    ),
  );
  const memberTexts = workspace.size
    ? await readFileTexts(
        db,
        repo,
        members.filter((m) => workspace.has(m.path)),
      )
    : new Map<string, string>();
  return ownPackages(new Map([...roots, ...memberTexts]));
}

/**
 * Completes a job: reads the packages the snapshot publishes, writes its membership, packages
 * and skipped files and flips `repos.active_commit` (one D1 transaction), then deletes what no
 * snapshot references. `now` (ms) is the snapshot's `indexedAt`. Idempotent; safe to retry.
 */
export async function finalizeJob(
  env: Env,
  repo: string,
  commit: string,
  members: { path: string; fileId: string }[],
  now: number,
  skipped: SkippedFile[] = [],
): Promise<void> {
  const config = loadConfig(env);
  const packages = await snapshotPackages(env.DB, repo, members);
  await activateSnapshot(env.DB, {
    repo,
    commit,
    members,
    packages,
    skipped,
    embeddingModel: config.embeddingModel,
    embeddingDims: config.embeddingDimensions,
    now,
  });
  if (!config.keepSnapshots) await collectGarbage(env.DB, createVectorStore(env, config), repo, commit);
}
