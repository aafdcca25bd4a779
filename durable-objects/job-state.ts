/**
 * @module durable-objects/job-state
 *
 * The index job's lifecycle as a pure state machine: `nextState(state, event, now)` returns
 * the next state or throws `JobTransitionError`. No I/O; the RepoCoordinator loads the state,
 * applies events, saves the result and sets alarms.
 *
 * ```
 *  queued --fetch_started--> fetching --planned--> indexing --batch_done*--> indexing --finalized--> ready
 *     |                          |                     |
 *     +--------------------------+---------failed------+----------------------------------------> failed
 * ```
 * `planned` may also come straight from `queued` (archive uploads have nothing to fetch).
 * `ready` and `failed` are terminal; a refresh starts a new job.
 *
 * A refresh arriving while a job runs (`requestRefresh`) never starts a second job and is never
 * dropped: a job not yet past `queued` absorbs it (its fetch will see the newest commit), and a
 * later one records it as `pending`, one follow-up at most, newest request wins (`followUpOf`).
 * The alarm's decisions are pure too: `fetchStep` (run, keep waiting for or give up on a fetch)
 * and `stallStep` (batch-lease.ts: which batches to send again, which to give up on), and
 * `waitingOf` says in the status what a job stuck after a crash is waiting for.
 */

import type { JobSource, JobState, PendingRefresh, Waiting } from "../kernel/coordinator";
import { isLate, resendAt, type BatchSendState } from "./batch-lease";
// The batch lease decisions live in batch-lease.ts; the coordinator and tests import them from here.
export {
  BATCH_BEAT_MISSED_MS,
  BATCH_LEASE_MS,
  BATCH_MAX_SENDS,
  BATCH_QUEUE_WAIT_MS,
  STALL_CHECK_MS,
  isLate,
  isOverdue,
  stallStep,
  type BatchSendState,
} from "./batch-lease";

// The job's shapes are part of the coordinator's RPC contract (kernel/coordinator.ts).
export type { JobProgress, JobSource, JobState, JobStatus, PendingRefresh, Waiting } from "../kernel/coordinator";

/** What can happen to a job. */
export type JobEvent =
  | { type: "fetch_started" }
  | {
      type: "planned";
      commit: string;
      filesTotal: number;
      filesQueued: number;
      unchanged: number;
      batches: number;
      skipped: Record<string, number>;
    }
  | { type: "batch_done"; files: number; chunks: number; skipped: Record<string, number>; failed: boolean }
  | { type: "finalized" }
  | { type: "failed"; error: string };

/** Thrown for an event the current status does not accept (a bug in the caller, not user input). */
export class JobTransitionError extends Error {
  override name = "JobTransitionError";
}

/** A fresh job in status `queued`. */
export function newJob(jobId: string, source: JobSource, ref: string | null, now: number): JobState {
  return {
    jobId,
    source,
    ref,
    status: "queued",
    commit: null,
    requestedAt: now,
    startedAt: null,
    finishedAt: null,
    updatedAt: now,
    progress: { filesTotal: 0, filesQueued: 0, filesDone: 0, chunks: 0, unchanged: 0 },
    skipped: {},
    batches: { total: 0, done: 0, failed: 0 },
    lastError: null,
    pending: null,
    wantedCommit: null,
  };
}

/** Whether the job still runs (a new request must wait for it). */
export function isActive(state: JobState): boolean {
  return state.status === "queued" || state.status === "fetching" || state.status === "indexing";
}

/** Whether every batch has been acknowledged or given up on. */
export function allBatchesSettled(state: JobState): boolean {
  return state.batches.done + state.batches.failed >= state.batches.total;
}

function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) if (v) out[k] = (out[k] ?? 0) + v;
  return out;
}

function reject(state: JobState, event: JobEvent): never {
  throw new JobTransitionError(`job ${state.jobId}: event "${event.type}" is not allowed in status "${state.status}"`);
}

/** Applies `event` at time `now` (ms). Returns a new object; never mutates `state`. */
export function nextState(state: JobState, event: JobEvent, now: number): JobState {
  const s: JobState = { ...state, updatedAt: now };
  switch (event.type) {
    case "fetch_started":
      if (state.status !== "queued") reject(state, event);
      return { ...s, status: "fetching", startedAt: now };
    case "planned":
      if (state.status !== "queued" && state.status !== "fetching") reject(state, event);
      return {
        ...s,
        status: "indexing",
        startedAt: state.startedAt ?? now,
        commit: event.commit,
        progress: { ...state.progress, filesTotal: event.filesTotal, filesQueued: event.filesQueued, unchanged: event.unchanged },
        skipped: addCounts(state.skipped, event.skipped),
        batches: { total: event.batches, done: 0, failed: 0 },
      };
    case "batch_done":
      if (state.status !== "indexing" || allBatchesSettled(state)) reject(state, event);
      return {
        ...s,
        progress: { ...state.progress, filesDone: state.progress.filesDone + event.files, chunks: state.progress.chunks + event.chunks },
        skipped: addCounts(state.skipped, event.skipped),
        batches: event.failed ? { ...state.batches, failed: state.batches.failed + 1 } : { ...state.batches, done: state.batches.done + 1 },
      };
    case "finalized":
      if (state.status !== "indexing" || !allBatchesSettled(state)) reject(state, event);
      return { ...s, status: "ready", finishedAt: now };
    case "failed":
      if (!isActive(state)) reject(state, event);
      return { ...s, status: "failed", finishedAt: now, lastError: event.error };
    default: {
      const never: never = event;
      return never;
    }
  }
}

