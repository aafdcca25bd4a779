/**
 * The history fixture (issue #49), built with the git CLI in Node: one file renamed, changed on
 * a side branch, merged, changed again, so history and blame must follow a rename and pass
 * through a merge. test/git-server.ts serves it as `history.git`; indexer/history tests read it
 * from disk and compare with `git blame` and `git log -L`.
 *
 * main: C1 add src/a.ts, README.md -> C2 edit line 2 -> C3 rename to lib/b.ts, edit line 1
 *       -> C4 insert a line after 3 (Alice, with a body) -> M merge side -> C5 edit the last line
 * side (from C2): S1 edit line 5
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The file at the tip of `main`, as the walks must explain it. */
export const HISTORY_FILE = "lib/b.ts";

/** Subjects of the fixture's commits, by name. */
export const HISTORY_SUBJECTS = {
  C1: "add a.ts",
  C2: "tune the second line",
  S1: "side: change five",
  C3: "move a.ts to lib/b.ts",
  C4: "insert a half step",
  M: "Merge branch 'side'",
  C5: "finish with six v5",
} as const;

/** Subject of the `feature` branch's one commit, which the per-ref tests push on top of main's tip. */
export const FEATURE_SUBJECT = "feature: triple the third constant";

/** `HISTORY_FILE` at main's tip (C5) with line 3 rewritten: the feature commit's content. */
export const FEATURE_FILE = [
  "export const one = 11; // v3",
  "export const two = 22; // v2",
  "export const three = 33; // feature",
  "export const threeAndAHalf = 3.5;",
  "export const four = 4;",
  "export const five = 55; // side",
  "export const six = 66; // v5",
  "",
].join("\n");

function run(cwd: string, date: string, author: string, ...args: string[]): string {
  const [name, email] = author.split("|") as [string, string];
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  }).trim();
}

function write(root: string, path: string, lines: string[]): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), `${lines.join("\n")}\n`);
}

/** Builds the fixture's work tree in `work` (created) and returns its commits by name. */
export function buildHistoryRepo(work: string): Record<keyof typeof HISTORY_SUBJECTS, string> {
  mkdirSync(work, { recursive: true });
  const bob = "Bob|bob@example.com";
  const at = (day: number) => `2024-01-0${day}T00:00:00Z`;
  const commit = (day: number, author: string, message: string) => {
    run(work, at(day), author, "add", "-A");
    run(work, at(day), author, "commit", "-q", "-m", message);
    return run(work, at(day), author, "rev-parse", "HEAD");
  };
  const base = [
    "export const one = 1;",
    "export const two = 2;",
    "export const three = 3;",
    "export const four = 4;",
    "export const five = 5;",
    "export const six = 6;",
  ];
  run(work, at(1), bob, "init", "-q", "-b", "main");
  write(work, "src/a.ts", base);
  write(work, "README.md", ["# history fixture"]);
  const C1 = commit(1, bob, HISTORY_SUBJECTS.C1);
  const v2 = base.map((l, i) => (i === 1 ? "export const two = 22; // v2" : l));
  write(work, "src/a.ts", v2);
  const C2 = commit(2, bob, HISTORY_SUBJECTS.C2);
  run(work, at(3), bob, "checkout", "-q", "-b", "side");
  write(
    work,
    "src/a.ts",
    v2.map((l, i) => (i === 4 ? "export const five = 55; // side" : l)),
  );
  const S1 = commit(3, bob, HISTORY_SUBJECTS.S1);
  run(work, at(4), bob, "checkout", "-q", "main");
  mkdirSync(join(work, "lib"), { recursive: true });
  renameSync(join(work, "src/a.ts"), join(work, HISTORY_FILE));
  const v3 = v2.map((l, i) => (i === 0 ? "export const one = 11; // v3" : l));
  write(work, HISTORY_FILE, v3);
  const C3 = commit(4, bob, HISTORY_SUBJECTS.C3);
  const v4 = [...v3.slice(0, 3), "export const threeAndAHalf = 3.5;", ...v3.slice(3)];
  write(work, HISTORY_FILE, v4);
  const C4 = commit(5, "Alice|alice@example.com", `${HISTORY_SUBJECTS.C4}\n\nThe tokenizer needs a fractional constant between three and four.`);
  run(work, at(6), bob, "merge", "-q", "--no-ff", "-m", HISTORY_SUBJECTS.M, "side");
  const M = run(work, at(6), bob, "rev-parse", "HEAD");
  const merged = run(work, at(6), bob, "show", `HEAD:${HISTORY_FILE}`).split("\n");
  write(
    work,
    HISTORY_FILE,
    merged.map((l) => (l.startsWith("export const six") ? "export const six = 66; // v5" : l)),
  );
  const C5 = commit(7, bob, HISTORY_SUBJECTS.C5);
  return { C1, C2, S1, C3, C4, M, C5 };
}
