/**
 * Moving a repo between shards (`POST /api/repos/{id}/move`) and the high-water mark
 * (docs/storage.md, "Shards"): the move re-indexes into the target, flips, deletes the old copy,
 * and search answers the same before and after; the vectors move with the rows, from the old
 * shard's vector index to the target's (indexer/store/vectors/indexes.ts); a shard past the mark takes no new repo, and
 * `GET /api/health/shards` says so.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chooseShard, placeRepo, shardFills } from "../../indexer/store/shard-placement";
import { listShards } from "../../indexer/store/shards";
import { LOCAL_ADMIN, serviceContext } from "../../worker/services/context";
import { shardHealth, vectorIndexWarnings } from "../../worker/services/shards";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";
import { fixtureUrl, registerAndWait, repoStatus, uploadFilesAndWait, waitForJob } from "./ingest-helpers";

async function chunksPerShard(id: string): Promise<number[]> {
  return Promise.all(
    listShards(env).map(async ({ db }) => (await db.prepare("SELECT count(*) AS n FROM chunks WHERE repo = ?").bind(id).first<{ n: number }>())!.n),
  );
}

/** `id`'s vectors in each shard's vector index (the local index of shard n is its `local_vectors`). */
async function vectorsPerShard(id: string): Promise<number[]> {
  return Promise.all(
    listShards(env).map(async ({ db }) => (await db.prepare("SELECT count(*) AS n FROM local_vectors WHERE repo = ?").bind(id).first<{ n: number }>())!.n),
  );
}

async function results(repo: string, q: string, mode = "hybrid"): Promise<unknown> {
  const res = await api("/api/search", { method: "POST", json: { q, repo, k: 20, explain: true, mode } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: unknown }).results;
}

describe("moving a repo between shards", () => {
  it("re-indexes into the target, flips, deletes the old copy; search answers the same", async () => {
    const first = await registerAndWait({ url: fixtureUrl(), name: "mover" });
    expect(first.status, first.lastError ?? "").toBe("ready");
    const from = first.placement.shard!;
    const to = (from + 1) % listShards(env).length;
    const before = await Promise.all(["getUserById", "invoice tax", "database connection"].map((q) => results("mover", q)));
    const vectorsBefore = await Promise.all(["find a user by id", "invoice tax"].map((q) => results("mover", q, "vector")));
    expect(vectorsBefore.every((r) => (r as unknown[]).length > 0)).toBe(true);
    const chunks = (await chunksPerShard("mover"))[from];
    expect(chunks).toBeGreaterThan(0);
    expect(await vectorsPerShard("mover")).toEqual([0, 1, 2].map((n) => (n === from ? chunks : 0)));

    const res = await api("/api/repos/mover/move", { method: "POST", json: { shard: to } });
    const body = (await res.json()) as { repo: RepoStatus; job: RepoStatus["job"] };
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.repo.placement).toEqual({ shard: from, movingTo: to });
    const done = await waitForJob("mover", body.job!.id);
    expect(done.status, done.lastError ?? "").toBe("ready");
    expect(done.placement).toEqual({ shard: to, movingTo: null });
    // Nothing was taken over: the target got every file (the snapshot commit is the same).
    expect(done.job?.unchanged).toBe(0);
    expect(done.snapshot?.commit).toBe(first.snapshot?.commit);
    const rows = await chunksPerShard("mover");
    expect(rows[from]).toBe(0);
    expect(rows[to]).toBeGreaterThan(0);
    expect(await vectorsPerShard("mover")).toEqual([0, 1, 2].map((n) => (n === to ? chunks : 0)));
    expect(await Promise.all(["getUserById", "invoice tax", "database connection"].map((q) => results("mover", q)))).toEqual(before);
    expect(await Promise.all(["find a user by id", "invoice tax"].map((q) => results("mover", q, "vector")))).toEqual(vectorsBefore);
  });

  it("refuses a shard that does not exist, the shard it is on, an archive repo, and a caller without admin", async () => {
    await uploadFilesAndWait("moved-archive", { "a.ts": "export const a = 1;\n" });
    const on = (await repoStatus("moved-archive")).placement.shard!;
    const move = (shard: number, headers: Record<string, string> = {}) => api("/api/repos/moved-archive/move", { method: "POST", json: { shard }, headers });
    const missing = await move(7);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/no shard 7; shards are 0\.\.2/);
    expect((await move(on)).status).toBe(400);
    const archive = await move((on + 1) % 3);
    expect(archive.status).toBe(400);
    expect(((await archive.json()) as { error: { message: string } }).error.message).toMatch(/archive/);
    const token = await api("/api/tokens", { method: "POST", json: { name: "indexer", scopes: ["index"] } });
    const { token: secret } = (await token.json()) as { token: string };
    expect((await move((on + 1) % 3, { authorization: `Bearer ${secret}` })).status).toBe(403);
    expect((await api("/api/repos/nowhere/move", { method: "POST", json: { shard: 0 } })).status).toBe(404);
  });
});

