/**
 * Hunk placement (issue #49's blank-line blame mismatch): where an added or removed block could
 * sit at several positions (bordered by blank lines or repeated fence lines), blame over the
 * stored hunks must name the commits `git blame` names. The fixture is built with the git CLI
 * and extracted with isomorphic-git, as extract.test.ts does.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blameLines, type WalkSource } from "../../worker/history/walk";
import type { ChangeRecord, CommitGraph } from "../store/d1/history";
import { extractHistory, type ExtractedHistory } from "./extract";
import { lineHunks } from "./hunks";

let work: string;
let extracted: ExtractedHistory;
let head: string;

function gitOut(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: work,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Bob",
      GIT_AUTHOR_EMAIL: "bob@example.com",
      GIT_COMMITTER_NAME: "Bob",
      GIT_COMMITTER_EMAIL: "bob@example.com",
      GIT_AUTHOR_DATE: "2024-02-01T00:00:00Z",
      GIT_COMMITTER_DATE: "2024-02-01T00:00:00Z",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: work,
    },
  }).trim();
}

function commit(files: Record<string, string[]>, message: string): void {
  for (const [path, lines] of Object.entries(files)) writeFileSync(join(work, path), `${lines.join("\n")}\n`);
  gitOut("add", "-A");
  gitOut("commit", "-q", "-m", message);
}

const fence = (name: string) => ["```{eval-rst}", `.. autofunction:: ${name}`, "```"];
const fn = (name: string, value: number) => [`def ${name}():`, `    return ${value}`];
// Ten functions apart by blank lines, the fifth with a body of two runs around a blank line.
const module = (body: string[]) => [
  ...[1, 2, 3, 4].flatMap((i) => [...fn(`f${i}`, i), ""]),
  "def f5():",
  ...body,
  "",
  ...[6, 7, 8, 9, 10].flatMap((i) => ["", ...fn(`f${i}`, i)]),
];
const run = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `    ${tag}${i} = ${i}`);

function walkSource(h: ExtractedHistory): WalkSource {
  const graph: CommitGraph = new Map(h.commits.map((c) => [c.sha, { parents: c.parents, boundary: c.boundary, committerTime: c.committerTime }]));
  return {
    graph,
    spent: () => false,
    changes: async (path) => {
      const m = new Map<string, ChangeRecord[]>();
      for (const c of h.changes.filter((x) => x.path === path)) m.set(c.sha, [...(m.get(c.sha) ?? []), c]);
      return m;
    },
  };
}

function gitBlame(path: string, ...flags: string[]): string[] {
  return gitOut("blame", "--line-porcelain", ...flags, path)
    .split("\n")
    .filter((l) => /^[0-9a-f]{40} /.test(l))
    .map((l) => l.slice(0, 40));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "placement-"));
  gitOut("init", "-q", "-b", "main");
  commit(
    {
      "api.md": ["# API", "", ...fence("alpha"), "", ...fence("beta")],
      "app.py": ["import os", "", "", ...fn("alpha", 1), "", "", ...fn("beta", 2)],
      "body.py": module([...run("a", 3), "", ...run("b", 3)]),
    },
    "first",
  );
  // A fenced block inserted between two (the indent heuristic decides), a function between two,
  // and a body rewritten around its blank line (git counts that blank line as changed: it has
  // many copies and sits among unmatched lines).
  commit(
    {
      "body.py": module([...run("c", 4), "", ...run("d", 4)]),
      "api.md": ["# API", "", ...fence("alpha"), "", ...fence("gamma"), "", ...fence("beta")],
      "app.py": ["import os", "", "", ...fn("alpha", 1), "", "", ...fn("gamma", 3), "", "", ...fn("beta", 2)],
    },
    "add gamma",
  );
  // The first function removed with its blank lines: which blank lines stay is the diff's choice.
  commit({ "app.py": ["import os", "", "", ...fn("gamma", 3), "", "", ...fn("beta", 2), "", "", ...fn("delta", 4)] }, "drop alpha, add delta");
  head = gitOut("rev-parse", "HEAD");
  const gitdir = join(work, ".git");
  const cache = {};
  extracted = await extractHistory(
    {
      readCommit: async (oid) => (await git.readCommit({ fs, gitdir, oid, cache })).commit,
      readTree: async (oid) => (await git.readTree({ fs, gitdir, oid, cache })).tree,
      readBlob: async (oid) => (await git.readBlob({ fs, gitdir, oid, cache })).blob,
    },
    head,
    { known: new Set(), shallow: new Set(), maxCommits: 100, maxBytes: 1 << 20 },
  );
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("hunk placement agrees with git", () => {
  it.each(["api.md", "app.py", "body.py"])("blame of %s gives git blame's commit for every line", async (path) => {
    const want = gitBlame(path);
    const lines = await blameLines(walkSource(extracted), head, path, 0, want.length);
    expect(lines.map((l) => l.sha)).toEqual(want);
  });

  it("the fixture depends on git's indent heuristic, not only on sliding", () => {
    // Without the heuristic git slides the block down; with it (the default) it does not.
    expect(gitBlame("api.md", "--no-indent-heuristic")).not.toEqual(gitBlame("api.md"));
  });

  it("places every hunk as git diff -U0 does", () => {
    const shas = gitOut("rev-list", "HEAD").split("\n").slice(0, -1);
    for (const sha of shas)
      for (const path of ["api.md", "app.py", "body.py"]) {
        const before = gitOut("show", `${sha}^:${path}`).split("\n");
        const after = gitOut("show", `${sha}:${path}`).split("\n");
        const want = [...gitOut("diff", "-U0", `${sha}^`, sha, "--", path).matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)].map((m) => {
          const [o, ol, n, nl] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3]), Number(m[4] ?? 1)];
          const os = ol === 0 ? o : o - 1;
          const ns = nl === 0 ? n : n - 1;
          return [os, os + ol, ns, ns + nl];
        });
        expect(lineHunks(before, after), `${path} at ${sha}`).toEqual(want);
      }
  });
});
