/**
 * History extraction and the walks over it, checked against git itself: the fixture
 * (test/history-fixture.ts: a rename, a side branch, a merge) is read from disk with
 * isomorphic-git, extracted, and history and blame are compared with `git log --follow`,
 * `git log -L` and `git blame`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHistoryRepo, HISTORY_FILE } from "../../test/history-fixture";
import { blameLines, rangeHistory, WHOLE_FILE_END, type WalkSource } from "../../worker/history/walk";
import type { ChangeRecord, CommitGraph } from "../store/d1/history";
import { extractHistory, type ExtractedHistory } from "./extract";
import type { GitObjectReader } from "./tree-diff";

let work: string;
let extracted: ExtractedHistory;
let head: string;

function gitOut(...args: string[]): string {
  return execFileSync("git", args, { cwd: work, encoding: "utf8" }).trim();
}

function walkSource(h: ExtractedHistory): WalkSource {
  const graph: CommitGraph = new Map(h.commits.map((c) => [c.sha, { parents: c.parents, boundary: c.boundary, committerTime: c.committerTime }]));
  return {
    graph,
    spent: () => false,
    changes: async (path) => {
      const m = new Map<string, ChangeRecord[]>();
      for (const c of h.changes.filter((x) => x.path === path))
        m.set(
          c.sha,
          [...(m.get(c.sha) ?? []), c].sort((a, b) => a.parentIndex - b.parentIndex),
        );
      return m;
    },
  };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "history-"));
  buildHistoryRepo(work);
  head = gitOut("rev-parse", "HEAD");
  const gitdir = join(work, ".git");
  const cache = {};
  const reader: GitObjectReader = {
    readCommit: async (oid) => (await git.readCommit({ fs, gitdir, oid, cache })).commit,
    readTree: async (oid) => (await git.readTree({ fs, gitdir, oid, cache })).tree,
    readBlob: async (oid) => (await git.readBlob({ fs, gitdir, oid, cache })).blob,
  };
  extracted = await extractHistory(reader, head, { known: new Set(), shallow: new Set(), maxCommits: 100, maxBytes: 1 << 20 });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("extractHistory", () => {
  it("records every commit with its message and a rename row", () => {
    expect(extracted.commits.map((c) => c.sha).sort()).toEqual(gitOut("rev-list", "--all").split("\n").sort());
    const c4 = extracted.commits.find((c) => c.subject === "insert a half step")!;
    expect(c4.authorName).toBe("Alice");
    expect(c4.body).toContain("fractional constant");
    const renames = extracted.changes
      .filter((c) => c.status === "R")
      .map((c) => [extracted.commits.find((x) => x.sha === c.sha)!.subject, c.parentIndex, c.oldPath]);
    // The rename itself, and the merge against the side branch (which still had src/a.ts).
    expect(renames.sort()).toEqual([
      ["Merge branch 'side'", 1, "src/a.ts"],
      ["move a.ts to lib/b.ts", 0, "src/a.ts"],
    ]);
  });

  it("stores nothing for a commit already known", async () => {
    const known = new Set(extracted.commits.map((c) => c.sha));
    const again = await extractHistory(
      {
        readCommit: () => Promise.reject(new Error("read")),
        readTree: () => Promise.reject(new Error("read")),
        readBlob: () => Promise.reject(new Error("read")),
      },
      head,
      {
        known,
        shallow: new Set(),
        maxCommits: 100,
        maxBytes: 1 << 20,
      },
    );
    expect(again).toEqual({ commits: [], changes: [], stopped: null });
  });
});

describe("walks agree with git", () => {
  it("blame gives git blame's commit for every line", async () => {
    const n = gitOut("show", `HEAD:${HISTORY_FILE}`).split("\n").length;
    const lines = await blameLines(walkSource(extracted), head, HISTORY_FILE, 0, n);
    const porcelain = gitOut("blame", "--line-porcelain", HISTORY_FILE)
      .split("\n")
      .filter((l) => /^[0-9a-f]{40} /.test(l))
      .map((l) => l.slice(0, 40));
    expect(lines.map((l) => l.sha)).toEqual(porcelain);
    expect(lines[5]).toMatchObject({ path: "src/a.ts", line: 4, boundary: false }); // line 6 came from the side branch's a.ts line 5
  });

  it("whole-file history is git log --follow", async () => {
    const { steps, truncated } = await rangeHistory(walkSource(extracted), head, HISTORY_FILE, 0, WHOLE_FILE_END, 50);
    expect(steps.map((s) => s.sha)).toEqual(gitOut("log", "--format=%H", "--follow", HISTORY_FILE).split("\n"));
    expect(truncated).toBe(false);
  });

  it.each([
    [6, 6],
    [1, 2],
    [3, 4],
    [7, 7],
  ])("history of lines %i-%i is git log -L", async (start, end) => {
    const { steps } = await rangeHistory(walkSource(extracted), head, HISTORY_FILE, start - 1, end, 50);
    const expected = gitOut("log", "--format=%H", "-s", `-L${start},${end}:${HISTORY_FILE}`)
      .split("\n")
      .filter((l) => /^[0-9a-f]{40}$/.test(l));
    expect(steps.map((s) => s.sha)).toEqual(expected);
  });

  it("paginates: a limit stops the walk early", async () => {
    const { steps, truncated } = await rangeHistory(walkSource(extracted), head, HISTORY_FILE, 0, WHOLE_FILE_END, 2);
    expect(steps).toHaveLength(2);
    expect(truncated).toBe(true);
  });
});
