/**
 * End-to-end test of `codebase-copilot history|blame|commits` (issue #49; run by
 * `npm run test:e2e:cli` after test/e2e/cli.e2e.ts): starts the service as `npm start` does
 * (test/e2e/server.ts), serves the history fixture (test/history-fixture.ts: a rename, a side
 * branch, a merge) from the loopback git server (test/git-server.ts) with a branch `feature` that
 * rewrites line 3 of lib/b.ts, indexes it and then `feature` with the CLI, and runs the three
 * commands as separate processes: their output, exit codes and the routes' errors (409 for the
 * archive the server starts with, 404 for an untracked ref). The expected commits per line are
 * those `git blame` and `git log -L` give (indexer/history/extract.test.ts checks the walks
 * against them). Port from E2E_CLI_PORT (default 8797); serialise with `flock /tmp/e2e.lock`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../bin/lib/paths.ts";
import startGitServer, { gitControl as control } from "../git-server.ts";
import { FEATURE_FILE, FEATURE_SUBJECT, HISTORY_FILE, HISTORY_SUBJECTS as S } from "../history-fixture.ts";
import { withIndexedServer } from "./server.ts";

const PORT = Number(process.env.E2E_CLI_PORT ?? 8797);
const ARCHIVE = "e2e-cli-archive";
const REPO = "e2e-cli-history";
const F1 = FEATURE_SUBJECT;
const CLI = join(PROJECT_ROOT, "bin", "codebase-copilot.mjs");

/**
 * Runs the CLI with `env` on top of a clean environment. Asynchronous: the git server answers
 * from this process, so a blocking child would starve the fetches it makes the Worker do.
 */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CODEBASE_COPILOT_")));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Waits until each ref's history step (run after its snapshot is planned) answers: history can follow `--wait`. */
