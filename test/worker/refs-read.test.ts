/**
 * Reading a ref (issue #49, worker/services/refs.ts): two snapshots of one repo (main, and
 * feature which adds src/feature.ts; test/worker/refs-fixture.ts) read apart by `ref` over REST
 * and MCP (search, grep, files, symbols, references, context, outline, tree, skipped, source
 * links), together over several repos, an unknown or not yet indexed ref as 404 ref_not_found
 * naming the tracked refs, a ref on an archive as 400, and every result naming its ref and commit.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { runReviewTool } from "../../worker/review/tools";
import { LOCAL_ADMIN, serviceContext } from "../../worker/services/context";
import { api } from "../helpers";
import { call, connect, text } from "./mcp-client";
import { FEATURE_COMMIT, MAIN_COMMIT, OTHER_COMMIT, REPO, seedRefs } from "./refs-fixture";

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await api(path);
  return { status: res.status, body: await res.json() };
}
async function post(path: string, json: unknown): Promise<{ status: number; body: any }> {
  const res = await api(path, { method: "POST", json });
  return { status: res.status, body: await res.json() };
}
const paths = (results: { path: string }[]) => results.map((r) => r.path);

describe("reading a ref", () => {
  beforeAll(seedRefs);

  it("search: a function only on feature is found only with ref=feature, and every result names its ref and commit", async () => {
    const q = { q: "expressDeliveryQuote express delivery quote", repo: REPO, k: 5 };
    const main = await post("/api/search", q);
    expect(main.status).toBe(200);
    expect(paths(main.body.results)).not.toContain("src/feature.ts");
    for (const r of main.body.results) expect(r).toMatchObject({ ref: "refs/heads/main", commit: MAIN_COMMIT });

    const feature = await post("/api/search", { ...q, ref: "feature" });
    expect(feature.status).toBe(200);
    expect(feature.body.results[0]).toMatchObject({
      path: "src/feature.ts",
      symbol: "expressDeliveryQuote",
      ref: "refs/heads/feature",
      commit: FEATURE_COMMIT,
    });
    for (const r of feature.body.results) expect(r).toMatchObject({ ref: "refs/heads/feature", commit: FEATURE_COMMIT });
    const byGet = await get(`/api/search?q=expressDeliveryQuote&repo=${REPO}&ref=refs/heads/feature`);
    expect(byGet.body.results[0]).toMatchObject({ path: "src/feature.ts", commit: FEATURE_COMMIT });
  });

  it("grep: the same line is matched on feature only, each match naming its snapshot", async () => {
    const main = await post("/api/grep", { pattern: "expressDeliveryQuote", repo: REPO });
    expect(main.body).toMatchObject({ total_count: 0, matches: [] });
    const feature = await get(`/api/grep?pattern=expressDeliveryQuote&repo=${REPO}&ref=feature`);
    expect(feature.status).toBe(200);
    expect(feature.body.matches.map((m: any) => `${m.path}:${m.line}:${m.ref}:${m.commit}`)).toEqual([`src/feature.ts:3:refs/heads/feature:${FEATURE_COMMIT}`]);
    const shared = await post("/api/grep", { pattern: "computeShippingRate(weight: number)", repo: REPO, ref: "v1" });
    expect(shared.body.matches).toEqual([expect.objectContaining({ path: "src/rates.ts", ref: "refs/tags/v1", commit: MAIN_COMMIT })]);
  });

  it("several repos with a ref: repos without it are reported, the others searched; without ref each repo's default", async () => {
    const repos = [REPO, "refs-other"];
    const s = await post("/api/search", { q: "computeShippingRate", repos, ref: "feature", k: 10 });
    expect(s.status).toBe(200);
    expect(new Set(s.body.results.map((r: any) => `${r.repo}@${r.commit}`))).toEqual(new Set([`${REPO}@${FEATURE_COMMIT}`]));
    expect(s.body.stats.failedRepos).toEqual([
      { repo: "refs-other", error: expect.stringMatching(/^ref_not_found: Repo "refs-other" does not track ref "feature"/) },
    ]);

    const g = await post("/api/grep", { pattern: "computeShippingRate", ref: "feature" });
    expect(g.body.withoutRef).toEqual(expect.arrayContaining(["refs-other", "refs-upload"]));
    expect(new Set(g.body.matches.map((m: any) => m.repo))).toEqual(new Set([REPO]));

    const all = await post("/api/search", { q: "computeShippingRate", repos, k: 10 });
    expect(new Set(all.body.results.map((r: any) => `${r.repo}@${r.ref}@${r.commit}`))).toEqual(
      new Set([`${REPO}@refs/heads/main@${MAIN_COMMIT}`, `refs-other@refs/heads/main@${OTHER_COMMIT}`]),
    );
    expect(all.body.stats.failedRepos).toEqual([]);
  });

  it("an unknown ref is 404 ref_not_found naming the tracked refs and how to add one; one not indexed yet says so", async () => {
    const unknown = await get(`/api/repos/${REPO}/files/src/rates.ts?ref=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("ref_not_found");
    expect(unknown.body.error.message).toBe(
      `Repo "${REPO}" does not track ref "nope". Tracked refs: main (default), feature, later (indexing, not indexed yet), v1. ` +
        `To add one, PATCH the whole list (it replaces the tracked refs): PATCH /api/repos/${REPO} {"refs": ["refs/heads/feature", "refs/tags/v1", "refs/heads/later", "nope"]}, ` +
        `then read it once GET /api/repos/${REPO} lists it ready.`,
    );
    const commit = await get(`/api/repos/${REPO}/files/src/rates.ts?ref=${"9".repeat(12)}`);
    expect(commit.status).toBe(404);
    expect(commit.body.error.message).toBe(
      `Repo "${REPO}" has no snapshot at commit "${"9".repeat(12)}": reads serve the snapshots of tracked refs only. ` +
        "Tracked refs: main (default), feature, later (indexing, not indexed yet), v1. Pass one of them, or omit ref for the default.",
    );
    const later = await post("/api/search", { q: "rate", repo: REPO, ref: "later" });
    expect(later.status).toBe(404);
    expect(later.body.error.message).toContain('Ref "later" of repo "refs-read" is tracked but has no indexed snapshot yet (status: indexing)');
    const nowhere = await post("/api/grep", { pattern: "rate", ref: "nope" });
    expect(nowhere).toMatchObject({ status: 404, body: { error: { code: "ref_not_found" } } });
    expect(nowhere.body.error.message).toMatch(/^No repo in scope has a snapshot of ref "nope"\./);
    const archive = await get("/api/repos/refs-upload/tree?ref=main");
    expect(archive.status).toBe(400);
    expect(archive.body.error.message).toContain("archive, which has one snapshot and no refs");
    expect((await get("/api/repos/refs-upload/tree")).body).toMatchObject({ ref: null, commit: "c".repeat(40) });
  });

  it("files, tree, outline, context, symbols and references read the ref's snapshot and name it", async () => {
    expect((await get(`/api/repos/${REPO}/files/src/feature.ts`)).body.error.code).toBe("file_not_found");
    const file = await get(`/api/repos/${REPO}/files/src/feature.ts?ref=feature&start=3&end=3`);
    expect(file.body).toMatchObject({
      ref: "refs/heads/feature",
      commit: FEATURE_COMMIT,
      lines: [{ n: 3, text: "export function expressDeliveryQuote(weight: number): number {" }],
    });
    expect((await get(`/api/repos/${REPO}/files/src/rates.ts?ref=main`)).body).toMatchObject({ ref: "refs/heads/main", commit: MAIN_COMMIT });
    expect((await get(`/api/repos/${REPO}/files/src/rates.ts?ref=${FEATURE_COMMIT.slice(0, 10)}`)).body.ref).toBe("refs/heads/feature");
    const tree = await get(`/api/repos/${REPO}/tree?ref=feature`);
    expect(tree.body).toMatchObject({ ref: "refs/heads/feature", total_count: 2 });
    expect((await get(`/api/repos/${REPO}/tree`)).body).toMatchObject({ ref: "refs/heads/main", total_count: 1 });
    const outline = await get(`/api/repos/${REPO}/outline/src/feature.ts?ref=feature`);
    expect(outline.body.symbols.map((s: any) => s.name)).toEqual(["expressDeliveryQuote"]);
    const context = await get(`/api/repos/${REPO}/context?path=src/feature.ts&line=4&ref=feature`);
    expect(context.body).toMatchObject({ ref: "refs/heads/feature", chunk: { symbol: "expressDeliveryQuote" } });

    expect((await get(`/api/repos/${REPO}/symbols?name=expressDeliveryQuote`)).body.symbols).toEqual([]);
    const sym = await get(`/api/repos/${REPO}/symbols?name=expressDeliveryQuote&ref=feature`);
    expect(sym.body.symbols).toEqual([expect.objectContaining({ path: "src/feature.ts", ref: "refs/heads/feature", commit: FEATURE_COMMIT })]);
    const refs = await get(`/api/repos/${REPO}/references?symbol=computeShippingRate&ref=feature`);
    expect(new Set(refs.body.references.map((r: any) => `${r.path}@${r.ref}`))).toEqual(
      new Set(["src/rates.ts@refs/heads/feature", "src/feature.ts@refs/heads/feature"]),
    );
    const mainRefs = await get(`/api/repos/${REPO}/references?symbol=computeShippingRate`);
    expect(paths(mainRefs.body.references)).toEqual(["src/rates.ts"]);
  });

  it("a chunk id from a search at a ref opens without the ref; a source link carries the ref", async () => {
    const hit = (await post("/api/search", { q: "expressDeliveryQuote", repo: REPO, ref: "feature" })).body.results[0];
    const ctx = await get(`/api/repos/${REPO}/context?chunk_id=${hit.chunkId}`);
    expect(ctx.body).toMatchObject({ path: "src/feature.ts", ref: "refs/heads/feature", commit: FEATURE_COMMIT });
    const link = await post("/api/source-links", { repo: REPO, path: "src/feature.ts", ref: "feature", startLine: 3 });
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(/&ref=refs%2Fheads%2Ffeature#L3$/);
    const page = await api(new URL(link.body.url).pathname + new URL(link.body.url).search);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain(`feature commit <code>${FEATURE_COMMIT.slice(0, 12)}</code>`);
    // The page's script asks history, symbols and references about this ref (web/client/source-queries.ts).
    expect(pageHtml).toContain('data-ref="refs/heads/feature"');
    expect((await post("/api/source-links", { repo: REPO, path: "src/feature.ts" })).status).toBe(404);
  });

  it("the reviewer's tools read the review's ref (a ref the model passes is ignored); skipped files are listed per ref", async () => {
    const tc = { service: serviceContext(env, LOCAL_ADMIN), origin: "" };
    const read = await runReviewTool("read_file", { path: "src/feature.ts", ref: "main" }, REPO, tc, "refs/heads/feature");
    expect(read.isError).toBe(false);
    expect(read.text).toContain(`feature@${FEATURE_COMMIT.slice(0, 12)}`);
    const onMain = await runReviewTool("read_file", { path: "src/feature.ts" }, REPO, tc);
    expect(onMain).toMatchObject({ isError: true, text: expect.stringContaining("file_not_found") });
    expect((await get(`/api/repos/${REPO}/skipped?ref=feature`)).body).toMatchObject({ ref: "refs/heads/feature", commit: FEATURE_COMMIT, total: 0 });
  });

  it("MCP tools take ref and their text names the snapshot", async () => {
    const client = await connect();
    const s = await call(client, "search_code", { query: "expressDeliveryQuote", repo: REPO, ref: "feature" });
    expect(s.isError).toBeFalsy();
    expect(text(s)).toContain(`read at: ${REPO} feature@${FEATURE_COMMIT.slice(0, 12)}`);
    const g = await call(client, "grep", { pattern: "expressDeliveryQuote", repo: REPO, ref: "feature" });
    expect(text(g)).toContain("src/feature.ts");
    const r = await call(client, "read_file", { repo: REPO, path: "src/feature.ts", ref: "feature" });
    expect(text(r)).toContain(`feature@${FEATURE_COMMIT.slice(0, 12)}`);
    const missing = await call(client, "find_symbol", { name: "expressDeliveryQuote", repo: REPO, ref: "nope" });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("Tracked refs: main (default), feature");
    expect(text(missing)).toContain("Next: Omit ref to read the default branch, or pass one of the tracked refs the message lists");
    const status = await call(client, "get_index_status", { repo: REPO });
    expect(text(status)).toContain("; refs: main (default), feature, later (indexing, not indexed yet), v1");
    expect(text(await call(client, "get_index_status", { repo: "refs-other" }))).not.toContain("refs:");
  });
});
