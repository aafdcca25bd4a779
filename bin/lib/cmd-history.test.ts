/**
 * `node --test`: `codebase-copilot history|blame|commits` against a loopback stand-in of
 * GET /api/repos/{id}/history, /blame and GET /api/search/commits: the query carries the routes'
 * parameter names (only those given), the output is one line per commit or blame range, usage
 * errors exit 2 before any request, and 404 ref_not_found, 409 history_unavailable and 413
 * exit 3, 5 and 5 with the server's message and what to do with the CLI.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";

const CLI = join(import.meta.dirname, "..", "codebase-copilot.ts");
const A = "a".repeat(40);
const B = "b".repeat(40);
const HEAD = "c".repeat(40);
const bob = { name: "Bob", email: "bob@example.com" };
const alice = { name: "Alice", email: "alice@example.com" };

const HISTORY = {
  repo: "nav",
  path: "lib/b.ts",
  ref: "refs/heads/main",
  commit: HEAD,
  range: { start: 3, end: 4 },
  commits: [
    {
      sha: A,
      author: alice,
      date: "2024-01-04T00:00:00.000Z",
      subject: "insert a half step",
      path: "lib/b.ts",
      after: { path: "lib/b.ts", start: 3, end: 4 },
      before: { path: "lib/b.ts", start: 3, end: 3 },
    },
    {
      sha: B,
      author: bob,
      date: "2024-01-01T00:00:00.000Z",
      subject: "add a.ts",
      path: "src/a.ts",
      after: { path: "src/a.ts", start: 3, end: 3 },
      before: null,
    },
  ],
  next_cursor: "2",
  truncated: true,
  depth: "500",
};
const BLAME = {
  repo: "nav",
  path: "lib/b.ts",
  ref: "refs/heads/feature",
  commit: HEAD,
  start: 1,
  end: 4,
  ranges: [
    {
      sha: A,
      author: alice,
      date: "2024-01-04T00:00:00.000Z",
      subject: "insert a half step",
      start: 1,
      end: 2,
      origin: { path: "lib/b.ts", start: 1, end: 2 },
      boundary: false,
    },
    {
      sha: B,
      author: bob,
      date: "2024-01-01T00:00:00.000Z",
      subject: "add a.ts",
      start: 3,
      end: 4,
      origin: { path: "src/a.ts", start: 2, end: 3 },
      boundary: true,
    },
  ],
};
const COMMITS = { commits: [{ ...HISTORY.commits[0]!, repo: "nav", body: "why", score: 2.5 }], repos: ["nav"], ref: "refs/heads/main", commit: HEAD };
const ERRORS: Record<string, [number, string, string]> = {
  archive: [409, "history_unavailable", 'History is not available for this source: repo "archive" was uploaded as an archive.'],
  slow: [413, "payload_too_large", "Blame of lib/b.ts lines 1-500 did not finish within 5000 ms; ask for fewer lines."],
};

const urls: string[] = [];
const server = createServer((req, res) => {
  const url = new URL(req.url!, "http://x");
  urls.push(req.url!);
  const repo = /^\/api\/repos\/([^/]+)\//.exec(url.pathname)?.[1] ?? "";
  const reply = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const error = ERRORS[repo];
  if (error) return reply(error[0], { error: { code: error[1], message: error[2] } });
  if (url.searchParams.get("ref") === "nope")
    return reply(404, { error: { code: "ref_not_found", message: 'Repo "nav" does not track "nope". Tracked: main (default).' } });
  if (url.pathname.endsWith("/history")) return reply(200, repo === "empty" ? { ...HISTORY, commits: [], next_cursor: null, truncated: false } : HISTORY);
  if (url.pathname.endsWith("/blame")) return reply(200, BLAME);
  if (url.pathname === "/api/search/commits") return reply(200, url.searchParams.get("q") === "nothing" ? { ...COMMITS, commits: [] } : COMMITS);
  reply(404, { error: { code: "not_found", message: "no such route" } });
});
// An ephemeral loopback port: no clash with other worktrees' fixed ranges.
await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
const port = (server.address() as AddressInfo).port;
after(() => server.close());

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const p = spawn(process.execPath, [CLI, "--url", `http://127.0.0.1:${port}`, "--token", "t", ...args]);
    let out = "";
    let err = "";
    p.stdout.on("data", (c: Buffer) => (out += String(c)));
    p.stderr.on("data", (c: Buffer) => (err += String(c)));
    p.on("close", (code) => ok({ code, out, err }));
  });
}

test("history sends the route's parameters and prints one line per commit with its line ranges", async () => {
  const r = await run("history", "nav", "lib/b.ts", "--start", "3", "--end", "4", "--ref", "main", "--limit", "2", "--cursor", "0");
  assert.equal(r.code, 0, r.err);
  assert.equal(urls.at(-1), "/api/repos/nav/history?path=lib%2Fb.ts&start=3&end=4&ref=main&limit=2&cursor=0");
  const lines = r.out.trimEnd().split("\n");
  assert.equal(lines[0], "lib/b.ts lines 3-4: 2 commits, newest first");
  assert.match(lines[1]!, /^aaaaaaaaaaaa {2}2024-01-04 {2}Alice {2}insert a half step {2}lines 3-4 \(were 3-3\)$/);
  assert.match(lines[2]!, /^bbbbbbbbbbbb {2}2024-01-01 {2}Bob {4}add a\.ts {12}lines src\/a\.ts:3-3 \(added\)$/);
  assert.deepEqual(lines.slice(3), ["more: --cursor 2", "older history is beyond the kept depth (500)", "read at: nav main@cccccccccccc"]);
});

test("history of a whole file sends only the path; no commit exits 1", async () => {
  const r = await run("history", "empty", "lib/b.ts");
  assert.equal(r.code, 1, r.err);
  assert.equal(urls.at(-1), "/api/repos/empty/history?path=lib%2Fb.ts");
  assert.match(r.out, /no commits/);
});

test("blame prints one line per range of consecutive lines of one commit, ^ for a boundary", async () => {
  const r = await run("blame", "nav", "lib/b.ts", "--start", "1", "--end", "4", "--ref", "feature");
  assert.equal(r.code, 0, r.err);
  assert.equal(urls.at(-1), "/api/repos/nav/blame?path=lib%2Fb.ts&start=1&end=4&ref=feature");
  const lines = r.out.trimEnd().split("\n");
  assert.equal(lines[0], "lib/b.ts lines 1-4");
  assert.match(lines[1]!, /^1-2 {2}aaaaaaaaaaaa {3}2024-01-04 {2}Alice {2}insert a half step$/);
  assert.match(lines[2]!, /^3-4 {2}\^bbbbbbbbbbbb {2}2024-01-01 {2}Bob {4}add a\.ts {12}\(was src\/a\.ts:2-3\)$/);
  assert.match(r.out, /\^: a boundary commit/);
  assert.match(r.out, /read at: nav feature@cccccccccccc/);
});

test("commits sends q and the filters by the route's names and prints repo, sha, date, author, subject", async () => {
  const r = await run(
    "commits",
    "half",
    "step",
    "--repo",
    "nav",
    "--ref",
    "main",
    "--author",
    "ali",
    "--since",
    "2024-01-01",
    "--until",
    "2024-02-01",
    "--limit",
    "5",
  );
  assert.equal(r.code, 0, r.err);
  assert.equal(urls.at(-1), "/api/search/commits?q=half+step&repo=nav&ref=main&author=ali&since=2024-01-01&until=2024-02-01&limit=5");
  assert.match(r.out, /^nav {2}aaaaaaaaaaaa {2}2024-01-04 {2}Alice {2}insert a half step$/m);
  assert.match(r.out, /searched: nav, commits reachable from main@cccccccccccc/);
  const none = await run("commits", "nothing");
  assert.equal(none.code, 1);
  assert.equal(urls.at(-1), "/api/search/commits?q=nothing");
});

test("--json prints the route's answer as is", async () => {
  const r = await run("--json", "blame", "nav", "lib/b.ts");
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), BLAME);
});

test("usage errors exit 2 with what to give, before any request", async () => {
  const sent = urls.length;
  const cases: [string[], RegExp][] = [
    [["history", "nav", "lib/b.ts", "--limit", "101"], /--limit must be at most 100/],
    [["commits", "x", "--limit", "51"], /--limit must be at most 50/],
    [["history", "nav", "lib/b.ts", "--end", "4"], /--end needs --start/],
    [["blame", "nav", "lib/b.ts", "--start", "5", "--end", "2"], /--end \(2\) is before --start \(5\)/],
    [["blame", "nav", "lib/b.ts", "--start", "1", "--end", "501"], /at most 500 lines per call/],
    [["blame", "nav", "lib/b.ts", "--start", "0"], /--start must be a positive integer/],
    [["commits", "x", "--ref", "main"], /--ref needs --repo/],
    [["blame", "nav"], /missing required argument 'path'/],
  ];
  for (const [args, message] of cases) {
    const r = await run(...args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, message, args.join(" "));
  }
  assert.equal(urls.length, sent, "nothing sent");
});

test("404 ref_not_found exits 3; 409 history_unavailable and 413 exit 5; each says what to do with the CLI", async () => {
  const ref = await run("history", "nav", "lib/b.ts", "--ref", "nope");
  assert.equal(ref.code, 3, ref.err);
  assert.match(ref.err, /404 Repo "nav" does not track "nope"\. Tracked: main \(default\)\.\n.*index <git-url> --ref <ref>/);
  const archive = await run("blame", "archive", "lib/b.ts");
  assert.equal(archive.code, 5, archive.err);
  assert.match(archive.err, /409 History is not available for this source.*\n.*codebase-copilot index <git-url> --wait/);
  const slow = await run("blame", "slow", "lib/b.ts", "--start", "1", "--end", "500");
  assert.equal(slow.code, 5, slow.err);
  assert.match(slow.err, /413 Blame of lib\/b\.ts .*\n.*5 s budget: narrow --start\/--end/);
  const commits = await run("commits", "x", "--repo", "nav", "--ref", "nope");
  assert.equal(commits.code, 3, commits.err);
});
