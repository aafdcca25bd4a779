import { describe, expect, it } from "vitest";
import { dropRefs, enqueueRef, takeNext } from "./ref-queue";

describe("the queue of refs waiting for a job", () => {
  it("keeps one entry per ref, in arrival order, the newest commit and time winning", () => {
    let q = enqueueRef([], { target: "refs/heads/a", commit: null, requestedAt: 1 });
    q = enqueueRef(q, { target: null, commit: "c1", requestedAt: 2 });
    q = enqueueRef(q, { target: "refs/heads/a", commit: "c2", requestedAt: 3 });
    expect(q).toEqual([
      { target: "refs/heads/a", commit: "c2", requestedAt: 3 },
      { target: null, commit: "c1", requestedAt: 2 },
    ]);
    // A request for the tip keeps the commit a push announced.
    expect(enqueueRef(q, { target: null, commit: null, requestedAt: 4 })[1]).toEqual({ target: null, commit: "c1", requestedAt: 4 });
  });

  it("drops untracked refs but never the default ref, and takes the head", () => {
    const q = [
      { target: "refs/heads/a", commit: null, requestedAt: 1 },
      { target: null, commit: null, requestedAt: 2 },
    ];
    expect(dropRefs(q, new Set(["refs/heads/a"]))).toEqual([q[1]]);
    expect(takeNext(q)).toEqual([q[0], [q[1]]]);
    expect(takeNext([])).toEqual([null, []]);
  });
});