describe("the high-water mark", () => {
  it("chooses the least-full shard below the mark, and none when every shard is past it", () => {
    const fill = (shard: number, bytes: number, full: boolean, repos = 0) => ({ shard, binding: `SHARD_${shard}`, bytes, repos, full });
    expect(chooseShard([fill(0, 100, true), fill(1, 300, false), fill(2, 200, false)])).toBe(2);
    expect(chooseShard([fill(0, 200, false, 5), fill(1, 200, false, 1)])).toBe(1);
    expect(chooseShard([fill(0, 100, true), fill(1, 300, true)])).toBeNull();
  });

  it("still places a repo when every shard is past the mark, and the health report says so", async () => {
    await uploadFilesAndWait("hw-seed", { "a.ts": "export const seed = 1;\n" });
    const everyFull = { ...env, SHARD_HIGH_WATER_BYTES: "1" };
    const fills = await shardFills(everyFull);
    expect(fills.every((f) => f.full)).toBe(true);
    await env.DB.prepare(
      "INSERT INTO repos (id, name, source_kind, status, created_at, updated_at) VALUES ('hw-new', 'hw-new', 'archive', 'queued', 0, 0)",
    ).run();
    const least = [...fills].sort((a, b) => a.bytes - b.bytes)[0].bytes;
    const placed = await placeRepo(everyFull, "hw-new");
    expect(fills.find((f) => f.shard === placed)?.bytes).toBe(least);

    const health = await shardHealth(serviceContext(everyFull, LOCAL_ADMIN));
    expect(health.highWaterBytes).toBe(1);
    expect(health.warnings).toHaveLength(fills.length + 1);
    expect(health.warnings[0]).toMatch(/^shard 0 \(SHARD_0\) holds .* GB, past the high-water mark of 0\.00 GB: new repos go elsewhere\.$/);
    expect(health.warnings.at(-1)).toMatch(/Every shard is past the high-water mark/);

    const res = await api("/api/health/shards");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { highWaterBytes: number; shards: { binding: string; full: boolean; repos: number }[]; warnings: string[] };
    expect(body.highWaterBytes).toBe(8_000_000_000);
    expect(body.shards.map((s) => s.binding)).toEqual(["SHARD_0", "SHARD_1", "SHARD_2"]);
    const repos = (await env.DB.prepare("SELECT count(*) AS n FROM repos").first<{ n: number }>())!.n;
    expect(body.shards.reduce((n, s) => n + s.repos, 0)).toBe(repos);
    expect(body.shards.every((s) => !s.full)).toBe(true);
    expect(body.warnings).toEqual([]);
    // Each shard's own vector index and its size (hw-seed's vectors are in one of them).
    const sized = body as unknown as { shards: { vectorIndex: string; vectors: number }[]; vectorIndexWarnVectors: number };
    expect(sized.shards.map((s) => s.vectorIndex)).toEqual(["SHARD_0", "SHARD_1", "SHARD_2"]);
    const vectors = await Promise.all(
      listShards(env).map(async ({ db }) => (await db.prepare("SELECT count(*) AS n FROM local_vectors").first<{ n: number }>())!.n),
    );
    expect(sized.shards.map((s) => s.vectors)).toEqual(vectors);
    expect(vectors.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(sized.vectorIndexWarnVectors).toBe(8_000_000);
  });

  it("warns about a vector index near Vectorize's 10,000,000 vectors, once for shards that share it", () => {
    const shards = [
      { shard: 0, vectorIndex: "VECTORIZE", vectors: 9_000_000 },
      { shard: 1, vectorIndex: "VECTORIZE", vectors: 9_000_000 },
      { shard: 2, vectorIndex: "VECTORIZE_2", vectors: 7_999_999 },
      { shard: 3, vectorIndex: "VECTORIZE_3", vectors: 8_000_000 },
    ];
    expect(vectorIndexWarnings(shards, 8_000_000)).toEqual([
      "vector index VECTORIZE (shard 0, 1) holds 9,000,000 vectors, past 8,000,000 of Vectorize's 10,000,000 per index: give these shards an index each (npm run deploy -- --shards N) and move repos.",
      "vector index VECTORIZE_3 (shard 3) holds 8,000,000 vectors, past 8,000,000 of Vectorize's 10,000,000 per index: move repos to another shard.",
    ]);
  });
});