async function historyRecorded(base: string, token: string, refs: string[]): Promise<void> {
  for (const ref of refs) {
    for (let i = 0; ; i++) {
      const res = await fetch(`${base}/api/repos/${REPO}/history?path=${encodeURIComponent(HISTORY_FILE)}&limit=1&ref=${ref}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.body?.cancel();
      if (res.status === 200) break;
      if (i >= 200) throw new Error(`the history of ${ref} was not recorded in time (last status ${res.status})`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** The subject of each line a blame answer covers, in order. */
function perLine(b: { ranges: { start: number; end: number; subject: string }[] }): string[] {
  return b.ranges.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, () => r.subject));
}

async function main(): Promise<void> {
  let gitUrl = "";
  const stopGit = await startGitServer({ provide: (_key, value) => (gitUrl = value) });
  try {
    const writeReadme = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "README.md"), "# an archive: no commits\n");
    };
    await withIndexedServer(PORT, ARCHIVE, writeReadme, async ({ base, token }) => {
      const env = { CODEBASE_COPILOT_URL: base, CODEBASE_COPILOT_TOKEN: token, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "ccp-cli-history-")) };
      for (const cmd of ["history", "blame", "commits"]) assert.equal((await cli([cmd, "--help"], {})).code, 0, `${cmd} --help`);

      await control(gitUrl, "/repos", { name: REPO, from: "history" });
      await control(gitUrl, `/repos/${REPO}/refs`, { set: { "refs/heads/feature": "main" } });
      const feature = (await control(gitUrl, `/repos/${REPO}/commit`, { branch: "feature", files: { [HISTORY_FILE]: FEATURE_FILE }, message: F1 })).commit!;
      const url = `${gitUrl}/${REPO}.git`;
      const indexed = await cli(["index", url, "--name", REPO, "--wait"], env);
      assert.equal(indexed.code, 0, indexed.stderr);
      const tracked = await cli(["index", url, "--name", REPO, "--ref", "feature", "--wait"], env);
      assert.equal(tracked.code, 0, tracked.stderr);
      await historyRecorded(base, token, ["main", "feature"]);

      // history: the whole file through the rename, then one line through the merge, paged.
      const whole = JSON.parse((await cli(["history", REPO, HISTORY_FILE, "--json"], env)).stdout);
      assert.deepEqual(
        whole.commits.map((c: { subject: string }) => c.subject),
        [S.C5, S.C4, S.C3, S.S1, S.C2, S.C1],
      );
      const line6 = await cli(["history", REPO, HISTORY_FILE, "--start", "6", "--end", "6"], env);
      assert.equal(line6.code, 0, line6.stderr);
      const rows = line6.stdout.split("\n");
      assert.equal(rows[0], `${HISTORY_FILE} lines 6-6: 2 commits, newest first`);
      assert.match(rows[1]!, new RegExp(`^[0-9a-f]{12}  2024-01-03  Bob  ${S.S1}  lines src/a\\.ts:5-5 \\(were 5-5\\)$`));
      assert.match(rows[2]!, new RegExp(`^[0-9a-f]{12}  2024-01-01  Bob  ${S.C1} {2,}lines src/a\\.ts:5-5 \\(added\\)$`));
      assert.match(line6.stdout, /^read at: e2e-cli-history main@[0-9a-f]{12}$/m);
      const paged = await cli(["history", REPO, HISTORY_FILE, "--limit", "4"], env);
      assert.match(paged.stdout, /^more: --cursor 4$/m);
      const next = JSON.parse((await cli(["history", REPO, HISTORY_FILE, "--limit", "4", "--cursor", "4", "--json"], env)).stdout);
      assert.deepEqual(
        next.commits.map((c: { subject: string }) => c.subject),
        [S.C2, S.C1],
      );
      const atFeature = await cli(["history", REPO, HISTORY_FILE, "--start", "3", "--ref", "feature"], env);
      assert.match(atFeature.stdout.split("\n")[1]!, new RegExp(`^${feature.slice(0, 12)}  .*  ${F1}  lines 3-3 \\(were 3-3\\)$`));
      assert.match(atFeature.stdout, new RegExp(`read at: ${REPO} feature@${feature.slice(0, 12)}`));

      // blame: per line the commit `git blame` names, grouped; at feature, line 3 is its own commit.
      const blamed = JSON.parse((await cli(["blame", REPO, HISTORY_FILE, "--json"], env)).stdout);
      assert.deepEqual(perLine(blamed), [S.C3, S.C2, S.C1, S.C4, S.C1, S.S1, S.C5]);
      const human = await cli(["blame", REPO, HISTORY_FILE, "--start", "4", "--end", "6"], env);
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, new RegExp(`^4-4  [0-9a-f]{12}  2024-01-05  Alice  ${S.C4}$`, "m"));
      assert.match(human.stdout, new RegExp(`^6-6  [0-9a-f]{12}  2024-01-03  Bob {4}${S.S1} {2,}\\(was src/a\\.ts:5-5\\)$`, "m"));
      assert.deepEqual(
        perLine(JSON.parse((await cli(["blame", REPO, HISTORY_FILE, "--start", "3", "--end", "3", "--ref", "feature", "--json"], env)).stdout)),
        [F1],
      );
      assert.deepEqual(perLine(JSON.parse((await cli(["blame", REPO, HISTORY_FILE, "--start", "3", "--end", "3", "--json"], env)).stdout)), [S.C1]);

      // commits: words of a body, the author filter, and nothing found (exit 1).
      const found = await cli(["commits", "fractional", "constant", "--repo", REPO], env);
      assert.equal(found.code, 0, found.stderr);
      // Best first; feature's "... constant" commit matches too: every tracked ref's commits are searched.
      assert.match(found.stdout.split("\n")[0]!, new RegExp(`^${REPO}  [0-9a-f]{12}  2024-01-05  Alice {2,}${S.C4}$`));
      assert.match(found.stdout, /^searched: e2e-cli-history \(every tracked ref\)$/m);
      assert.equal((await cli(["commits", "triple", "--repo", REPO, "--ref", "main"], env)).code, 1, "feature's commit is not reachable from main");
      assert.equal((await cli(["commits", "fractional", "--author", "bob"], env)).code, 1);
      const reachable = JSON.parse((await cli(["commits", "triple", "--repo", REPO, "--ref", "feature", "--json"], env)).stdout);
      assert.deepEqual(
        reachable.commits.map((c: { sha: string }) => c.sha),
        [feature],
      );

      // The routes' errors: an archive keeps no history (409), an untracked ref (404).
      const archive = await cli(["blame", ARCHIVE, "README.md"], env);
      assert.equal(archive.code, 5, archive.stderr);
      assert.match(
        archive.stderr,
        /409 History is not available for this source: repo "e2e-cli-archive" was uploaded as an archive[^\n]*\n.*codebase-copilot index <git-url> --wait/,
      );
      const ref = await cli(["history", REPO, HISTORY_FILE, "--ref", "side"], env);
      assert.equal(ref.code, 3, ref.stderr);
      assert.match(ref.stderr, /404 .*Tracked refs: main \(default\), feature/);
      console.log(`cli history e2e: ok (history, blame and commits against ${base})`);
    });
  } finally {
    await stopGit();
  }
}

main().catch((err: unknown) => {
  console.error("cli history e2e: FAILED\n", err);
  process.exitCode = 1;
});
