/**
 * @module durable-objects/finalize
 *
 * The coordinator's two steps that talk to D1 and the vector store: planning a job against
 * what D1 already holds, and completing it (snapshot flip, then garbage collection).
 */
import { createVectorStore } from "../indexer/store/vectors";
import { ownPackages, ROOT_MANIFEST_PATHS, workspaceManifestPaths } from "../indexer/own-packages";
import type { RepoPackage, VectorStore } from "../indexer/store/contract";
import {
  activateSnapshot,
  collectGarbage,
  deleteRepoData,
  getRepoEmbedding,
  listKnownFileIds,
  listSkippedFiles,
  readFileTexts,
} from "../indexer/store/d1/snapshots";
import { ensureShardRow, flipCatalog } from "../indexer/store/d1/shard-rows";
import { defaultRefStatements, extraRefReadyStatement, keptCommits, mirrorRefStatement } from "../indexer/store/d1/repo-refs";
import { placeRepo } from "../indexer/store/shard-placement";
import { repoPlacement, shardDb } from "../indexer/store/shards";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import { loadConfig, type Env } from "../kernel/env";
import { addMember, addSkipped, type SkippedFile } from "./ledger";
import { planSnapshot, type PlanResult } from "./plan";

/**
 * The repo's active snapshot and whether its vectors were built by the configured model. During a
 * move (`moving_to` set) there is none to keep: the job must re-index into the target shard.
 */
export async function activeSnapshotOf(env: Env, repo: string): Promise<{ commit: string | null; sameModel: boolean }> {
  const config = loadConfig(env);
  const row = await env.DB.prepare("SELECT active_commit, embedding_model, embedding_dims, moving_to FROM repos WHERE id = ?")
    .bind(repo)
    .first<{ active_commit: string | null; embedding_model: string | null; embedding_dims: number | null; moving_to: number | null }>();
  const sameModel = !row?.embedding_model || (row.embedding_model === config.embeddingModel && row.embedding_dims === config.embeddingDimensions);
  return { commit: row?.moving_to === null || row?.moving_to === undefined ? (row?.active_commit ?? null) : null, sameModel };
}

/**
 * Whether `commit` already has a complete snapshot of `repo` that a job can take over without
 * fetching: the active one or any tracked ref's (a new branch at main's commit), built by the
 * configured model, and no move under way (a move re-indexes into its target).
 */
export async function snapshotReusable(env: Env, repo: string, commit: string): Promise<boolean> {
  const active = await activeSnapshotOf(env, repo);
  if (!active.sameModel) return false;
  if (active.commit === commit) return true;
  const placement = await repoPlacement(env, repo);
  if (placement.writeShard !== placement.shard) return false;
  const row = await shardDb(env, placement.shard).prepare("SELECT 1 AS x FROM snapshot_stats WHERE repo = ? AND commit_sha = ?").bind(repo, commit).first();
  return row !== null;
}

/**
 * Plans a job: places the repo on a shard if it has none, then compares the snapshot with the
 * file versions that shard already has. When the embedding
 * model changed since the last snapshot, nothing counts as known, so every file is re-embedded.
 */
