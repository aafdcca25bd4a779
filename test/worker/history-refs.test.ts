/**
 * History and blame per tracked ref (issue #49, docs/history.md): a copy of the `history.git`
 * fixture (test/history-fixture.ts) gets a branch `feature` with one commit of its own that
 * rewrites line 3 of lib/b.ts; the repo is registered with `refs: ["feature"]`, so the
 * coordinator fetches both refs with history from the loopback git server. History, blame and
 * commit search then answer per ref (REST and MCP): feature's commit appears at feature and
 * never at main, each answer names its ref and commit, and an unknown ref is a 404 naming the
 * tracked refs.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURE_FILE, FEATURE_SUBJECT, HISTORY_FILE, HISTORY_SUBJECTS } from "../history-fixture";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { refOf, waitForRefs } from "./refs-helpers";
import { createUpstream, pushCommit, setUpstreamRefs } from "./upstream";

const REPO = "hist-refs";
const S = HISTORY_SUBJECTS;
const F1 = FEATURE_SUBJECT;

type Json = Record<string, any>;
let main: string;
let feature: string;

async function get(path: string): Promise<{ status: number; body: Json }> {
  const res = await api(path);
  return { status: res.status, body: await res.json<Json>() };
}
const subjects = (b: Json) => (b.commits as { subject: string }[]).map((c) => c.subject);
const perLine = (b: Json) =>
  (b.ranges as { start: number; end: number; subject: string }[]).flatMap((r) => Array.from({ length: r.end - r.start + 1 }, () => r.subject));

beforeAll(async () => {
  const { url } = await createUpstream(REPO, undefined, "history");
  await setUpstreamRefs(REPO, { "refs/heads/feature": "main" });
  const pushed = await pushCommit(REPO, { [HISTORY_FILE]: FEATURE_FILE }, "feature", F1);
  expect((await api("/api/repos", { method: "POST", json: { url, name: REPO, refs: ["feature"] } })).status).toBe(202);
  const s = await waitForRefs(REPO, (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
  main = refOf(s, "refs/heads/main").commit!;
  feature = refOf(s, "refs/heads/feature").commit!;
  expect(feature).toBe(pushed);
  await commitsRecorded(REPO, [main, feature]);
});

/**
 * Waits until each ref's history step (run after its snapshot is planned, so possibly after the
 * ref is ready) has put the ref's commit into the repo's commit graph.
 */
async function commitsRecorded(repo: string, shas: string[]): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM commits WHERE repo = ? AND sha IN (${shas.map(() => "?").join(",")})`)
      .bind(repo, ...shas)
      .first<{ n: number }>();
    if (row?.n === shas.length) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the commits ${shas.join(", ")} of ${repo} were not recorded`);
}

