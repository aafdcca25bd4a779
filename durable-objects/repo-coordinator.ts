/**
 * @module durable-objects/repo-coordinator
 *
 * RepoCoordinator: one Durable Object per repo (`idFromName(repoId)`), owning its index jobs.
 * Being single-threaded per repo, it serialises jobs of one repo without locks, while jobs of
 * different repos run in parallel. It keeps the job state, the batch ledger and the staged
 * file bytes in its own SQLite (see ledger.ts); the work itself runs in queue consumers.
 *
 * RPC surface (everything public here is callable by any Worker holding the binding):
 * `requestIndex`, `requestArchive`, `status`, `batchFiles`, `ackBatch`, `failBatch`, `destroy`.
 * The lifecycle is `job-state.ts`; planning is `plan.ts`; completion is `finalize.ts`.
 */
import { DurableObject } from "cloudflare:workers";
import { indexJob } from "../indexer/jobs";
import type { BatchResult } from "../indexer/pipeline";
import { archiveSnapshot } from "../indexer/source/archive-snapshot";
import { checkRemote, fetchSnapshot } from "../indexer/source/git";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import type { StripOption } from "../indexer/source/archive-paths";
import { claimArchiveRepo, setRepoStatus } from "../indexer/store/d1/snapshots";
import { loadConfig, type Env } from "../kernel/env";
import { CodeSearchError, type ErrorCode } from "../kernel/errors";
import { activeSnapshotOf, finalizeJob, planJob, planUnchanged } from "./finalize";
import { allBatchesSettled, isActive, newJob, nextState, type JobEvent, type JobState } from "./job-state";
import * as ledger from "./ledger";
import type { RepoSettings, StagedFile } from "./ledger";
import type { PlanResult } from "./plan";

/** A batch not acknowledged this long after it was sent is sent again (ms). */
export const BATCH_STALL_MS = 2 * 60_000;
/** Sends of one batch before its files are given up on as `index_failed`. */
export const BATCH_MAX_SENDS = 4;
/** How often a running job checks for stalled batches (ms). */
export const STALL_CHECK_MS = 30_000;
/**
 * A fetch still `fetching` this long after it started is taken as lost (the isolate was reset
 * or evicted mid-fetch) and runs again from the alarm set before it began (ms).
 */
export const FETCH_STALL_MS = 10 * 60_000;
/** Fetch attempts of one job before it fails (a repository too large for one isolate). */
export const FETCH_MAX_ATTEMPTS = 3;
/** Queues: at most 100 messages per `sendBatch`. */
const SEND_BATCH_MAX = 100;

const JOB_KEY = "job";
const REPO_KEY = "repo";
/** Tree size and skip counts of the last plan, reused when a refresh finds the same commit. */
const LAST_PLAN_KEY = "lastPlan";
/** Fetch attempts of the current git job (see FETCH_MAX_ATTEMPTS). */
const FETCH_ATTEMPTS_KEY = "fetchAttempts";
type PlanSummary = { filesTotal: number; skipped: Record<string, number> };

export type { RepoSettings, StagedFile } from "./ledger";

/** Reads a stream into memory; throws `payload_too_large` past `maxBytes`. */
async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.byteLength;
    if (size > maxBytes) {
      throw new CodeSearchError("payload_too_large", `The archive is larger than ${maxBytes} bytes; leave build output and dependencies out, or raise the limit.`);
    }
    parts.push(part);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

