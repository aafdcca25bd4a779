/**
 * @module durable-objects/job-runner
 *
 * The RepoCoordinator's internals: starting a job (one at a time, the refs waiting in a queue,
 * ref-queue.ts), fetching and planning it, sending and settling its batches, completing it, and
 * mirroring its status into D1 (`repos.status` for the default ref, `repo_refs.status` for every
 * tracked ref). A plain object the Durable Object holds in a `#private` field, so none of these
 * methods is reachable over RPC (DESIGN: "the RPC surface is deliberate").
 */
import { indexJob } from "../indexer/jobs";
import { describeRecorded, historyMissing, recordHistory } from "../indexer/history/record";
import { checkRemote, fetchSnapshot, type GitSourceOptions, type ResolvedRef } from "../indexer/source/git";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import { setRefStatus, type RefStatus } from "../indexer/store/d1/repo-refs";
import { markRepoFailing, setRepoStatus } from "../indexer/store/d1/snapshots";
import { loadConfig, type Env } from "../kernel/env";
import { CodeSearchError } from "../kernel/errors";
import type { Clock } from "./clock";
import { finalizeJob, planJob, planUnchanged, snapshotReusable } from "./finalize";
import {
  allBatchesSettled,
  followUpOf,
  isActive,
  newJob,
  nextState,
  stallStep,
  STALL_CHECK_MS,
  type BatchSendState,
  type JobEvent,
  type JobState,
} from "./job-state";
import * as ledger from "./ledger";
import type { RepoSettings } from "./ledger";
import type { PlanResult } from "./plan";
import { enqueueRef, takeNext, type RefRequest } from "./ref-queue";
import { readSettings, sourceOf } from "./source-settings";

/** Queues: at most 100 messages per `sendBatch`. */
const SEND_BATCH_MAX = 100;
const JOB_KEY = "job";
/** Refs waiting for the running job to end (ref-queue.ts). */
const QUEUE_KEY = "refQueue";
/** Tree size and skip counts of the last plan, reused when a refresh finds the same commit. */
const LAST_PLAN_KEY = "lastPlan";
type PlanSummary = { commit?: string; filesTotal: number; skipped: Record<string, number> };

/** The job's ref: the extra tracked ref's name, or null for the default ref. */
export function targetOf(job: JobState): string | null {
  return job.trackedRef ?? null;
}

function refStatusOf(status: JobState["status"]): RefStatus {
  return status === "queued" ? "queued" : status === "ready" ? "ready" : status === "failed" ? "failed" : "indexing";
}

/** Runs a repo's jobs inside its coordinator (see the module note). */
export class JobRunner {
  #finalizing: Promise<void> | null = null;
  /** `jobId/batchId` of the batches this instance sent (`BatchSendState.sentByThisInstance`). */
  #sentHere = new Set<string>();
  /** The history step `#fetchAndPlanJob` leaves for `#recordHistoryStep`. */
  #history: { source: GitSourceOptions; remote: ResolvedRef; defaultRef: boolean } | null = null;

