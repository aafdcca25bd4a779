/**
 * History, blame and commit search (issue #49) end to end: the `history.git` fixture
 * (test/history-fixture.ts: a rename, a side branch, a merge) is fetched from the loopback git
 * server with history, and the REST routes and MCP tools answer from what was recorded.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { HISTORY_FILE, HISTORY_SUBJECTS } from "../history-fixture";
import { api } from "../helpers";
import { fixtureUrl, registerAndWait, uploadFilesAndWait } from "./ingest-helpers";
import { call, connect, text } from "./mcp-client";

const REPO = "hist";
type Json = Record<string, unknown> & { error?: { code: string; message: string } };

async function get(path: string, token?: string): Promise<{ status: number; body: Json }> {
  const res = token ? await SELF.fetch(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }) : await api(path);
  return { status: res.status, body: await res.json<Json>() };
}

const subjectsOf = (commits: { subject: string }[]) => commits.map((c) => c.subject);
const S = HISTORY_SUBJECTS;

/**
 * Waits until the repo's history step (run after its snapshot is planned, so possibly after the
 * job is ready) has written its meta row for the indexed commit.
 */
async function historyRecorded(repo: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const row = await env.DB.prepare("SELECT 1 FROM repo_history h JOIN repos r ON r.id = h.repo AND r.active_commit = h.head WHERE h.repo = ?")
      .bind(repo)
      .first();
    if (row) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`history of ${repo} was not recorded`);
}

beforeAll(async () => {
  const done = await registerAndWait({ url: fixtureUrl("history"), name: REPO });
  expect(done.status, JSON.stringify(done.lastError)).toBe("ready");
  await historyRecorded(REPO);
});

describe("GET /api/repos/{id}/history", () => {
  it("lists the file's commits newest first, through the rename, without the clean merge", async () => {
    const { status, body } = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const commits = body.commits as { subject: string; path: string }[];
    expect(subjectsOf(commits)).toEqual([S.C5, S.C4, S.C3, S.S1, S.C2, S.C1]);
    expect(commits.map((c) => c.path)).toEqual([HISTORY_FILE, HISTORY_FILE, HISTORY_FILE, "src/a.ts", "src/a.ts", "src/a.ts"]);
    expect(body).toMatchObject({ ref: "refs/heads/main", range: null, next_cursor: null, truncated: false });
    // The fixture's commits are from 2024: the default age window (365d) has none, so the
    // last commits were fetched instead, and the answer says so.
    expect(body).toMatchObject({ depth: "100", history_limit: "no commit in the last 365 days, so the last 100 commits (along every path)" });
  });

  it("follows a line range through the merge into the side branch, with before and after ranges", async () => {
    const { body } = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&start=6&end=6`);
    const commits = body.commits as { subject: string; before: unknown; after: unknown; author: { name: string } }[];
    expect(subjectsOf(commits)).toEqual([S.S1, S.C1]);
    expect(commits[0]).toMatchObject({ after: { path: "src/a.ts", start: 5, end: 5 }, before: { path: "src/a.ts", start: 5, end: 5 } });
    expect(commits[1]).toMatchObject({ before: null, author: { name: "Bob" } });
  });

  it("pages with next_cursor", async () => {
    const first = (await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&limit=4`)).body;
    expect(subjectsOf(first.commits as { subject: string }[])).toEqual([S.C5, S.C4, S.C3, S.S1]);
    expect(first.next_cursor).toBe("4");
    const second = (await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&limit=4&cursor=4`)).body;
    expect(subjectsOf(second.commits as { subject: string }[])).toEqual([S.C2, S.C1]);
    expect(second.next_cursor).toBeNull();
  });

  it("takes the tracked ref and refuses one the repo does not track (test/worker/history-refs.test.ts: several refs)", async () => {
    expect((await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&ref=main`)).status).toBe(200);
    const other = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&ref=side`);
    expect(other.status).toBe(404);
    expect(other.body.error).toMatchObject({ code: "ref_not_found" });
    expect(other.body.error!.message).toContain("Tracked refs: main (default).");
  });

  it("refuses a range past the file's end", async () => {
    const { status, body } = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&start=3&end=99`);
    expect(status).toBe(400);
    expect(body.error!.message).toContain("has 7 lines");
  });
});

describe("GET /api/repos/{id}/blame", () => {
  it("names the commit that last changed each line, across the rename and the merge", async () => {
    const { status, body } = await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const ranges = body.ranges as { start: number; end: number; subject: string; origin: { path: string; start: number }; boundary: boolean }[];
    const perLine = ranges.flatMap((r) => Array.from({ length: r.end - r.start + 1 }, () => r.subject));
    expect(perLine).toEqual([S.C3, S.C2, S.C1, S.C4, S.C1, S.S1, S.C5]);
    expect(ranges.find((r) => r.subject === S.S1)).toMatchObject({ start: 6, end: 6, origin: { path: "src/a.ts", start: 5 }, boundary: false });
    expect(body).toMatchObject({ depth: "100", history_limit: expect.stringContaining("no commit in the last 365 days") });
  });

  it("bounds the range", async () => {
    const { status, body } = await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}&start=2&end=3`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ start: 2, end: 3 });
    const past = await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}&start=5&end=2`);
    expect(past.status).toBe(400);
    expect(past.body.error!.message).toContain("before start");
  });
});