export async function planJob(env: Env, sql: SqlStorage, repo: string, jobId: string, snapshot: SourceSnapshot): Promise<PlanResult> {
  const config = loadConfig(env);
  await placeRepo(env, repo); // a repo registered before shards existed, or an archive's first upload
  // What the shard the job writes into holds (a move's target holds nothing yet).
  const db = shardDb(env, (await repoPlacement(env, repo)).writeShard);
  const embedding = await getRepoEmbedding(db, repo);
  const reembed = !!embedding?.model && (embedding.model !== config.embeddingModel || embedding.dims !== config.embeddingDimensions);
  const known = reembed ? new Set<string>() : await listKnownFileIds(db, repo);
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
  const db = shardDb(env, (await repoPlacement(env, repo)).shard);
  const { results } = await db
    .prepare("SELECT path, file_id FROM snapshot_files WHERE repo = ? AND commit_sha = ?")
    .bind(repo, commit)
    .all<{ path: string; file_id: string }>();
  for (const r of results) addMember(sql, jobId, r.path, r.file_id);
  // The activation rewrites the snapshot's skipped rows: carry the recorded ones over.
  for (const f of await listSkippedFiles(db, repo, commit)) addSkipped(sql, jobId, f);
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

/** Which ref a completed snapshot is for (docs/refs.md). */
export interface FinalizeRef {
  /** Full ref name (`refs/heads/main`); null for an archive, which has no refs. */
  name: string | null;
  /** An extra tracked ref: its snapshot is written beside the active one, which is not flipped. */
  extra: boolean;
}

/**
 * Completes a job: reads the packages the snapshot publishes and writes its membership,
 * packages and skipped files (one D1 transaction in the shard the job wrote into). For the
 * default ref (or an archive) that transaction flips `repos.active_commit` and the default
 * `repo_refs` row, and the flip is recorded in the catalog (which ends a move: the target serves
 * from then on and the old shard's copy is deleted). For an extra ref only its `repo_refs` row
 * moves to the new commit (skipped when the ref was untracked meanwhile). Then deletes what no
 * kept snapshot references. `now` (ms) is the snapshot's `indexedAt`. Idempotent; safe to retry.
 */
export async function finalizeJob(
  env: Env,
  repo: string,
  commit: string,
  members: { path: string; fileId: string }[],
  now: number,
  skipped: SkippedFile[] = [],
  ref: FinalizeRef = { name: null, extra: false },
): Promise<void> {
  const config = loadConfig(env);
  const { writeShard } = await repoPlacement(env, repo);
  const db = shardDb(env, writeShard);
  await ensureShardRow(env.DB, db, repo);
  const activation = { repo, commit, members, skipped, embeddingModel: config.embeddingModel, embeddingDims: config.embeddingDimensions, now };
  if (ref.extra && ref.name) {
    const tracked = await env.DB.prepare("SELECT pattern FROM repo_refs WHERE repo = ? AND name = ? AND is_default = 0")
      .bind(repo, ref.name)
      .first<{ pattern: string | null }>();
    if (tracked) {
      const packages = await snapshotPackages(db, repo, members);
      const mirror =
        db === env.DB ? extraRefReadyStatement(db, repo, ref.name, commit, now) : mirrorRefStatement(db, repo, ref.name, tracked.pattern, commit, now);
      await activateSnapshot(db, { ...activation, packages, flip: false, also: [mirror] });
      if (db !== env.DB) await extraRefReadyStatement(env.DB, repo, ref.name, commit, now).run();
    }
  } else {
    const packages = await snapshotPackages(db, repo, members);
    await activateSnapshot(db, { ...activation, packages, also: ref.name ? defaultRefStatements(db, repo, ref.name, commit, now) : [] });
    const previous = await flipCatalog(env.DB, {
      repo,
      commit,
      embeddingModel: config.embeddingModel,
      embeddingDims: config.embeddingDimensions,
      now,
      shard: writeShard,
      also: ref.name && db !== env.DB ? defaultRefStatements(env.DB, repo, ref.name, commit, now) : [],
    });
    if (previous !== null) await dropShardCopy(env, previous, repo);
  }
  if (!config.keepSnapshots) await collectKeptGarbage(env, db, repo);
}

/** Garbage collection of `repo` in `db`, keeping the active snapshot and every tracked ref's (as `db`'s rows say). */
export async function collectKeptGarbage(env: Env, db: D1Database, repo: string): Promise<number> {
  return collectGarbage(db, createVectorStore(env, loadConfig(env), db), repo, await keptCommits(db, repo));
}

/**
 * Deletes the copy of `repo` a move left in shard `n`: its rows and, with the local vector
 * store, its `local_vectors` there. Vectorize's namespace is shared by both copies (the same
 * chunk ids), so no vector is deleted from it. Never touches the catalog.
 */
async function dropShardCopy(env: Env, n: number, repo: string): Promise<void> {
  const config = loadConfig(env);
  const old = shardDb(env, n);
  if (old === env.DB) return;
  const keep: VectorStore = { upsert: async () => {}, query: async () => [], delete: async () => {} };
  await deleteRepoData(old, config.vectorStore === "local" ? createVectorStore(env, config, old) : keep, repo);
}
