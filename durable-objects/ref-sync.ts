/**
 * @module durable-objects/ref-sync
 *
 * Bringing a repo's extra tracked refs up to date with one ls-remote (docs/refs.md): the
 * patterns are expanded against the remote's refs, rows are added and removed
 * (ref-tracking.ts), the refs whose commit moved get a job (started, or queued behind the running
 * one), and the snapshots of removed refs are collected at once when no job runs (else when the
 * running job completes). Called by the coordinator's `syncRefs` (PATCH, webhooks, connection
 * syncs) and `pollRemote` (the schedule).
 */
import { checkPatterns, expandRefPatterns } from "../indexer/source/ref-patterns";
import { listRemoteRefs, resolveRef, type RemoteListing, type ResolvedRef } from "../indexer/source/git";
import { markRepoFailing } from "../indexer/store/d1/snapshots";
import { repoWriteDb } from "../indexer/store/shards";
import type { PollResult, RefSyncResult, RepoSettings, SyncedRef } from "../kernel/coordinator";
import { CodeSearchError } from "../kernel/errors";
import { loadConfig, type Env } from "../kernel/env";
import { activeSnapshotOf, collectKeptGarbage } from "./finalize";
import { isActive } from "./job-state";
import type { JobRunner } from "./job-runner";
import { dropRefs } from "./ref-queue";
import { applyTracking, storedPatterns, storePatterns } from "./ref-tracking";
import { sourceOf } from "./source-settings";

/** What ref-sync needs of the coordinator: its runner and its way to request a ref's job. */
export interface RefSyncHost {
  env: Env;
  runner: JobRunner;
  /**
   * Starts a job for the extra ref `target` (full name; null: the default ref) at `commit`, or
   * queues it behind the running job (a job of that ref already at that commit absorbs it:
   * job-state.ts `requestRefresh`).
   */
  request(target: string | null, settings: RepoSettings, commit: string): Promise<void>;
}

/**
 * Syncs the extra refs of a git repo against `listing`. `inputs`: new patterns as a user typed
 * them (checked and stored first: throws `invalid_input` past the limit or for one that matches
 * nothing), or null for the stored ones, whose matches past the limit are left out
 * (`overLimit`). `reindexAll` queues unchanged refs too.
 */
export async function syncExtraRefs(
  host: RefSyncHost,
  settings: RepoSettings,
  listing: RemoteListing,
  defaultRef: string,
  inputs: readonly string[] | null,
  reindexAll = false,
): Promise<RefSyncResult> {
  const { env, runner } = host;
  const repo = settings.repo;
  const config = loadConfig(env);
  const now = runner.now();
  let patterns: string[];
  if (inputs) {
    patterns = checkPatterns(inputs, listing.refs, defaultRef, config.maxRefsPerRepo);
    await storePatterns(env.DB, repo, patterns, now);
  } else patterns = await storedPatterns(env.DB, repo);
  const { refs, overLimit } = expandRefPatterns(patterns, listing.refs, defaultRef, config.maxRefsPerRepo - 1);
  if (overLimit.length) console.warn(`repo ${repo}: ${overLimit.length} refs past MAX_REFS_PER_REPO are not tracked: ${overLimit.slice(0, 5).join(", ")}`);
  const change = await applyTracking(env, repo, refs, now);
  if (change.removed.length) {
    runner.saveQueue(dropRefs(runner.queue(), new Set(change.removed)));
    const job = runner.job();
    if (!(job && isActive(job)) && !config.keepSnapshots) await collectKeptGarbage(env, await repoWriteDb(env, repo), repo);
  }
  const { sameModel } = await activeSnapshotOf(env, repo);
  const out: SyncedRef[] = [];
  for (const r of refs) {
    const row = change.rows.find((x) => x.name === r.name);
    const unchanged = !reindexAll && sameModel && row?.commit === r.commit;
    if (!unchanged) await host.request(r.name, settings, r.commit);
    out.push({ ...r, action: unchanged ? "unchanged" : "queued" });
  }
  return { patterns, defaultRef, refs: out, removed: change.removed, overLimit };
}

/**
 * The scheduled check of a git repo with no job running (the coordinator's `pollRemote`): one
 * ls-remote; a job for the default ref when its commit differs from the active snapshot (or the
 * embedding model changed), then the extra refs synced (`refs`: queued and removed ones, absent
 * when the repo tracks none). A failing ls-remote is recorded as the reason the snapshot is stale
 * and returned as `error`.
 */
export async function pollRefs(host: RefSyncHost, settings: RepoSettings): Promise<PollResult> {
  let listing: RemoteListing;
  let remote: ResolvedRef;
  try {
    listing = await listRemoteRefs(await sourceOf(host.env, settings));
    remote = resolveRef(listing, settings.ref ?? undefined, settings.url!);
  } catch (err) {
    const message = err instanceof CodeSearchError ? err.message : String(err);
    await markRepoFailing(host.env.DB, settings.repo, message, host.runner.now());
    return { kind: "error", message };
  }
  const active = await activeSnapshotOf(host.env, settings.repo);
  const changed = !(remote.commit === active.commit && active.sameModel);
  if (changed) await host.request(null, settings, remote.commit);
  const jobId = host.runner.job()?.jobId ?? "";
  let refs: PollResult["refs"];
  try {
    const synced = await syncExtraRefs(host, settings, listing, remote.ref, null);
    if (synced.refs.length || synced.removed.length)
      refs = { queued: synced.refs.filter((r) => r.action === "queued").map((r) => r.name), removed: synced.removed };
  } catch (err) {
    console.error(`repo ${settings.repo}: syncing tracked refs failed`, err);
  }
  const extra = refs ? { refs } : {};
  return changed ? { kind: "started", commit: remote.commit, jobId, ...extra } : { kind: "unchanged", commit: remote.commit, ...extra };
}

/** `syncExtraRefs` after an ls-remote with the stored settings (the coordinator's `syncRefs`). Throws coded errors. */
export async function syncRefsNow(host: RefSyncHost, settings: RepoSettings, inputs: readonly string[] | null, reindexAll: boolean): Promise<RefSyncResult> {
  const listing = await listRemoteRefs(await sourceOf(host.env, settings));
  const remote = resolveRef(listing, settings.ref ?? undefined, settings.url!);
  return syncExtraRefs(host, settings, listing, remote.ref, inputs, reindexAll);
}