describe("GET /api/search/commits", () => {
  it("finds commits by words of the body, with author and date filters", async () => {
    const hit = (await get(`/api/search/commits?q=fractional+constant&repo=${REPO}`)).body;
    expect(subjectsOf(hit.commits as { subject: string }[])).toEqual([S.C4]);
    expect(hit.commits).toMatchObject([{ repo: REPO, author: { name: "Alice", email: "alice@example.com" }, date: "2024-01-05T00:00:00.000Z" }]);
    expect((await get(`/api/search/commits?q=fractional&author=bob`)).body.commits).toEqual([]);
    expect((await get(`/api/search/commits?q=fractional&until=2024-01-04`)).body.commits).toEqual([]);
    expect(subjectsOf((await get(`/api/search/commits?q=fractional&since=2024-01-05`)).body.commits as { subject: string }[])).toEqual([S.C4]);
  });

  it("ranks subject words, and searches every visible repo without `repo`", async () => {
    const { body } = await get(`/api/search/commits?q=side+change+five`);
    expect((body.commits as { subject: string }[])[0]!.subject).toBe(S.S1);
    expect(body.repos).toContain(REPO);
  });

  it("shows a token limited to other repos nothing of this one", async () => {
    const created = await (
      await api("/api/tokens", { method: "POST", json: { name: "other-repos", scopes: ["search"], repos: ["elsewhere"] } })
    ).json<{ token: string }>();
    const all = await get(`/api/search/commits?q=fractional`, created.token);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ commits: [], repos: [] });
    const one = await get(`/api/search/commits?q=fractional&repo=${REPO}`, created.token);
    expect(one.status).toBe(404);
    expect((await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}`, created.token)).status).toBe(404);
  });
});

describe("sources without history", () => {
  it("an archive answers history_unavailable and says to register the git URL", async () => {
    await uploadFilesAndWait("hist-archive", { "a.ts": "export const a = 1;\n" });
    for (const path of ["/api/repos/hist-archive/history?path=a.ts", "/api/repos/hist-archive/blame?path=a.ts", "/api/search/commits?q=a&repo=hist-archive"]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(409);
      expect(body.error!.code).toBe("history_unavailable");
      expect(body.error!.message).toContain("History is not available for this source");
      expect(body.error!.message).toContain("Register its git URL");
    }
  });

  it("a git repo fetched without history (its history rows gone) says to set HISTORY_DEPTH and refresh", async () => {
    await registerAndWait({ url: fixtureUrl("fixture"), name: "hist-shallow" });
    await historyRecorded("hist-shallow");
    await env.DB.prepare("DELETE FROM repo_history WHERE repo = ?").bind("hist-shallow").run();
    const { status, body } = await get(`/api/repos/hist-shallow/blame?path=src/users.ts`);
    expect(status).toBe(409);
    expect(body.error!.message).toContain("HISTORY_DEPTH");
    expect(body.error!.message).toContain("/api/repos/hist-shallow/refresh");
  });
});

describe("history over its budget", () => {
  it("answers history_unavailable with the note that names the budget", async () => {
    await registerAndWait({ url: fixtureUrl("fixture"), name: "hist-over" });
    await historyRecorded("hist-over");
    // What a step whose smallest window stayed over the pack budget leaves (indexer/history/record.ts).
    const note = "no history fetched: at depth 12d the pack passed the 6291456-byte budget";
    await env.DB.prepare("DELETE FROM commits WHERE repo = ?").bind("hist-over").run();
    await env.DB.prepare("UPDATE repo_history SET limit_note = ?, commits = 0 WHERE repo = ?").bind(note, "hist-over").run();
    const { status, body } = await get(`/api/repos/hist-over/blame?path=src/users.ts`);
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ code: "history_unavailable" });
    expect(body.error!.message).toContain(`was not recorded: ${note}`);
  });
});

describe("MCP tools", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });

  it("lists file_history, blame and search_commits with their schemas", async () => {
    const { tools } = await client.listTools();
    for (const name of ["file_history", "blame", "search_commits"]) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.annotations?.readOnlyHint).toBe(true);
    }
    expect(Object.keys(tools.find((t) => t.name === "blame")!.inputSchema.properties ?? {}).sort()).toEqual(["end", "path", "ref", "repo", "start"]);
  });

  it("answers like the routes", async () => {
    const history = await call(client, "file_history", { repo: REPO, path: HISTORY_FILE, start: 6, end: 6 });
    expect(history.isError).toBeFalsy();
    expect(subjectsOf((history.structuredContent as { commits: { subject: string }[] }).commits)).toEqual([S.S1, S.C1]);
    expect(text(history)).toContain(`${S.S1} [src/a.ts:5-5 -> src/a.ts:5-5]`);
    const blame = await call(client, "blame", { repo: REPO, path: HISTORY_FILE, start: 4, end: 4 });
    expect(text(blame)).toContain(`4: `);
    expect(text(blame)).toContain(`Alice: ${S.C4}`);
    const found = await call(client, "search_commits", { q: "fractional", repo: REPO });
    expect(text(found)).toContain(`Alice: ${S.C4}`);
    const archive = await call(client, "blame", { repo: "hist-archive", path: "a.ts" });
    expect(archive.isError).toBe(true);
    expect(text(archive)).toContain("History is not available for this source");
  });
});
