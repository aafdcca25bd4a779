/**
 * @module durable-objects/repo-coordinator
 *
 * RepoCoordinator: one Durable Object per repo (`idFromName(repoId)`), owning its index jobs.
 * Being single-threaded per repo, it serialises jobs of one repo without locks, while jobs of
 * different repos run in parallel. It keeps the job state, the batch ledger and the staged
 * file bytes in its own SQLite (see ledger.ts); the work itself runs in queue consumers.
 *
 * A git repo tracks several refs (docs/refs.md): its default ref and the extra refs its
 * patterns match. One job runs at a time and carries its ref; requests for other refs wait in a
 * queue (ref-queue.ts) and start, in order, as jobs end. Each ref's job ends in its own snapshot.
 *
 * RPC surface (everything public here is callable by any Worker holding the binding):
 * `requestIndex`, `requestArchive`, `status`, `batchFiles`, `renewBatch`, `ackBatch`, `failBatch`,
 * `checkSource`, `pollRemote`, `syncRefs`, `destroy`.
 * The lifecycle is `job-state.ts`; the internals are `job-runner.ts`; planning is `plan.ts`;
 * completion is `finalize.ts`; the refs are `ref-sync.ts`.
 */
import { DurableObject } from "cloudflare:workers";
import type { BatchResult } from "../indexer/pipeline";
import type { ResolvedRef } from "../indexer/source/git";
import type { StripOption } from "../indexer/source/archive-paths";
import { setRefStatus } from "../indexer/store/d1/repo-refs";
import type { Env } from "../kernel/env";
import type { IndexRequestOptions, JobView, PollResult, RefSyncResult, RepoCoordinatorRpc, SourceOverrides, SyncRefsOptions } from "../kernel/coordinator";
import { CodeSearchError } from "../kernel/errors";
import { takeArchive } from "./archive-intake";
import { systemClock, type Clock } from "./clock";
import { allBatchesSettled, fetchStep, isActive, requestRefresh, STALL_CHECK_MS, waitingOf, type JobState } from "./job-state";
import { JobRunner, targetOf } from "./job-runner";
import * as ledger from "./ledger";
import type { RepoSettings, StagedFile } from "./ledger";
import { enqueueRef } from "./ref-queue";
import { pollRefs, syncRefsNow } from "./ref-sync";
import { checkStoredSource, failure, type Failure } from "./source-check";
import { readSettings, REPO_KEY, saveSettings } from "./source-settings";

/** Fetch attempts of the current git job (see FETCH_MAX_ATTEMPTS). */
const FETCH_ATTEMPTS_KEY = "fetchAttempts";

export type { RepoSettings, StagedFile } from "./ledger";
export {
  BATCH_BEAT_MISSED_MS,
  BATCH_LEASE_MS,
  BATCH_MAX_SENDS,
  BATCH_QUEUE_WAIT_MS,
  FETCH_HEARTBEAT_MS,
  FETCH_MAX_ATTEMPTS,
  STALL_CHECK_MS,
} from "./job-state";

/** A job as `status()` shows it: the stored state plus what it waits for, if it is stuck. */
export type { IndexRequestOptions, JobView, PollResult, SourceOverrides } from "../kernel/coordinator";

