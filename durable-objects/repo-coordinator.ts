/**
 * @module durable-objects/repo-coordinator
 *
 * RepoCoordinator: one Durable Object per repo (`idFromName(repoId)`), owning its index jobs.
 * Being single-threaded per repo, it serialises jobs of one repo without locks, while jobs of
 * different repos run in parallel. It keeps the job state, the batch ledger and the staged
 * file bytes in its own SQLite (see ledger.ts); the work itself runs in queue consumers.
 *
 * RPC surface (everything public here is callable by any Worker holding the binding):
 * `requestIndex`, `requestArchive`, `status`, `batchFiles`, `renewBatch`, `ackBatch`, `failBatch`,
 * `checkSource`, `pollRemote`, `destroy`.
 * The lifecycle is `job-state.ts`; planning is `plan.ts`; completion is `finalize.ts`.
 */
import { DurableObject } from "cloudflare:workers";
import { indexJob } from "../indexer/jobs";
import type { BatchResult } from "../indexer/pipeline";
import { archiveSnapshot } from "../indexer/source/archive-snapshot";
import { historyMissing, recordHistory } from "../indexer/history/record";
import { checkRemote, fetchSnapshot, type GitSourceOptions, type ResolvedRef } from "../indexer/source/git";
import { openSecret, sealSecret, secretKeyMaterial } from "../kernel/secret-box";
import type { SourceSnapshot } from "../indexer/source/snapshot";
import type { StripOption } from "../indexer/source/archive-paths";
import { claimArchiveRepo, markRepoFailing, setRepoStatus } from "../indexer/store/d1/snapshots";
import { loadConfig, type Env } from "../kernel/env";
import type { IndexRequestOptions, JobView, PollResult, RepoCoordinatorRpc, SourceOverrides } from "../kernel/coordinator";
import { BodyTooLargeError, readBounded } from "../kernel/bounded-body";
import { CodeSearchError, type ErrorCode } from "../kernel/errors";
import { activeSnapshotOf, finalizeJob, planJob, planUnchanged } from "./finalize";
import { systemClock, type Clock } from "./clock";
import {
  allBatchesSettled,
  fetchStep,
  followUpOf,
  isActive,
  newJob,
  nextState,
  requestRefresh,
  STALL_CHECK_MS,
  stallStep,
  waitingOf,
  type BatchSendState,
  type JobEvent,
  type JobState,
} from "./job-state";
import * as ledger from "./ledger";
import type { RepoSettings, StagedFile } from "./ledger";
import type { PlanResult } from "./plan";

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
const TOKEN_PURPOSE = "repo-token";

async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  try {
    return await readBounded(body, maxBytes);
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    throw new CodeSearchError(
      "payload_too_large",
      `The archive is larger than ${maxBytes} bytes; leave build output and dependencies out, or raise the limit.`,
    );
  }
}

