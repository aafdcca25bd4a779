/**
 * Fetching with history (HISTORY_DEPTH) from the loopback git server: a commit depth gives the
 * commits and the boundary, and a deep fetch git refuses (an age window without commits) still
 * gives the snapshot, without history, instead of failing the job.
 */
import { describe, expect, inject, it } from "vitest";
import { fetchSnapshot } from "./git";

const url = () => `${inject("gitServerUrl")}/history.git`;
const limits = { allowLoopback: true };

describe("fetchSnapshot with history", () => {
  it("fetches the asked number of commits, with the boundary in `shallow`", async () => {
    const s = await fetchSnapshot({ url: url(), limits, history: { commits: 2 } });
    expect(s.history?.depth).toBe("2");
    expect(s.history?.ref).toBe("refs/heads/main");
    const head = await s.history!.reader.readCommit(s.commit);
    // Depth 2 from the tip: the merge's child, then the merge, whose parents are the boundary.
    expect(s.history!.shallow.size).toBeGreaterThan(0);
    expect(s.history!.shallow.has(s.commit)).toBe(false);
    expect(head.parent).toHaveLength(1);
  });

  it("falls back to depth 1 without history when git refuses the deep fetch", async () => {
    // Every fixture commit is from 2024: a one-day window has none, and git refuses it.
    const s = await fetchSnapshot({ url: url(), limits, history: { days: 1 } });
    expect(s.history).toBeUndefined();
    expect(s.entries.map((e) => e.path).sort()).toEqual(["README.md", "lib/b.ts"]);
  });
});