export class RepoCoordinator extends DurableObject<Env> implements RepoCoordinatorRpc {
  /**
   * True while an upload's body is being read and checked. The job is only started once the
   * archive proved valid, so without this flag concurrent uploads would all pass the "is a job
   * running" check while their bodies stream in, and each would restart the job.
   */
  #receiving = false;
  /** True while this instance runs a fetch; a `fetching` job without it was lost with an isolate. */
  #fetching = false;
  #runner: JobRunner;
  /**
   * Where every time the coordinator acts on comes from. A test replaces it through
   * `runInDurableObject` (instance fields are not reachable over RPC, so callers cannot).
   */
  clock: Clock = systemClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#runner = new JobRunner(
      ctx,
      () => this.env,
      () => this.clock,
    );
    void ctx.blockConcurrencyWhile(async () => ledger.migrateLedger(ctx.storage.sql));
  }

  /**
   * Starts a git index job of the default ref (the fetch runs from the alarm, so this returns at
   * once). While a job of that ref runs, no second job starts and the request is not lost: a job
   * that has not fetched yet covers it, a later one gets one `pending` follow-up that starts when
   * it ends (see `requestRefresh`); while another ref's job runs, it waits in the queue.
   * `settings.ref` replaces the stored ref when given, `settings.token` the stored token (the
   * caller checked it against the remote first).
   */
  async requestIndex(settings: RepoSettings, options: IndexRequestOptions = {}): Promise<JobView> {
    await saveSettings(this.env, this.#sql, settings);
    await this.#request(null, settings, options.commit ?? null);
    return this.status() as Promise<JobView>;
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
  ): Promise<JobState | Failure> {
    const running = this.#runner.job();
    if (this.#receiving || (running && isActive(running))) {
      await body.cancel();
      const which = running && isActive(running) ? `job ${running.jobId}` : "another upload is being read";
      return {
        error: { code: "index_not_ready", message: `Repo "${settings.repo}" is being indexed (${which}); upload again when its status is ready or failed.` },
      };
    }
    // Set before the first await: the DO runs one call at a time only between awaits.
    this.#receiving = true;
    let snapshot;
    try {
      snapshot = await takeArchive(this.env, settings.repo, body, maxBytes, strip, tracked, this.clock.now());
    } finally {
      this.#receiving = false;
    }
    if ("error" in snapshot) return snapshot;
    ledger.putValue(this.#sql, REPO_KEY, settings);
    const job = this.#runner.start("archive", null, null, this.clock.now());
    await this.#runner.plan(job.jobId, snapshot);
    return this.#runner.job()!;
  }

  /**
   * The current (or last) job, or null if the repo never had one, with `waiting` set when a
   * running job is stuck (a fetch lost in a crash, batches not acknowledged) and when the
   * coordinator retries (`waiting.retryAt`, ms).
   */
  async status(): Promise<JobView | null> {
    const job = this.#runner.job();
    if (!job) return null;
    const batches = job.status === "indexing" ? this.#runner.sendStates(job.jobId, ["enqueued"]) : [];
    const waiting = waitingOf(job, { fetchInFlight: this.#fetching, batches, alarmAt: await this.ctx.storage.getAlarm(), now: this.clock.now() });
    return { ...job, waiting };
  }

  /**
   * Files of a batch for the consumer, which takes the batch's lease (`BATCH_LEASE_MS`) and
   * renews it with `renewBatch` while it works; null when the job is not current or the batch
   * is settled.
   */
  async batchFiles(jobId: string, batchId: number): Promise<StagedFile[] | null> {
    if (!this.#runner.isOpen(jobId, batchId)) return null;
    ledger.markStarted(this.#sql, jobId, batchId, this.clock.now());
    return ledger.stagedFiles(this.#sql, jobId, batchId);
  }

  /**
   * A consumer's heartbeat (every `BATCH_HEARTBEAT_MS`): renews the batch's lease. Returns
   * false when the batch no longer needs the work (settled, or its job is not current).
   */
  async renewBatch(jobId: string, batchId: number): Promise<boolean> {
    if (!this.#runner.isOpen(jobId, batchId)) return false;
    ledger.markStarted(this.#sql, jobId, batchId, this.clock.now());
    return true;
  }

  /** A consumer indexed a batch. Duplicate or stale acks are ignored (false); true when it settled the batch. */
  async ackBatch(jobId: string, batchId: number, result: BatchResult): Promise<boolean> {
    if (!this.#runner.settle(jobId, batchId, "done")) return false;
    for (const f of result.written) ledger.addMember(this.#sql, jobId, f.path, f.fileId);
    const files = result.written.length + Object.values(result.skipped).reduce((a, b) => a + b, 0);
    await this.#runner.apply({ type: "batch_done", files, chunks: result.chunks, skipped: result.skipped, failed: false });
    await this.#runner.maybeFinalize();
    return true;
  }

  /** A consumer gave up on a batch (permanent error): its files count as skipped `index_failed`. */
  async failBatch(jobId: string, batchId: number, error: string): Promise<void> {
    const batch = ledger.getBatch(this.#sql, jobId, batchId);
    if (!batch || !this.#runner.settle(jobId, batchId, "failed")) return;
    console.error(`repo batch ${jobId}/${batchId} failed: ${error}`);
    await this.#runner.apply({ type: "batch_done", files: batch.fileCount, chunks: 0, skipped: { index_failed: batch.fileCount }, failed: true });
    await this.#runner.maybeFinalize();
  }

  /** Deletes this coordinator's storage and alarm (the repo is being deleted). */
  async destroy(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    ledger.migrateLedger(this.#sql);
  }

  /**
   * Runs a queued git job's fetch and plan (or retries one lost with its isolate), finalizes a
   * settled job, re-sends stalled batches. The decisions are `fetchStep` and `stallStep`.
   */
  override async alarm(): Promise<void> {
    const job = this.#runner.job();
    if (!job || !isActive(job)) return;
    const now = this.clock.now();
    const step = fetchStep(job, { inFlight: this.#fetching, attempts: ledger.getValue<number>(this.#sql, FETCH_ATTEMPTS_KEY) ?? 0, now });
    switch (step.kind) {
      case "heartbeat":
        return this.ctx.storage.setAlarm(step.alarmAt);
      case "give_up":
        return this.#runner.fail(job.jobId, new CodeSearchError("source_unreachable", step.error));
      case "fetch":
        if (step.startEvent) await this.#runner.apply({ type: "fetch_started" });
        ledger.putValue(this.#sql, FETCH_ATTEMPTS_KEY, step.attempt);
        // Set before the fetch: if this isolate dies mid-fetch, the next instance retries it.
        await this.ctx.storage.setAlarm(step.alarmAt);
        this.#fetching = true;
        try {
          return await this.#runner.fetchAndPlan(job.jobId);
        } finally {
          this.#fetching = false;
        }
      case "none":
        break;
    }
    if (job.status === "indexing") {
      if (allBatchesSettled(job)) return this.#runner.maybeFinalize();
      await this.#runner.resendStalled(job, (j, b, e) => this.failBatch(j, b, e));
      await this.ctx.storage.setAlarm(this.clock.now() + STALL_CHECK_MS);
    }
  }

  /**
   * Runs an ls-remote with the stored settings, `overrides` applied (a new token is tried before
   * it replaces the stored one). Errors come back as values (RPC keeps only messages):
   * `source_unreachable` (with "rejected" vs "asked for credentials"), `not_a_repository`,
   * `ref_not_found`, `repo_not_found` when nothing is stored.
   */
  async checkSource(overrides: SourceOverrides = {}): Promise<ResolvedRef | Failure> {
    return checkStoredSource(this.env, readSettings(this.#sql), overrides);
  }

  /**
   * The scheduled check (worker/schedule): one ls-remote, and a job only for a ref whose commit
   * differs from its snapshot (or when the embedding model changed): the default ref first, then
   * the extra refs (`refs`: queued and removed ones). Nothing happens while a job runs. Returns
   * what it did; a failing ls-remote comes back as `error` (and is recorded as the reason the
   * snapshot is stale).
   */
  async pollRemote(): Promise<PollResult> {
    const settings = readSettings(this.#sql);
    if (settings?.sourceKind !== "git" || !settings.url) return { kind: "skipped", reason: "not a git repo" };
    const running = this.#runner.job();
    if (running && isActive(running)) return { kind: "skipped", reason: `job ${running.jobId} is ${running.status}` };
    return pollRefs(this.#refHost(), settings);
  }

  /**
   * Brings the extra tracked refs in line with the remote (docs/refs.md): with `patterns`, those
   * are checked against the remote's refs and stored first (`invalid_input` for one that matches
   * nothing, or past MAX_REFS_PER_REPO); without, the stored ones are used. New refs and refs
   * whose commit moved get a job (queued behind the running one); refs gone from the remote or
   * no longer matched are untracked and their snapshots collected. Errors come back as values:
   * `invalid_input` (also for an archive: no refs), and the ls-remote's.
   */
  async syncRefs(patterns: string[] | null = null, options: SyncRefsOptions = {}): Promise<RefSyncResult | Failure> {
    const settings = readSettings(this.#sql);
    if (settings?.sourceKind !== "git" || !settings.url) {
      return { error: { code: "invalid_input", message: "refs: archive: no refs. An uploaded archive is one snapshot; register a git URL to track refs." } };
    }
    try {
      return await syncRefsNow(this.#refHost(), settings, patterns, options.reindexAll === true);
    } catch (err) {
      return failure(err);
    }
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  #refHost() {
    return {
      env: this.env,
      runner: this.#runner,
      request: (target: string, settings: RepoSettings, commit: string) => this.#request(target, settings, commit),
    };
  }

  /**
   * A job for `target` (an extra ref's full name, or null for the default ref) at `commit` (null:
   * the tip): started when no job runs, folded into the running job of the same ref
   * (`requestRefresh`), else queued behind it.
   */
  async #request(target: string | null, settings: RepoSettings, commit: string | null): Promise<void> {
    const now = this.clock.now();
    const job = this.#runner.job();
    if (job && isActive(job) && targetOf(job) !== target) {
      this.#runner.saveQueue(enqueueRef(this.#runner.queue(), { target, commit, requestedAt: now }));
      await setRefStatus(this.env.DB, settings.repo, target, "queued", now);
      return;
    }
    const decision = requestRefresh(job, commit, now);
    if (decision.kind !== "start") {
      const absorbed = decision.kind === "absorbed" && decision.job.status === "queued" && target === null;
      this.#runner.saveJob(absorbed ? { ...decision.job, ref: settings.ref } : decision.job);
      return;
    }
    this.#runner.start("git", target ?? settings.ref, commit, now, target);
    await this.ctx.storage.setAlarm(now);
  }
}
