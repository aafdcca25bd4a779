import { describe, expect, it } from "vitest";
import { allBatchesSettled, JobTransitionError, newJob, nextState, type JobEvent, type JobState } from "./job-state";

const planned = (batches: number): JobEvent => ({ type: "planned", commit: "c1", filesTotal: 10, filesQueued: 4, unchanged: 3, batches, skipped: { binary: 2, ignored: 1 } });
const done = (files: number, chunks: number, failed = false): JobEvent => ({ type: "batch_done", files, chunks, skipped: failed ? { index_failed: files } : {}, failed });

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
    const failed = nextState(fetching, { type: "failed", error: "Ref \"x\" does not exist" }, 9);
    expect(failed).toMatchObject({ status: "failed", lastError: 'Ref "x" does not exist', finishedAt: 9 });
    expect(fetching).toEqual(copy);
  });
});
