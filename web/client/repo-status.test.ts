import { describe, expect, it } from "vitest";
import { addedWords, errorWords, isBusy, placementWords, progressShare, refLines, skippedWords, statusWords, type RepoStatusView } from "./repo-status";

const base: RepoStatusView = {
  id: "r",
  sourceKind: "git",
  url: "https://x/r.git",
  ref: null,
  status: "indexing",
  progress: { filesTotal: 120, filesQueued: 120, filesDone: 40, chunks: 0 },
  skipped: {},
  index: null,
  snapshot: null,
  lastError: null,
};

describe("repo status in words", () => {
  it("lists each tracked ref with its commit and state, the default first", () => {
    const ref = { pattern: null, indexedAt: 1, lastError: null };
    const refs = [
      { ...ref, name: "refs/heads/main", default: true, commit: "a".repeat(40), status: "ready" as const },
      { ...ref, name: "refs/tags/v2.1", default: false, pattern: "v2.*", commit: null, status: "queued" as const },
      { ...ref, name: "refs/heads/feature", default: false, commit: "b".repeat(40), status: "failed" as const, lastError: "fetch failed" },
    ];
    expect(refLines({ ...base, refs })).toEqual([
      { name: "main (default)", commit: "a".repeat(12), state: "Ready", failed: false },
      { name: "v2.1", commit: null, state: "Waiting to be indexed", failed: false },
      { name: "feature", commit: "b".repeat(12), state: "Indexing failed: fetch failed", failed: true },
    ]);
    expect(refLines(base)).toEqual([]);
  });

  it("says which shard holds the index, and where a move takes it", () => {
    expect(placementWords(base)).toBeNull();
    expect(placementWords({ ...base, placement: { shard: null, movingTo: null } })).toBeNull();
    expect(placementWords({ ...base, placement: { shard: 1, movingTo: null } })).toBe("Shard 1");
    expect(placementWords({ ...base, placement: { shard: 0, movingTo: 2 } })).toBe("Shard 0, moving to shard 2");
  });

  it("says what a job is doing and how far it is", () => {
    expect(statusWords(base)).toBe("Indexing: 40 of 120 files");
    expect(progressShare(base)).toBeCloseTo(1 / 3);
    expect(statusWords({ ...base, status: "queued" })).toBe("Waiting to be indexed");
    expect(statusWords({ ...base, status: "fetching", sourceKind: "archive" })).toBe("Reading the upload");
    expect(progressShare({ ...base, progress: { ...base.progress, filesTotal: 0 } })).toBeNull();
    expect([isBusy("queued"), isBusy("indexing"), isBusy("ready"), isBusy("failed")]).toEqual([true, true, false, false]);
  });

  it("lists skip reasons largest first, in words", () => {
    expect(skippedWords({ binary: 2, too_large: 5, ignored: 0, new_reason: 1 }).map((s) => `${s.count} ${s.words}`)).toEqual([
      "5 too large",
      "2 binary",
      "1 new reason",
    ]);
  });

  it("never names an MCP tool or an API route to a person", () => {
    const w = errorWords("Fetch failed: 401 from the git host. Check get_index_status, or POST /api/repos/r/refresh with a token.");
    expect(w).not.toMatch(/get_index_status|\/api\//);
    expect(w).toContain("Fetch failed: 401 from the git host.");
  });

  it("follows a just-added repo to ready or failed in the add form's words", () => {
    expect(addedWords(base)).toBe("r: Indexing: 40 of 120 files.");
    const ready = addedWords({ ...base, status: "ready", index: { files: 700, chunks: 1234 } });
    expect(ready).toBe("r is ready to search. 700 files, 1,234 chunks.");
    expect(ready).not.toMatch(/started/);
    expect(addedWords({ ...base, status: "failed", lastError: null })).toBe("Indexing r failed.");
  });
});
