import { describe, expect, it } from "vitest";
import { dueRepos } from "./due";

describe("dueRepos", () => {
  const H = 3600_000;
  it("takes never-checked and overdue repos, oldest first, and skips disabled ones", () => {
    const rows = [
      { id: "fresh", pollIntervalSeconds: null, lastCheckedAt: 10 * H - 60_000 },
      { id: "old", pollIntervalSeconds: null, lastCheckedAt: 8 * H },
      { id: "never", pollIntervalSeconds: null, lastCheckedAt: null },
      { id: "off", pollIntervalSeconds: 0, lastCheckedAt: null },
      { id: "fast", pollIntervalSeconds: 300, lastCheckedAt: 10 * H - 300_000 },
    ];
    expect(dueRepos(rows, 10 * H)).toEqual(["never", "old", "fast"]);
    expect(dueRepos(rows, 10 * H, 3600, 2)).toEqual(["never", "old"]);
  });
});