describe("history per ref", () => {
  it("lists feature's own commit at feature only, and names the ref and commit it walked from", async () => {
    const atMain = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}`);
    expect(atMain.status, JSON.stringify(atMain.body)).toBe(200);
    expect(subjects(atMain.body)).toEqual([S.C5, S.C4, S.C3, S.S1, S.C2, S.C1]);
    expect(atMain.body).toMatchObject({ ref: "refs/heads/main", commit: main });
    const atFeature = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&ref=feature`);
    expect(atFeature.status, JSON.stringify(atFeature.body)).toBe(200);
    expect(subjects(atFeature.body)).toEqual([F1, S.C5, S.C4, S.C3, S.S1, S.C2, S.C1]);
    expect(atFeature.body).toMatchObject({ ref: "refs/heads/feature", commit: feature });
    expect(atFeature.body.commits[0].sha).toBe(feature);
    // feature's fetch added its commit to the repo's one graph and left the meta row the default's.
    const meta = await env.DB.prepare("SELECT head, ref FROM repo_history WHERE repo = ?").bind(REPO).first();
    expect(meta).toEqual({ head: main, ref: "refs/heads/main" });
  });

  it("follows a line range at each ref, and takes the ref's commit as the ref", async () => {
    expect(subjects((await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&start=3&end=3`)).body)).toEqual([S.C1]);
    const byCommit = await get(`/api/repos/${REPO}/history?path=${HISTORY_FILE}&start=3&end=3&ref=${feature.slice(0, 12)}`);
    expect(subjects(byCommit.body)).toEqual([F1, S.C1]);
    expect(byCommit.body).toMatchObject({ ref: "refs/heads/feature", commit: feature, range: { start: 3, end: 3 } });
  });
});

describe("blame per ref", () => {
  it("blames line 3 on feature's commit at feature, and on the first commit at main", async () => {
    const atMain = await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}`);
    expect(atMain.status, JSON.stringify(atMain.body)).toBe(200);
    expect(perLine(atMain.body)).toEqual([S.C3, S.C2, S.C1, S.C4, S.C1, S.S1, S.C5]);
    expect(atMain.body).toMatchObject({ ref: "refs/heads/main", commit: main });
    const atFeature = await get(`/api/repos/${REPO}/blame?path=${HISTORY_FILE}&ref=refs/heads/feature`);
    expect(atFeature.status, JSON.stringify(atFeature.body)).toBe(200);
    expect(perLine(atFeature.body)).toEqual([S.C3, S.C2, F1, S.C4, S.C1, S.S1, S.C5]);
    expect(atFeature.body).toMatchObject({ ref: "refs/heads/feature", commit: feature });
  });

  it("answers an unknown ref with 404 ref_not_found naming the tracked refs", async () => {
    for (const route of ["history", "blame"]) {
      const { status, body } = await get(`/api/repos/${REPO}/${route}?path=${HISTORY_FILE}&ref=nope`);
      expect(status, route).toBe(404);
      expect(body.error.code).toBe("ref_not_found");
      expect(body.error.message).toContain("Tracked refs: main (default), feature.");
    }
  });
});

describe("commit search per ref", () => {
  it("searches every tracked ref's commits without ref, and only those reachable from ref with it", async () => {
    const all = await get(`/api/search/commits?q=triple&repo=${REPO}`);
    expect(subjects(all.body)).toEqual([F1]);
    expect(all.body).toMatchObject({ ref: null, commit: null });
    const onFeature = await get(`/api/search/commits?q=triple&repo=${REPO}&ref=feature`);
    expect(subjects(onFeature.body)).toEqual([F1]);
    expect(onFeature.body).toMatchObject({ ref: "refs/heads/feature", commit: feature });
    const onMain = await get(`/api/search/commits?q=triple&repo=${REPO}&ref=main`);
    expect(onMain.status).toBe(200);
    expect(subjects(onMain.body)).toEqual([]);
    expect(subjects((await get(`/api/search/commits?q=half+step&repo=${REPO}&ref=main`)).body)).toEqual([S.C4]);
    const noRepo = await get(`/api/search/commits?q=triple&ref=feature`);
    expect(noRepo.status).toBe(400);
    expect(noRepo.body.error.message).toContain("repo");
    expect((await get(`/api/search/commits?q=triple&repo=${REPO}&ref=nope`)).status).toBe(404);
  });
});

describe("MCP tools per ref", () => {
  it("file_history, blame and search_commits take ref and name it", async () => {
    const client = await connect();
    const h = await call(client, "file_history", { repo: REPO, path: HISTORY_FILE, start: 3, end: 3, ref: "feature" });
    expect(h.isError, text(h)).toBeFalsy();
    expect(subjects(h.structuredContent!)).toEqual([F1, S.C1]);
    expect(text(h)).toContain(`at feature (${feature.slice(0, 12)})`);
    const b = await call(client, "blame", { repo: REPO, path: HISTORY_FILE, start: 3, end: 3, ref: "feature" });
    expect(text(b)).toContain(`${feature.slice(0, 12)} `);
    expect(text(b)).toContain(`: ${F1}`);
    const onMain = await call(client, "blame", { repo: REPO, path: HISTORY_FILE, start: 3, end: 3 });
    expect(text(onMain)).not.toContain(F1);
    const missing = await call(client, "file_history", { repo: REPO, path: HISTORY_FILE, ref: "nope" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("Tracked refs: main (default), feature.");
    const found = await call(client, "search_commits", { q: "triple third", repo: REPO, ref: "feature" });
    expect(text(found)).toContain(F1);
  });
});