/** What `requestRefresh` decided for a refresh request. */
export type RefreshDecision =
  /** No job runs: start a new one. */
  | { kind: "start" }
  /** The job has not fetched yet, so its fetch covers the request: `job` records the commit. */
  | { kind: "absorbed"; job: JobState }
  /** The job is past its fetch: `job` now carries the (newest) pending follow-up. */
  | { kind: "pending"; job: JobState };

/**
 * Decides what a refresh request (optionally for a pushed `commit`) does to `job` at `now` (ms).
 * A job already resolved to that very commit needs no follow-up and is returned as absorbed.
 */
export function requestRefresh(job: JobState | null, commit: string | null, now: number): RefreshDecision {
  if (!job || !isActive(job)) return { kind: "start" };
  if (job.status === "queued") return { kind: "absorbed", job: { ...job, wantedCommit: commit ?? job.wantedCommit ?? null, updatedAt: now } };
  if (commit !== null && job.commit === commit) return { kind: "absorbed", job };
  return { kind: "pending", job: { ...job, pending: { commit, requestedAt: now }, updatedAt: now } };
}

/**
 * The follow-up a finished job leaves behind, or null: none was requested, or the request named
 * the commit this job just indexed.
 */
export function followUpOf(finished: JobState): PendingRefresh | null {
  const p = finished.pending;
  if (!p || isActive(finished)) return null;
  if (p.commit !== null && finished.status === "ready" && p.commit === finished.commit) return null;
  return p;
}

/** How long a running fetch's safety alarm is set ahead; a fetch lost with its isolate is retried after this (ms). */
export const FETCH_HEARTBEAT_MS = 20_000;
/** Fetch attempts of one job before it fails (a repository too large for one isolate). */
export const FETCH_MAX_ATTEMPTS = 3;

/** What the alarm does about a git job's fetch (`fetchStep`). */
export type FetchStep =
  | { kind: "none" }
  /** The fetch runs in this instance: only move the safety alarm on. */
  | { kind: "heartbeat"; alarmAt: number }
  /** Run the fetch (attempt number `attempt`), with the safety alarm at `alarmAt` set first. */
  | { kind: "fetch"; attempt: number; alarmAt: number; startEvent: boolean }
  | { kind: "give_up"; error: string };

/**
 * Decides the fetch part of an alarm. `inFlight`: this instance runs the fetch now (a
 * `fetching` job without it lost its fetch with an isolate). `attempts`: fetches started so far.
 */
export function fetchStep(job: JobState, o: { inFlight: boolean; attempts: number; now: number }): FetchStep {
  if (job.source !== "git" || (job.status !== "queued" && job.status !== "fetching")) return { kind: "none" };
  const alarmAt = o.now + FETCH_HEARTBEAT_MS;
  if (job.status === "queued") return { kind: "fetch", attempt: 1, alarmAt, startEvent: true };
  if (o.inFlight) return { kind: "heartbeat", alarmAt };
  if (o.attempts >= FETCH_MAX_ATTEMPTS) {
    return {
      kind: "give_up",
      error: `The fetch was lost ${FETCH_MAX_ATTEMPTS} times (the repository may be too large for one isolate's memory); index it in parts by archive upload.`,
    };
  }
  return { kind: "fetch", attempt: o.attempts + 1, alarmAt, startEvent: false };
}

/**
 * What a running job is waiting for, or null when it is making progress: a fetch lost with its
 * isolate (`fetchInFlight` false while `fetching`), or late batches (`isLate`: from the first
 * missed heartbeat on). `alarmAt` is the coordinator's next alarm (ms); `retryAt` is when the
 * first late batch is sent again (the later of that alarm and its lease's end).
 */
export function waitingOf(
  job: JobState,
  o: { fetchInFlight: boolean; batches: readonly BatchSendState[]; alarmAt: number | null; now: number },
): Waiting | null {
  if (!isActive(job)) return null;
  const retryAt = Math.max(o.alarmAt ?? o.now, o.now);
  if (job.source === "git" && job.status === "fetching" && !o.fetchInFlight) {
    return { reason: "The fetch was interrupted (the server restarted); waiting to retry", retryAt };
  }
  if (job.status === "indexing") {
    const late = o.batches.filter((b) => isLate(b, o.now));
    if (late.length > 0) {
      const due = Math.max(retryAt, Math.min(...late.map((b) => resendAt(b, o.now))));
      return { reason: `${late.length} batch${late.length === 1 ? " was" : "es were"} not acknowledged; waiting to send again`, retryAt: due };
    }
  }
  return null;
}