export class RepoCoordinator extends DurableObject<Env> implements RepoCoordinatorRpc {
  #finalizing: Promise<void> | null = null;
  /**
   * True while an upload's body is being read and checked. The job is only started once the
   * archive proved valid, so without this flag concurrent uploads would all pass the "is a job
   * running" check while their bodies stream in, and each would restart the job.
   */
  #receiving = false;
  /** True while this instance runs a fetch; a `fetching` job without it was lost with an isolate. */
  #fetching = false;
  /**
   * `jobId/batchId` of the batches this instance sent. One sent by an earlier instance and not
   * taken since may have been lost with a restart (`BatchSendState.sentByThisInstance`).
   */
  #sentHere = new Set<string>();
  /**
   * Where every time the coordinator acts on comes from. A test replaces it through
   * `runInDurableObject` (instance fields are not reachable over RPC, so callers cannot).
   */
  clock: Clock = systemClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => ledger.migrateLedger(ctx.storage.sql));
  }

  /**
   * Starts a git index job (the fetch runs from the alarm, so this returns at once). While a job
   * runs, no second job starts and the request is not lost: a job that has not fetched yet
   * covers it, a later one gets one `pending` follow-up that starts when it ends (see
   * `requestRefresh`). `settings.ref` replaces the stored ref when given, `settings.token` the
   * stored token (the caller checked it against the remote first).
   */
  async requestIndex(settings: RepoSettings, options: IndexRequestOptions = {}): Promise<JobView> {
    await this.#saveSettings(settings);
    const now = this.clock.now();
    const decision = requestRefresh(this.#job(), options.commit ?? null, now);
    if (decision.kind !== "start") {
      const job = decision.kind === "absorbed" && decision.job.status === "queued" ? { ...decision.job, ref: settings.ref } : decision.job;
      ledger.putValue(this.#sql, JOB_KEY, job);
      return this.status() as Promise<JobView>;
    }
    this.#start("git", settings.ref, options.commit ?? null, now);
    await this.ctx.storage.setAlarm(now);
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
  ): Promise<JobState | { error: { code: ErrorCode; message: string } }> {
    const running = this.#job();
    if (this.#receiving || (running && isActive(running))) {
      await body.cancel();
      const which = running && isActive(running) ? `job ${running.jobId}` : "another upload is being read";
      return {
        error: { code: "index_not_ready", message: `Repo "${settings.repo}" is being indexed (${which}); upload again when its status is ready or failed.` },
      };
    }
    // Set before the first await: the DO runs one call at a time only between awaits.
    this.#receiving = true;
    let snapshot: SourceSnapshot;
    try {
      const bytes = await readLimited(body, maxBytes);
      snapshot = { ...(await archiveSnapshot(bytes, { maxFileBytes: loadConfig(this.env).maxFileBytes }, strip)), tracked };
      const kind = await claimArchiveRepo(this.env.DB, settings.repo, this.clock.now());
      if (kind !== "archive") {
        return {
          error: {
            code: "invalid_input",
            message: `Repo "${settings.repo}" is a git repo; use POST /api/repos/${settings.repo}/refresh, or upload under another id.`,
          },
        };
      }
    } catch (err) {
      if (err instanceof CodeSearchError) return { error: { code: err.code, message: err.message } };
      throw err;
    } finally {
      this.#receiving = false;
    }
    ledger.putValue(this.#sql, REPO_KEY, settings);
    const job = this.#start("archive", null, null, this.clock.now());
    await this.#plan(job.jobId, snapshot);
    return this.#job()!;
  }

  /**
   * The current (or last) job, or null if the repo never had one, with `waiting` set when a
   * running job is stuck (a fetch lost in a crash, batches not acknowledged) and when the
   * coordinator retries (`waiting.retryAt`, ms).
   */
  async status(): Promise<JobView | null> {
    const job = this.#job();
    if (!job) return null;
    const batches = job.status === "indexing" ? this.#sendStates(job.jobId, ["enqueued"]) : [];
    const waiting = waitingOf(job, { fetchInFlight: this.#fetching, batches, alarmAt: await this.ctx.storage.getAlarm(), now: this.clock.now() });
    return { ...job, waiting };
  }

  /**
   * Files of a batch for the consumer, which takes the batch's lease (`BATCH_LEASE_MS`) and
   * renews it with `renewBatch` while it works; null when the job is not current or the batch
   * is settled.
   */
  async batchFiles(jobId: string, batchId: number): Promise<StagedFile[] | null> {
    if (!this.#isOpen(jobId, batchId)) return null;
    ledger.markStarted(this.#sql, jobId, batchId, this.clock.now());
    return ledger.stagedFiles(this.#sql, jobId, batchId);
  }

  /**
   * A consumer's heartbeat (every `BATCH_HEARTBEAT_MS`): renews the batch's lease. Returns
   * false when the batch no longer needs the work (settled, or its job is not current).
   */
  async renewBatch(jobId: string, batchId: number): Promise<boolean> {
    if (!this.#isOpen(jobId, batchId)) return false;
    ledger.markStarted(this.#sql, jobId, batchId, this.clock.now());
    return true;
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

  /**
   * Runs a queued git job's fetch and plan (or retries one lost with its isolate), finalizes a
   * settled job, re-sends stalled batches. The decisions are `fetchStep` and `stallStep`.
   */
  override async alarm(): Promise<void> {
    const job = this.#job();
    if (!job || !isActive(job)) return;
    const now = this.clock.now();
    const step = fetchStep(job, { inFlight: this.#fetching, attempts: ledger.getValue<number>(this.#sql, FETCH_ATTEMPTS_KEY) ?? 0, now });
    switch (step.kind) {
      case "heartbeat":
        return this.ctx.storage.setAlarm(step.alarmAt);
      case "give_up":
        return this.#fail(job.jobId, new CodeSearchError("source_unreachable", step.error));
      case "fetch":
        if (step.startEvent) await this.#apply({ type: "fetch_started" });
        ledger.putValue(this.#sql, FETCH_ATTEMPTS_KEY, step.attempt);
        // Set before the fetch: if this isolate dies mid-fetch, the next instance retries it.
        await this.ctx.storage.setAlarm(step.alarmAt);
        this.#fetching = true;
        try {
          return await this.#fetchAndPlan(job.jobId);
        } finally {
          this.#fetching = false;
        }
      case "none":
        break;
    }
    if (job.status === "indexing") {
      if (allBatchesSettled(job)) return this.#maybeFinalize();
      await this.#resendStalled(job);
      await this.ctx.storage.setAlarm(this.clock.now() + STALL_CHECK_MS);
    }
  }

  /**
   * Runs an ls-remote with the stored settings, `overrides` applied (a new token is tried before
   * it replaces the stored one). Errors come back as values (RPC keeps only messages):
   * `source_unreachable` (with "rejected" vs "asked for credentials"), `not_a_repository`,
   * `ref_not_found`, `repo_not_found` when nothing is stored.
   */
  async checkSource(overrides: SourceOverrides = {}): Promise<ResolvedRef | { error: { code: ErrorCode; message: string } }> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    if (!settings?.url) return { error: { code: "repo_not_found", message: "This repo has no git source." } };
    try {
      const source = await this.#sourceOf(settings);
      return await checkRemote({
        ...source,
        ref: overrides.ref === undefined ? source.ref : (overrides.ref ?? undefined),
        ...(overrides.token !== undefined ? { token: overrides.token } : {}),
        ...(overrides.username !== undefined ? { username: overrides.username } : {}),
        ...(overrides.authScheme !== undefined ? { authScheme: overrides.authScheme } : {}),
      });
    } catch (err) {
      if (err instanceof CodeSearchError) return { error: { code: err.code, message: err.message } };
      throw err;
    }
  }

  /**
   * The scheduled check (worker/schedule): an ls-remote only, and a job only when the remote's
   * commit differs from the active snapshot's (or the embedding model changed). Nothing happens
   * while a job runs. Returns what it did; a failing ls-remote comes back as `error` (and is
   * recorded as the reason the snapshot is stale).
   */
  async pollRemote(): Promise<PollResult> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    if (settings?.sourceKind !== "git" || !settings.url) return { kind: "skipped", reason: "not a git repo" };
    const running = this.#job();
    if (running && isActive(running)) return { kind: "skipped", reason: `job ${running.jobId} is ${running.status}` };
    let remote: ResolvedRef;
    try {
      remote = await checkRemote(await this.#sourceOf(settings));
    } catch (err) {
      const message = err instanceof CodeSearchError ? err.message : String(err);
      await markRepoFailing(this.env.DB, settings.repo, message, this.clock.now());
      return { kind: "error", message };
    }
    const active = await activeSnapshotOf(this.env, settings.repo);
    if (remote.commit === active.commit && active.sameModel) return { kind: "unchanged", commit: remote.commit };
    if (this.#job() && isActive(this.#job()!)) return { kind: "skipped", reason: "a job started meanwhile" };
    const job = this.#start("git", settings.ref, remote.commit, this.clock.now());
    await this.ctx.storage.setAlarm(this.clock.now());
    return { kind: "started", commit: remote.commit, jobId: job.jobId };
  }

  /** Stores settings, sealing a new token and keeping the stored one (and its user name and scheme) otherwise. */
  async #saveSettings(settings: RepoSettings): Promise<void> {
    const previous = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    const plain = settings.token ?? previous?.token;
    const { token: _drop, tokenSealed: _old, ...rest } = settings;
    const tokenSealed = plain ? await sealSecret(secretKeyMaterial(this.env), TOKEN_PURPOSE, settings.repo, plain) : previous?.tokenSealed;
    const username = settings.username ?? previous?.username;
    const authScheme = settings.authScheme ?? previous?.authScheme;
    ledger.putValue(this.#sql, REPO_KEY, {
      ...rest,
      ...(tokenSealed ? { tokenSealed } : {}),
      ...(username ? { username } : {}),
      ...(authScheme ? { authScheme } : {}),
    } satisfies RepoSettings);
  }

  /** The git source of stored settings, with the token opened. */
  async #sourceOf(settings: RepoSettings): Promise<GitSourceOptions> {
    const token = settings.tokenSealed ? await openSecret(secretKeyMaterial(this.env), TOKEN_PURPOSE, settings.repo, settings.tokenSealed) : settings.token;
    const config = loadConfig(this.env);
    const limits = { allowLoopback: config.allowLoopbackGitUrls };
    return {
      url: settings.url!,
      ref: settings.ref ?? undefined,
      token,
      username: settings.username,
      authScheme: settings.authScheme,
      limits,
      history: config.historyDepth,
    };
  }

  /** Fetches the job's ref (or sees the active commit is current) and plans the job. */
  async #fetchAndPlan(jobId: string): Promise<void> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
    let snapshot: SourceSnapshot;
    try {
      const source = await this.#sourceOf(settings);
      // Same commit as the active snapshot, same model: nothing to fetch (the fast refresh).
      const [remote, active] = await Promise.all([checkRemote(source), activeSnapshotOf(this.env, settings.repo)]);
      const unchanged = remote.commit === active.commit && active.sameModel;
      if (unchanged && !(source.history && (await historyMissing(this.env.DB, settings.repo, remote.commit)))) return this.#plan(jobId, remote.commit);
      const started = this.clock.now();
      snapshot = await fetchSnapshot(source, remote);
      console.log(`repo ${settings.repo}: fetched ${snapshot.commit} (${snapshot.entries.length} entries) in ${this.clock.now() - started} ms`);
      const recorded = await recordHistory(this.env.DB, settings.repo, snapshot, loadConfig(this.env).maxFileBytes, () => this.clock.now());
      if (recorded) console.log(`repo ${settings.repo}: history: ${recorded.commits} new commits, ${recorded.changes} file changes in ${recorded.ms} ms`);
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

  #start(source: JobState["source"], ref: string | null, wantedCommit: string | null, requestedAt: number): JobState {
    const job: JobState = { ...newJob(crypto.randomUUID(), source, ref, requestedAt), wantedCommit };
    ledger.clearJobsExcept(this.#sql, null);
    this.#sentHere.clear();
    ledger.putValue(this.#sql, JOB_KEY, job);
    return job;
  }

  /** Starts the follow-up a finished job left behind (a refresh or push that arrived meanwhile). */
  async #startFollowUp(finished: JobState): Promise<void> {
    const follow = followUpOf(finished);
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    if (!follow || settings?.sourceKind !== "git" || this.#job()?.jobId !== finished.jobId) return;
    this.#start("git", settings.ref, follow.commit, follow.requestedAt);
    await this.ctx.storage.setAlarm(this.clock.now());
  }

  /** Applies an event to the stored job and mirrors a status change into D1. */
  async #apply(event: JobEvent): Promise<JobState> {
    const before = this.#job()!;
    const after = nextState(before, event, this.clock.now());
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
    // A coded error's message is written for users; anything else stays in the log.
    const message = err instanceof CodeSearchError ? err.message : "internal: indexing failed unexpectedly; the server log has details.";
    if (!(err instanceof CodeSearchError)) console.error(`repo job ${jobId} failed`, err);
    const failed = await this.#apply({ type: "failed", error: message });
    ledger.clearJob(this.#sql, jobId);
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY);
    if (settings) await markRepoFailing(this.env.DB, settings.repo, message, failed.updatedAt);
    await this.#startFollowUp(failed);
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
    await this.ctx.storage.setAlarm(this.clock.now() + STALL_CHECK_MS);
  }

  async #send(jobId: string, batchIds: number[]): Promise<void> {
    const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
    for (let i = 0; i < batchIds.length; i += SEND_BATCH_MAX) {
      const part = batchIds.slice(i, i + SEND_BATCH_MAX);
      await this.env.INDEX_QUEUE.sendBatch(part.map((id) => ({ body: indexJob(settings.repo, jobId, id), contentType: "json" as const })));
      ledger.markEnqueued(this.#sql, jobId, part, this.clock.now());
      for (const id of part) this.#sentHere.add(`${jobId}/${id}`);
    }
  }

  /** Whether the batch belongs to the current indexing job and is not settled. */
  #isOpen(jobId: string, batchId: number): boolean {
    const job = this.#job();
    const batch = ledger.getBatch(this.#sql, jobId, batchId);
    return !!job && job.jobId === jobId && job.status === "indexing" && !!batch && batch.state !== "done" && batch.state !== "failed";
  }

  /** Marks a batch settled; false if it was unknown, of another job, or already settled. */
  #settle(jobId: string, batchId: number, state: "done" | "failed"): boolean {
    if (!this.#isOpen(jobId, batchId)) return false;
    ledger.settleBatch(this.#sql, jobId, batchId, state);
    return true;
  }

  /** The job's ledger rows in `states`, each marked with whether this instance sent it. */
  #sendStates(jobId: string, states: ledger.BatchState[]): BatchSendState[] {
    return ledger.listBatches(this.#sql, jobId, states).map((b) => ({ ...b, sentByThisInstance: this.#sentHere.has(`${jobId}/${b.batchId}`) }));
  }

  async #resendStalled(job: JobState): Promise<void> {
    const { resend, giveUp } = stallStep(this.#sendStates(job.jobId, ["enqueued", "pending"]), this.clock.now());
    for (const b of giveUp) await this.failBatch(job.jobId, b.batchId, `not acknowledged after ${b.attempts} sends`);
    await this.#send(job.jobId, resend);
  }

  /** Completes the job once every batch is settled; concurrent callers share one run. */
  async #maybeFinalize(): Promise<void> {
    const job = this.#job();
    if (!job || job.status !== "indexing" || !allBatchesSettled(job)) return;
    this.#finalizing ??= (async () => {
      try {
        const settings = ledger.getValue<RepoSettings>(this.#sql, REPO_KEY)!;
        await finalizeJob(
          this.env,
          settings.repo,
          job.commit!,
          ledger.listMembers(this.#sql, job.jobId),
          this.clock.now(),
          ledger.listSkipped(this.#sql, job.jobId),
        );
        if (this.#job()?.jobId !== job.jobId) return;
        const ready = await this.#apply({ type: "finalized" });
        ledger.clearJob(this.#sql, job.jobId);
        await this.#startFollowUp(ready);
      } catch (err) {
        // D1 or the vector store failed: try again from the alarm; the old snapshot keeps serving.
        console.error(`finalizing job ${job.jobId} failed; retrying`, err);
        await this.ctx.storage.setAlarm(this.clock.now() + 5_000);
      } finally {
        this.#finalizing = null;
      }
    })();
    return this.#finalizing;
  }
}