  /** `env` and `clock` are read through getters: a test replaces the coordinator's (`runInDurableObject`). */
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly envOf: () => Env,
    private readonly clock: () => Clock,
  ) {}

  get env(): Env {
    return this.envOf();
  }

  get sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  now(): number {
    return this.clock().now();
  }

  job(): JobState | null {
    return ledger.getValue<JobState>(this.sql, JOB_KEY);
  }

  saveJob(job: JobState): void {
    ledger.putValue(this.sql, JOB_KEY, job);
  }

  /** Refs waiting for a job, oldest first. */
  queue(): RefRequest[] {
    return ledger.getValue<RefRequest[]>(this.sql, QUEUE_KEY) ?? [];
  }

  saveQueue(queue: RefRequest[]): void {
    ledger.putValue(this.sql, QUEUE_KEY, queue);
  }

  /** A new job in status `queued` (the previous job's ledger rows go). `trackedRef`: an extra ref's job. */
  start(source: JobState["source"], ref: string | null, wantedCommit: string | null, requestedAt: number, trackedRef: string | null = null): JobState {
    const job: JobState = { ...newJob(crypto.randomUUID(), source, ref, requestedAt), wantedCommit, ...(trackedRef ? { trackedRef } : {}) };
    ledger.clearJobsExcept(this.sql, null);
    this.#sentHere.clear();
    this.saveJob(job);
    return job;
  }

  /**
   * After a job ended: its own follow-up joins the queue's tail, then the queue's head starts
   * (its fetch runs from the alarm). Archives have no queue.
   */
  async startNext(finished: JobState): Promise<void> {
    const settings = readSettings(this.sql);
    if (settings?.sourceKind !== "git" || this.job()?.jobId !== finished.jobId) return;
    let queue = this.queue();
    const follow = followUpOf(finished);
    if (follow) queue = enqueueRef(queue, { target: targetOf(finished), commit: follow.commit, requestedAt: follow.requestedAt });
    const [next, rest] = takeNext(queue);
    this.saveQueue(rest);
    if (!next) return;
    this.start("git", next.target ?? settings.ref, next.commit, next.requestedAt, next.target);
    await this.ctx.storage.setAlarm(this.now());
  }

  /** Applies an event to the stored job and mirrors a status change into D1. */
  async apply(event: JobEvent): Promise<JobState> {
    const before = this.job()!;
    const after = nextState(before, event, this.now());
    this.saveJob(after);
    if (after.status !== before.status && after.status !== "ready") {
      const repo = readSettings(this.sql)!.repo;
      if (!after.trackedRef) await setRepoStatus(this.env.DB, repo, after.status, after.updatedAt);
      if (after.source === "git") await setRefStatus(this.env.DB, repo, targetOf(after), refStatusOf(after.status), after.updatedAt, after.lastError);
    }
    return after;
  }

  async fail(jobId: string, err: unknown): Promise<void> {
    const job = this.job();
    if (!job || job.jobId !== jobId || !isActive(job)) return;
    // A coded error's message is written for users; anything else stays in the log.
    const message = err instanceof CodeSearchError ? err.message : "internal: indexing failed unexpectedly; the server log has details.";
    if (!(err instanceof CodeSearchError)) console.error(`repo job ${jobId} failed`, err);
    const failed = await this.apply({ type: "failed", error: message });
    ledger.clearJob(this.sql, jobId);
    const settings = readSettings(this.sql);
    // An extra ref's failure is its row's (apply wrote it); the repo's snapshot is not stale.
    if (settings && !failed.trackedRef) await markRepoFailing(this.env.DB, settings.repo, message, failed.updatedAt);
    await this.startNext(failed);
  }

  /**
   * Fetches the job's ref (or sees a complete snapshot of its commit exists) and plans the job,
   * then runs its history step, if any (`#recordHistoryStep`).
   */
  async fetchAndPlan(jobId: string): Promise<void> {
    await this.#fetchAndPlanJob(jobId);
    await this.#recordHistoryStep(); // the snapshot lived in #fetchAndPlanJob's frame only
  }

  async #fetchAndPlanJob(jobId: string): Promise<void> {
    const settings = readSettings(this.sql)!;
    let snapshot: SourceSnapshot | string;
    try {
      const job = this.job()!;
      const source = await sourceOf(this.env, settings, job.trackedRef);
      const remote = await checkRemote(source);
      if (this.job()?.jobId === jobId) this.saveJob({ ...this.job()!, resolvedRef: remote.ref });
      // A complete snapshot of that commit, same model: nothing to fetch (the fast refresh; a branch at main's commit).
      const reusable = await snapshotReusable(this.env, settings.repo, remote.commit);
      // Every tracked ref's step adds its commits to the repo's one commit graph (docs/history.md).
      const defaultRef = !job.trackedRef;
      if (source.history && (!reusable || (await historyMissing(this.env.DB, settings.repo, remote.commit, defaultRef)))) {
        this.#history = { source, remote, defaultRef };
      }
      if (reusable) snapshot = remote.commit;
      else {
        const started = this.now();
        snapshot = await fetchSnapshot(source, remote);
        console.log(`repo ${settings.repo}: fetched ${remote.ref} at ${snapshot.commit} (${snapshot.entries.length} entries) in ${this.now() - started} ms`);
      }
    } catch (err) {
      this.#history = null;
      return this.fail(jobId, err);
    }
    return this.plan(jobId, snapshot);
  }

  /**
   * Records the history of the ref `#fetchAndPlanJob` fetched, if it left a step (one history
   * step, indexer/history/record.ts). It runs after the plan, so the snapshot's batches are on
   * the queue already: a slow, over-budget or failing history step delays and fails no indexing.
   */
  async #recordHistoryStep(): Promise<void> {
    const step = this.#history;
    this.#history = null;
    const settings = readSettings(this.sql);
    if (!step || !settings) return;
    const { maxFileBytes, historyBudget } = loadConfig(this.env);
    const recorded = await recordHistory(this.env.DB, settings.repo, step.source, step.remote, maxFileBytes, () => this.now(), historyBudget, step.defaultRef);
    if (recorded) console.log(`repo ${settings.repo}: history: ${describeRecorded(recorded)}`);
  }

  /**
   * Plans the job, then enqueues its batches (or completes it at once when nothing changed).
   * `source` is a fetched snapshot, or the commit id of a complete snapshot to take over as it is.
   */
  async plan(jobId: string, source: SourceSnapshot | string): Promise<void> {
    const settings = readSettings(this.sql)!;
    let planned: PlanResult;
    try {
      const last = ledger.getValue<PlanSummary>(this.sql, LAST_PLAN_KEY);
      planned =
        typeof source === "string"
          ? await planUnchanged(this.env, this.sql, settings.repo, jobId, source, last && (last.commit ?? source) === source ? last : null)
          : await planJob(this.env, this.sql, settings.repo, jobId, source);
    } catch (err) {
      return this.fail(jobId, err);
    }
    if (this.job()?.jobId !== jobId) return; // destroyed or superseded while fetching
    ledger.putValue(this.sql, LAST_PLAN_KEY, { commit: planned.commit, filesTotal: planned.filesTotal, skipped: planned.skipped } satisfies PlanSummary);
    console.log(`repo ${settings.repo}: job ${jobId} planned: ${planned.filesQueued} files in ${planned.batches} batches, ${planned.unchanged} unchanged`);
    await this.apply({ type: "planned", ...planned });
    const pending = ledger.listBatches(this.sql, jobId, ["pending"]).map((b) => b.batchId);
    await this.send(jobId, pending);
    if (pending.length === 0) return this.maybeFinalize();
    await this.ctx.storage.setAlarm(this.now() + STALL_CHECK_MS);
  }

  async send(jobId: string, batchIds: number[]): Promise<void> {
    const settings = readSettings(this.sql)!;
    for (let i = 0; i < batchIds.length; i += SEND_BATCH_MAX) {
      const part = batchIds.slice(i, i + SEND_BATCH_MAX);
      await this.env.INDEX_QUEUE.sendBatch(part.map((id) => ({ body: indexJob(settings.repo, jobId, id), contentType: "json" as const })));
      ledger.markEnqueued(this.sql, jobId, part, this.now());
      for (const id of part) this.#sentHere.add(`${jobId}/${id}`);
    }
  }

  /** Whether the batch belongs to the current indexing job and is not settled. */
  isOpen(jobId: string, batchId: number): boolean {
    const job = this.job();
    const batch = ledger.getBatch(this.sql, jobId, batchId);
    return !!job && job.jobId === jobId && job.status === "indexing" && !!batch && batch.state !== "done" && batch.state !== "failed";
  }

  /** Marks a batch settled; false if it was unknown, of another job, or already settled. */
  settle(jobId: string, batchId: number, state: "done" | "failed"): boolean {
    if (!this.isOpen(jobId, batchId)) return false;
    ledger.settleBatch(this.sql, jobId, batchId, state);
    return true;
  }

  /** The job's ledger rows in `states`, each marked with whether this instance sent it. */
  sendStates(jobId: string, states: ledger.BatchState[]): BatchSendState[] {
    return ledger.listBatches(this.sql, jobId, states).map((b) => ({ ...b, sentByThisInstance: this.#sentHere.has(`${jobId}/${b.batchId}`) }));
  }

  /** Sends stalled batches again; gives up on those sent too often (`failBatch` settles them). */
  async resendStalled(job: JobState, failBatch: (jobId: string, batchId: number, error: string) => Promise<void>): Promise<void> {
    const { resend, giveUp } = stallStep(this.sendStates(job.jobId, ["enqueued", "pending"]), this.now());
    for (const b of giveUp) await failBatch(job.jobId, b.batchId, `not acknowledged after ${b.attempts} sends`);
    await this.send(job.jobId, resend);
  }

  /** Completes the job once every batch is settled; concurrent callers share one run. */
  async maybeFinalize(): Promise<void> {
    const job = this.job();
    if (!job || job.status !== "indexing" || !allBatchesSettled(job)) return;
    this.#finalizing ??= (async () => {
      try {
        const settings: RepoSettings = readSettings(this.sql)!;
        const ref = { name: job.source === "git" ? (job.resolvedRef ?? job.trackedRef ?? null) : null, extra: !!job.trackedRef };
        await finalizeJob(
          this.env,
          settings.repo,
          job.commit!,
          ledger.listMembers(this.sql, job.jobId),
          this.now(),
          ledger.listSkipped(this.sql, job.jobId),
          ref,
        );
        if (this.job()?.jobId !== job.jobId) return;
        const ready = await this.apply({ type: "finalized" });
        ledger.clearJob(this.sql, job.jobId);
        await this.startNext(ready);
      } catch (err) {
        // D1 or the vector store failed: try again from the alarm; the old snapshot keeps serving.
        console.error(`finalizing job ${job.jobId} failed; retrying`, err);
        await this.ctx.storage.setAlarm(this.now() + 5_000);
      } finally {
        this.#finalizing = null;
      }
    })();
    return this.#finalizing;
  }
}
