import { describe, expect, it } from "vitest";
import { BATCH_HEARTBEAT_MS } from "../kernel/coordinator";
import {
  allBatchesSettled,
  BATCH_BEAT_MISSED_MS,
  BATCH_MAX_SENDS,
  BATCH_LEASE_MS,
  BATCH_QUEUE_WAIT_MS,
  FETCH_HEARTBEAT_MS,
  FETCH_MAX_ATTEMPTS,
  fetchStep,
  followUpOf,
  JobTransitionError,
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

const planned = (batches: number): JobEvent => ({
  type: "planned",
  commit: "c1",
  filesTotal: 10,
  filesQueued: 4,
  unchanged: 3,
  batches,
  skipped: { binary: 2, ignored: 1 },
});
const done = (files: number, chunks: number, failed = false): JobEvent => ({
  type: "batch_done",
  files,
  chunks,
  skipped: failed ? { index_failed: files } : {},
  failed,
});

function run(events: JobEvent[], start: JobState = newJob("j1", "git", "main", 0)): JobState {
  return events.reduce((s, e, i) => nextState(s, e, i + 1), start);
}

describe("nextState", () => {
  it("walks queued -> fetching -> indexing -> ready, counting progress and skips", () => {
    const s = run([{ type: "fetch_started" }, planned(2), done(2, 5), done(2, 0, true), { type: "finalized" }]);
    expect(s.status).toBe("ready");
    expect(s.progress).toEqual({ filesTotal: 10, filesQueued: 4, filesDone: 4, chunks: 5, unchanged: 3 });
    expect(s.skipped).toEqual({ binary: 2, ignored: 1, index_failed: 2 });
    expect(s.batches).toEqual({ total: 2, done: 1, failed: 1 });
    expect([s.startedAt, s.finishedAt, s.updatedAt]).toEqual([1, 5, 5]);
  });

  it("lets archives plan straight from queued and finish with no batches", () => {
    const s = run([planned(0), { type: "finalized" }], newJob("j2", "archive", null, 0));
    expect(s.status).toBe("ready");
    expect(allBatchesSettled(s)).toBe(true);
  });

  it.each<[string, JobEvent[]]>([
    ["finalizing with batches outstanding", [planned(1), { type: "finalized" }]],
    ["a batch_done past the total", [planned(1), done(1, 1), done(1, 1)]],
    ["fetch_started twice", [{ type: "fetch_started" }, { type: "fetch_started" }]],
    ["failing a finished job", [planned(0), { type: "finalized" }, { type: "failed", error: "x" }]],
    ["a batch_done before planning", [done(1, 1)]],
  ])("rejects %s", (_name, events) => {
    expect(() => run(events)).toThrow(JobTransitionError);
  });

  it("records the error of a failed job and never mutates its input", () => {
    const fetching = run([{ type: "fetch_started" }]);
    const copy = structuredClone(fetching);
    const failed = nextState(fetching, { type: "failed", error: 'Ref "x" does not exist' }, 9);
    expect(failed).toMatchObject({ status: "failed", lastError: 'Ref "x" does not exist', finishedAt: 9 });
    expect(fetching).toEqual(copy);
  });
});

describe("requestRefresh and followUpOf", () => {
  const queued = newJob("j1", "git", "main", 0);
  const fetching = nextState(queued, { type: "fetch_started" }, 1);
  const indexing = nextState(fetching, planned(1), 2);

  it("starts a job when none runs", () => {
    expect(requestRefresh(null, null, 5)).toEqual({ kind: "start" });
    const ready = run([planned(0), { type: "finalized" }]);
    expect(requestRefresh(ready, "abc", 5)).toEqual({ kind: "start" });
  });

  it("lets a job that has not fetched yet absorb the request, remembering a pushed commit", () => {
    const d = requestRefresh(queued, "c9", 5);
    expect(d.kind).toBe("absorbed");
    expect(d.kind === "absorbed" && d.job).toMatchObject({ wantedCommit: "c9", pending: null });
  });

  it("queues one follow-up past the fetch; the newest request wins", () => {
    const first = requestRefresh(fetching, "c2", 5);
    expect(first).toMatchObject({ kind: "pending", job: { pending: { commit: "c2", requestedAt: 5 } } });
    const second = requestRefresh(first.kind === "pending" ? first.job : fetching, "c3", 7);
    expect(second).toMatchObject({ kind: "pending", job: { pending: { commit: "c3", requestedAt: 7 } } });
  });

  it("needs no follow-up for the commit the job is already indexing", () => {
    expect(requestRefresh(indexing, "c1", 5)).toEqual({ kind: "absorbed", job: indexing });
  });

  it("keeps the pending request through the job's events and hands it over at the end", () => {
    const d = requestRefresh(indexing, null, 5);
    const job = d.kind === "pending" ? d.job : indexing;
    const ready = nextState(nextState(job, done(1, 1), 6), { type: "finalized" }, 7);
    expect(followUpOf(ready)).toEqual({ commit: null, requestedAt: 5 });
    expect(followUpOf(job)).toBeNull(); // still running
    const failed = nextState(job, { type: "failed", error: "x" }, 7);
    expect(followUpOf(failed)).toEqual({ commit: null, requestedAt: 5 });
  });

  it("drops a follow-up for the very commit the job ended ready at", () => {
    const d = requestRefresh(fetching, "c1", 5);
    const job = d.kind === "pending" ? d.job : fetching;
    const ready = run([planned(0), { type: "finalized" }], job);
    expect(ready.commit).toBe("c1");
    expect(followUpOf(ready)).toBeNull();
  });
});

describe("fetchStep", () => {
  const queued = newJob("j1", "git", null, 0);
  const fetching = nextState(queued, { type: "fetch_started" }, 1);

  it("starts the first fetch with the safety alarm a heartbeat ahead", () => {
    expect(fetchStep(queued, { inFlight: false, attempts: 0, now: 100 })).toEqual({
      kind: "fetch",
      attempt: 1,
      alarmAt: 100 + FETCH_HEARTBEAT_MS,
      startEvent: true,
    });
  });

  it("only moves the alarm on while the fetch runs in this instance", () => {
    expect(fetchStep(fetching, { inFlight: true, attempts: 1, now: 100 })).toEqual({ kind: "heartbeat", alarmAt: 100 + FETCH_HEARTBEAT_MS });
  });

  it("retries a fetch lost with its isolate, well within a minute, then gives up", () => {
    expect(FETCH_HEARTBEAT_MS).toBeLessThanOrEqual(60_000);
    expect(fetchStep(fetching, { inFlight: false, attempts: 1, now: 100 })).toEqual({
      kind: "fetch",
      attempt: 2,
      alarmAt: 100 + FETCH_HEARTBEAT_MS,
      startEvent: false,
    });
    expect(fetchStep(fetching, { inFlight: false, attempts: FETCH_MAX_ATTEMPTS, now: 100 })).toMatchObject({
      kind: "give_up",
      error: expect.stringMatching(/lost 3 times/),
    });
  });

  it("does nothing for archive jobs or jobs past fetching", () => {
    expect(fetchStep(newJob("a", "archive", null, 0), { inFlight: false, attempts: 0, now: 1 })).toEqual({ kind: "none" });
    expect(fetchStep(nextState(fetching, planned(1), 2), { inFlight: false, attempts: 1, now: 3 })).toEqual({ kind: "none" });
  });
});

describe("stallStep and waitingOf", () => {
  const batch = (
    batchId: number,
    state: BatchSendState["state"],
    attempts: number,
    enqueuedAt: number,
    startedAt = 0,
    sentByThisInstance = true,
  ): BatchSendState => ({
    batchId,
    state,
    attempts,
    enqueuedAt,
    startedAt,
    sentByThisInstance,
  });
  const indexing = run([{ type: "fetch_started" }, planned(3)]);
  const now = 10_000_000;

  it("uses a lease of a few missed heartbeats, far below the old 5 minutes", () => {
    expect(BATCH_LEASE_MS).toBeLessThanOrEqual(20_000);
    expect(BATCH_LEASE_MS).toBeGreaterThanOrEqual(3 * BATCH_HEARTBEAT_MS);
    expect(BATCH_BEAT_MISSED_MS).toBeGreaterThan(BATCH_HEARTBEAT_MS);
    expect(BATCH_BEAT_MISSED_MS).toBeLessThan(BATCH_LEASE_MS);
    // The alarm looks often enough that a lease is re-sent within one check of running out.
    expect(STALL_CHECK_MS).toBeLessThanOrEqual(BATCH_LEASE_MS / 2);
  });

  it("re-sends batches this instance sent and nobody took within BATCH_QUEUE_WAIT_MS, and gives up after BATCH_MAX_SENDS", () => {
    const r = stallStep(
      [
        batch(0, "enqueued", 1, now - BATCH_QUEUE_WAIT_MS + 1000),
        batch(1, "enqueued", 1, now - BATCH_QUEUE_WAIT_MS - 1),
        batch(2, "pending", 0, 0),
        batch(3, "enqueued", BATCH_MAX_SENDS, 0),
        batch(4, "done", 1, 0),
      ],
      now,
    );
    expect(r.resend).toEqual([1, 2]);
    expect(r.giveUp.map((b) => b.batchId)).toEqual([3]);
  });

  it("re-sends a taken batch once its lease goes BATCH_LEASE_MS without a heartbeat, however long it queued", () => {
    const queuedLong = now - BATCH_QUEUE_WAIT_MS - 60_000;
    const r = stallStep([batch(0, "enqueued", 1, queuedLong, now - BATCH_LEASE_MS + 1000), batch(1, "enqueued", 1, queuedLong, now - BATCH_LEASE_MS - 1)], now);
    expect(r.resend).toEqual([1]);
    expect(r.giveUp).toEqual([]);
  });

  it("keeps a batch whose consumer heartbeats, however long the batch takes", () => {
    const takenAt = now - 10 * 60_000;
    // Taken ten minutes ago; each heartbeat moves startedAt on, the last one a beat ago.
    const beating = batch(0, "enqueued", 1, takenAt - 1000, now - BATCH_HEARTBEAT_MS);
    expect(stallStep([beating], now).resend).toEqual([]);
    expect(waitingOf(indexing, { fetchInFlight: false, batches: [beating], alarmAt: now + STALL_CHECK_MS, now })).toBeNull();
    // The same batch without its heartbeats: sent again.
    expect(stallStep([{ ...beating, startedAt: takenAt }], now).resend).toEqual([0]);
  });

  it("re-sends at once an untaken batch sent before a restart (the queue may have lost it), not one this instance sent", () => {
    const sentAt = now - 30_000;
    const r = stallStep(
      [batch(0, "enqueued", 1, sentAt, 0, false), batch(1, "enqueued", 1, sentAt, 0, true), batch(2, "enqueued", 1, sentAt, now - 1000, false)],
      now,
    );
    expect(r.resend).toEqual([0]);
  });

  it("says the job is waiting from the first missed heartbeat, and when the batch goes out again", () => {
    const beatAt = now - BATCH_BEAT_MISSED_MS - 1;
    const missed = batch(0, "enqueued", 1, now - 60_000, beatAt);
    expect(stallStep([missed], now).resend).toEqual([]); // not re-sent yet: the lease still runs
    expect(waitingOf(indexing, { fetchInFlight: false, batches: [missed], alarmAt: now + STALL_CHECK_MS, now })).toEqual({
      reason: "1 batch was not acknowledged; waiting to send again",
      retryAt: beatAt + BATCH_LEASE_MS,
    });
    const onTime = batch(0, "enqueued", 1, now - 60_000, now - BATCH_BEAT_MISSED_MS + 1);
    expect(waitingOf(indexing, { fetchInFlight: false, batches: [onTime], alarmAt: now + STALL_CHECK_MS, now })).toBeNull();
  });

  it("says a job whose fetch was lost is waiting, and until when", () => {
    const fetching = run([{ type: "fetch_started" }]);
    expect(waitingOf(fetching, { fetchInFlight: true, batches: [], alarmAt: 50, now: 10 })).toBeNull();
    expect(waitingOf(fetching, { fetchInFlight: false, batches: [], alarmAt: 50, now: 10 })).toEqual({
      reason: expect.stringMatching(/waiting to retry/),
      retryAt: 50,
    });
  });

  it("says how many batches are late, and nothing for a finished job", () => {
    const later = 10 * BATCH_QUEUE_WAIT_MS;
    const w = waitingOf(indexing, {
      fetchInFlight: false,
      batches: [
        batch(0, "enqueued", 1, 0), // queued too long
        batch(1, "enqueued", 1, 0, later - BATCH_LEASE_MS - 1), // lease ran out
        batch(2, "enqueued", 1, later), // just sent
        batch(3, "enqueued", 1, 0, later), // heartbeat just now
        batch(4, "enqueued", 1, later - 1000, 0, false), // sent before a restart
      ],
      alarmAt: later + 5,
      now: later,
    });
    expect(w).toEqual({ reason: "3 batches were not acknowledged; waiting to send again", retryAt: later + 5 });
    expect(waitingOf(run([planned(0), { type: "finalized" }]), { fetchInFlight: false, batches: [], alarmAt: null, now: later })).toBeNull();
  });
});