export class RepoCoordinator extends DurableObject<Env> {
  #finalizing: Promise<void> | null = null;
  /**
   * True while an upload's body is being read and checked. The job is only started once the
   * archive proved valid, so without this flag concurrent uploads would all pass the "is a job
   * running" check while their bodies stream in, and each would restart the job.
   */
  #receiving = false;
  /** True while this instance runs a fetch; a `fetching` job without it was lost with an isolate. */
  #fetching = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => ledger.migrateLedger(ctx.storage.sql));
  }

  /**
   * Starts a git index job (fetch runs from the alarm, so this returns at once). If a job is
   * running, returns it unchanged. `settings.ref` replaces the stored ref when given.
   */
  async requestIndex(settings: RepoSettings): Promise<JobState> {
    const running = this.#job();
    if (running && isActive(running)) return running;
    const previous = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    const token = settings.token ?? previous?.token;
    ledger.putValue(this.#sql, REPO_KEY, { ...settings, ...(token ? { token } : {}) });
    const job = this.#start("git", settings.ref);
    await this.ctx.storage.setAlarm(Date.now());
    return job;
  }

  /**
   * Starts an archive job: reads and checks the archive now (its bytes exist only in this
   * call), then creates the D1 repo row if absent, plans and enqueues. Nothing is created or
   * replaced before the archive proved valid, so a rejected upload leaves the repo as it was.
   * The body arrives as a stream (RPC messages are size-limited) and is read up to `maxBytes`.
   * `strip` is the archive's top-folder rule (archive-paths.ts); `tracked` says the client listed
   * the files with git, so `.gitignore` is not applied again. Errors come back as values,
   * since RPC keeps only an error's message: `index_not_ready` (a job runs or another upload is
   * being read), `payload_too_large`, `archive_invalid`, `invalid_input` (the id is a git repo).
   */
  async requestArchive(
    settings: RepoSettings,
    body: ReadableStream<Uint8Array>,
    maxBytes: number,
    strip: StripOption = "auto",
    tracked = false,
  ): Promise<JobState | { error: { code: ErrorCode; message: string } }> {
    const running = this.#job();
    if (this.#receiving || (running && isActive(running))) {
      await body.cancel();
      const which = running && isActive(running) ? `job ${running.jobId}` : "another upload is being read";
      return { error: { code: "index_not_ready", message: `Repo "${settings.repo}" is being indexed (${which}); upload again when its status is ready or failed.` } };
    }
    // Set before the first await: the DO runs one call at a time only between awaits.
    this.#receiving = true;
    let snapshot: SourceSnapshot;
    try {
      const bytes = await readLimited(body, maxBytes);
      snapshot = { ...(await archiveSnapshot(bytes, { maxFileBytes: loadConfig(this.env).maxFileBytes }, strip)), tracked };
      const kind = await claimArchiveRepo(this.env.DB, settings.repo, Date.now());
      if (kind !== "archive") {
        return { error: { code: "invalid_input", message: `Repo "${settings.repo}" is a git repo; use POST /api/repos/${settings.repo}/refresh, or upload under another id.` } };
      }
    } catch (err) {
      if (err instanceof CodeSearchError) return { error: { code: err.code, message: err.message } };
      throw err;
    } finally {
      this.#receiving = false;
    }
    ledger.putValue(this.#sql, REPO_KEY, settings);
    const job = this.#start("archive", null);
    await this.#plan(job.jobId, snapshot);
    return this.#job()!;
  }

  /** The current (or last) job, or null if the repo never had one. */
  async status(): Promise<JobState | null> {
    return this.#job();
  }

  /** Files of a batch for the consumer; null when the job is not current or the batch is settled. */
  async batchFiles(jobId: string, batchId: number): Promise<StagedFile[] | null> {
    const job = this.#job();
    const batch = ledger.getBatch(this.#sql, jobId, batchId);
    if (!job || job.jobId !== jobId || job.status !== "indexing" || !batch || batch.state === "done" || batch.state === "failed") return null;
    return ledger.stagedFiles(this.#sql, jobId, batchId);
  }

  /** A consumer indexed a batch. Duplicate or stale acks are ignored. */
  async ackBatch(jobId: string, batchId: number, result: BatchResult): Promise<void> {
    if (!this.#settle(jobId, batchId, "done")) return;
    for (const f of result.written) ledger.addMember(this.#sql, jobId, f.path, f.fileId);
    const files = result.written.length + Object.values(result.skipped).reduce((a, b) => a + b, 0);
    await this.#apply({ type: "batch_done", files, chunks: result.chunks, skipped: result.skipped, failed: false });
    await this.#maybeFinalize();
  }

  /** A consumer gave up on a batch (permanent error): its files count as skipped `index_failed`. */
  async failBatch(jobId: string, batchId: number, error: string): Promise<void> {
    const batch = ledger.getBatch(this.#sql, jobId, batchId);
    if (!batch || !this.#settle(jobId, batchId, "failed")) return;
    console.error(`repo batch ${jobId}/${batchId} failed: ${error}`);
    await this.#apply({ type: "batch_done", files: batch.fileCount, chunks: 0, skipped: { index_failed: batch.fileCount }, failed: true });
    await this.#maybeFinalize();
  }

  /** Deletes this coordinator's storage and alarm (the repo is being deleted). */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    ledger.migrateLedger(this.#sql);
  }

  /** Runs a queued git job's fetch and plan, finalizes a settled job, re-sends stalled batches. */
  override async alarm(): Promise<void> {
    const job = this.#job();
    if (!job || !isActive(job)) return;
    if (job.source === "git" && (job.status === "queued" || (job.status === "fetching" && !this.#fetching))) {
      if (job.status === "queued") await this.#apply({ type: "fetch_started" });
      const attempts = (ledger.getValue<number>(this.#sql, FETCH_ATTEMPTS_KEY) ?? 0) + 1;
      ledger.putValue(this.#sql, FETCH_ATTEMPTS_KEY, job.status === "queued" ? 1 : attempts);
      if (job.status === "fetching" && attempts > FETCH_MAX_ATTEMPTS) {
        return this.#fail(job.jobId, new CodeSearchError("source_unreachable", `The fetch was lost ${FETCH_MAX_ATTEMPTS} times (the repository may be too large for one isolate's memory); index it in parts by archive upload.`));
      }
      // Set before the fetch: if this isolate dies mid-fetch, the next instance retries it.
      await this.ctx.storage.setAlarm(Date.now() + FETCH_STALL_MS);
      this.#fetching = true;
      try {
        return await this.#fetchAndPlan(job.jobId);
      } finally {
        this.#fetching = false;
      }
    }
    if (job.status === "indexing") {
      if (allBatchesSettled(job)) return this.#maybeFinalize();
      await this.#resendStalled(job);
      await this.ctx.storage.setAlarm(Date.now() + STALL_CHECK_MS);
    }
  }

  /** Fetches the job's ref (or sees the active commit is current) and plans the job. */
  async #fetchAndPlan(jobId: string): Promise<void> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
    const limits = { allowLoopback: loadConfig(this.env).allowLoopbackGitUrls };
    const source = { url: settings.url!, ref: settings.ref ?? undefined, token: settings.token, limits };
    let snapshot: SourceSnapshot;
    try {
      // Same commit as the active snapshot, same model: nothing to fetch (the fast refresh).
      const [remote, active] = await Promise.all([checkRemote(source), activeSnapshotOf(this.env, settings.repo)]);
      if (remote.commit === active.commit && active.sameModel) return this.#plan(jobId, remote.commit);
      const started = Date.now();
      snapshot = await fetchSnapshot(source);
      console.log(`repo ${settings.repo}: fetched ${snapshot.commit} (${snapshot.entries.length} entries) in ${Date.now() - started} ms`);
    } catch (err) {
      return this.#fail(jobId, err);
    }
    return this.#plan(jobId, snapshot);
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  #job(): JobState | null {
    return ledger.getValue<JobState>(this.#sql, JOB_KEY);
  }

  #start(source: JobState["source"], ref: string | null): JobState {
    const job = newJob(crypto.randomUUID(), source, ref, Date.now());
    ledger.clearJobsExcept(this.#sql, null);
    ledger.putValue(this.#sql, JOB_KEY, job);
    return job;
  }

  /** Applies an event to the stored job and mirrors a status change into D1. */
  async #apply(event: JobEvent): Promise<JobState> {
    const before = this.#job()!;
    const after = nextState(before, event, Date.now());
    ledger.putValue(this.#sql, JOB_KEY, after);
    if (after.status !== before.status && after.status !== "ready") {
      const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
      await setRepoStatus(this.env.DB, settings.repo, after.status, after.updatedAt);
    }
    return after;
  }

  async #fail(jobId: string, err: unknown): Promise<void> {
    const job = this.#job();
    if (!job || job.jobId !== jobId || !isActive(job)) return;
    const message = err instanceof CodeSearchError ? err.message : `Indexing failed: ${(err as Error)?.message ?? String(err)}`;
    if (!(err instanceof CodeSearchError)) console.error(`repo job ${jobId} failed`, err);
    await this.#apply({ type: "failed", error: message });
    ledger.clearJob(this.#sql, jobId);
  }

  /**
   * Plans the job, then enqueues its batches (or completes it at once when nothing changed).
   * `source` is a fetched snapshot, or the commit id of the active snapshot to keep as it is.
   */
  async #plan(jobId: string, source: SourceSnapshot | string): Promise<void> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
    let planned: PlanResult;
    try {
      planned =
        typeof source === "string"
          ? await planUnchanged(this.env, this.#sql, settings.repo, jobId, source, ledger.getValue<PlanSummary>(this.#sql, LAST_PLAN_KEY))
          : await planJob(this.env, this.#sql, settings.repo, jobId, source);
    } catch (err) {
      return this.#fail(jobId, err);
    }
    if (this.#job()?.jobId !== jobId) return; // destroyed or superseded while fetching
    ledger.putValue(this.#sql, LAST_PLAN_KEY, { filesTotal: planned.filesTotal, skipped: planned.skipped } satisfies PlanSummary);
    console.log(`repo ${settings.repo}: job ${jobId} planned: ${planned.filesQueued} files in ${planned.batches} batches, ${planned.unchanged} unchanged`);
    await this.#apply({ type: "planned", ...planned });
    const pending = ledger.listBatches(this.#sql, jobId, ["pending"]).map((b) => b.batchId);
    await this.#send(jobId, pending);
    if (pending.length === 0) return this.#maybeFinalize();
    await this.ctx.storage.setAlarm(Date.now() + STALL_CHECK_MS);
  }

  async #send(jobId: string, batchIds: number[]): Promise<void> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
    for (let i = 0; i < batchIds.length; i += SEND_BATCH_MAX) {
      const part = batchIds.slice(i, i + SEND_BATCH_MAX);
      await this.env.INDEX_QUEUE.sendBatch(part.map((id) => ({ body: indexJob(settings.repo, jobId, id), contentType: "json" as const })));
      ledger.markEnqueued(this.#sql, jobId, part, Date.now());
    }
  }

  /** Marks a batch settled; false if it was unknown, of another job, or already settled. */
  #settle(jobId: string, batchId: number, state: "done" | "failed"): boolean {
    const job = this.#job();
    const batch = ledger.getBatch(this.#sql, jobId, batchId);
    if (!job || job.jobId !== jobId || job.status !== "indexing" || !batch || batch.state === "done" || batch.state === "failed") return false;
    ledger.settleBatch(this.#sql, jobId, batchId, state);
    return true;
  }

  async #resendStalled(job: JobState): Promise<void> {
    const now = Date.now();
    const stalled = ledger.listBatches(this.#sql, job.jobId, ["enqueued", "pending"]).filter((b) => b.state === "pending" || now - b.enqueuedAt > BATCH_STALL_MS);
    for (const b of stalled.filter((b) => b.attempts >= BATCH_MAX_SENDS)) {
      await this.failBatch(job.jobId, b.batchId, `not acknowledged after ${b.attempts} sends`);
    }
    await this.#send(job.jobId, stalled.filter((b) => b.attempts < BATCH_MAX_SENDS).map((b) => b.batchId));
  }

  /** Completes the job once every batch is settled; concurrent callers share one run. */
  async #maybeFinalize(): Promise<void> {
    const job = this.#job();
    if (!job || job.status !== "indexing" || !allBatchesSettled(job)) return;
    this.#finalizing ??= (async () => {
      try {
        const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
        await finalizeJob(this.env, settings.repo, job.commit!, ledger.listMembers(this.#sql, job.jobId), ledger.listSkipped(this.#sql, job.jobId));
        if (this.#job()?.jobId !== job.jobId) return;
        await this.#apply({ type: "finalized" });
        ledger.clearJob(this.#sql, job.jobId);
      } catch (err) {
        // D1 or the vector store failed: try again from the alarm; the old snapshot keeps serving.
        console.error(`finalizing job ${job.jobId} failed; retrying`, err);
        await this.ctx.storage.setAlarm(Date.now() + 5_000);
      } finally {
        this.#finalizing = null;
      }
    })();
    return this.#finalizing;
  }
}
