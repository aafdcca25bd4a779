import { describe, expect, it } from "vitest";
import { parseMultifileSet, perFileRecall } from "./multifile.ts";
import { isSourcePath, parseGitLog, queryFromMessage, rejectReason, selectInstances, type LoggedCommit } from "./multifile-select.ts";

const commit = (over: Partial<LoggedCommit>): LoggedCommit => ({
  sha: "a".repeat(40),
  parents: ["b".repeat(40)],
  author: "Jane <jane@example.com>",
  date: "2024-01-02T00:00:00Z",
  message: "Fix redirect loop when the base URL has a trailing slash",
  changes: [
    { status: "M", path: "src/client.py" },
    { status: "M", path: "src/urls.py" },
    { status: "M", path: "tests/test_client.py" },
    { status: "M", path: "CHANGES.rst" },
  ],
  ...over,
});

describe("multi-file selection rules", () => {
  it("counts product source only", () => {
    expect(isSourcePath("src/werkzeug/routing/map.py")).toBe(true);
    expect(isSourcePath("lib/adapters/http.js")).toBe(true);
    expect(isSourcePath("types/hooks.d.ts")).toBe(true);
    expect(isSourcePath("router.go")).toBe(true);
    for (const p of [
      "tests/test_x.py",
      "test_x.py",
      "router_test.go",
      "src/a.test.ts",
      "docs/conf.py",
      "setup.py",
      "dist/axios.js",
      "types/index.test-d.ts",
      "README.md",
    ]) {
      expect(isSourcePath(p)).toBe(false);
    }
  });

  it("keeps a described fix of 2 modified source files and says why others are left out", () => {
    expect(rejectReason(commit({}))).toBeNull();
    expect(rejectReason(commit({ parents: ["b", "c"] }))).toBe("merge or root commit");
    expect(rejectReason(commit({ author: "dependabot[bot] <x>" }))).toBe("bot author");
    expect(rejectReason(commit({ message: "Add a retry option to the client for flaky servers" }))).toBe("subject names no defect");
    expect(rejectReason(commit({ message: "Fix typo in the client docstring of redirects" }))).toMatch(/docs, tests/);
    expect(rejectReason(commit({ message: "feat: raise a clearer error on bad redirects" }))).toMatch(/feature or a revert/);
    expect(rejectReason(commit({ message: "Fix #123 (#124)" }))).toBe("message under 5 words");
    expect(rejectReason(commit({ changes: [{ status: "M", path: "src/a.py" }] }))).toBe("1 source files");
    expect(
      rejectReason(
        commit({
          changes: [
            { status: "M", path: "src/a.py" },
            { status: "A", path: "src/b.py" },
          ],
        }),
      ),
    ).toMatch(/adds, deletes/);
  });

  it("drops trailers from the query and takes the most recent kept commits, oldest first", () => {
    expect(queryFromMessage("Fix the thing\n\nbody line\nSigned-off-by: A <a@b>\nCo-authored-by: C <c@d>")).toBe("Fix the thing\n\nbody line");
    const older = commit({ sha: "1".repeat(40), date: "2020-01-01T00:00:00Z" });
    const newer = commit({ sha: "2".repeat(40), date: "2023-01-01T00:00:00Z" });
    const newest = commit({ sha: "3".repeat(40), date: "2024-01-01T00:00:00Z" });
    const picked = selectInstances("pallets/werkzeug", [newer, older, newest], 2);
    expect(picked.map((p) => p.commit)).toEqual([newer.sha, newest.sha]);
    expect(picked[0]).toMatchObject({ instance_id: "werkzeug-2222222222", base_commit: "b".repeat(40), gold_files: ["src/client.py", "src/urls.py"] });
  });

  it("parses the git log format the builder asks for", () => {
    const text = `\x1e${"a".repeat(40)}\x1f${"b".repeat(40)}\x1fJane <j@x>\x1f2024-01-02T00:00:00Z\x1fFix x\n\nbody\n\x1f\n\nM\tsrc/a.py\nM\tsrc/b.py\n`;
    const [c] = parseGitLog(text);
    expect(c).toMatchObject({
      parents: ["b".repeat(40)],
      message: "Fix x\n\nbody",
      changes: [
        { status: "M", path: "src/a.py" },
        { status: "M", path: "src/b.py" },
      ],
    });
  });
});

describe("multi-file metrics", () => {
  it("pools per-file recall over all gold files", () => {
    const details = [
      { id: "a", goldRanks: [1, 7] },
      { id: "b", goldRanks: [3, null, 12] },
    ];
    expect(perFileRecall(details, 5)).toBeCloseTo(2 / 5);
    expect(perFileRecall(details, 10)).toBeCloseTo(3 / 5);
    expect(perFileRecall([], 10)).toBe(0);
  });

  it("rejects an instance with fewer than two gold files", () => {
    const inst = { instance_id: "x", repo: "o/n", commit: "c", base_commit: "p", problem_statement: "q", gold_files: ["a.py"] };
    expect(() => parseMultifileSet({ instances: [inst] })).toThrow(/x: "gold_files" must list at least 2/);
    expect(parseMultifileSet({ instances: [{ ...inst, gold_files: ["a.py", "b.py"] }] })).toHaveLength(1);
  });
});
