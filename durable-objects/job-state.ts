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
 */

import type { JobSource, JobState } from "../kernel/coordinator";

// The job's shapes are part of the coordinator's RPC contract (kernel/coordinator.ts).
export type { JobProgress, JobSource, JobState, JobStatus } from "../kernel/coordinator";

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
