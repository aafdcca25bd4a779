/**
 * The Vectorize path of the vector index per shard (indexer/store/vectors/indexes.ts), in
 * workerd: repos are indexed through the real pipeline (local vectors, one index per shard),
 * then each shard's vectors are copied into a Vectorize fake of its own (vectorize-fake.ts,
 * which refuses what Vectorize refuses) bound as `VECTORIZE`, `VECTORIZE_1`, `VECTORIZE_2` with
 * `VECTORIZE_BINDINGS`. The search service with those bindings queries only the indexes holding
 * the searched repos and returns what the local indexes return; deleting a repo removes its
 * vectors from its own index only. (Indexing through Vectorize needs the queue and the
 * coordinator, whose env the test cannot replace: the routing they use is the same resolver.)
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listShards } from "../../indexer/store/shards";
import { FakeVectorize } from "../../indexer/store/vectors/vectorize-fake";
import { loadConfig, type Env } from "../../kernel/env";
import { LOCAL_ADMIN, serviceContext } from "../../worker/services/context";
import { removeRepo } from "../../worker/services/repos";
import { search, searchInput } from "../../worker/services/search";
import { repoStatus, uploadFilesAndWait } from "./ingest-helpers";

const A: Record<string, string> = {
  "session.ts": "/** Refreshes an expired session token. */\nexport function refreshSession(token: string) {\n  return token + '.renewed';\n}\n",
  "users.ts": "/** Finds a user by id. */\nexport function getUserById(id: string) {\n  return { id };\n}\n",
};
const B: Record<string, string> = {
  "session.go": "package auth\n\n// RefreshToken refreshes a session token.\nfunc RefreshToken(s string) string { return s }\n",
  "invoice.py": 'def total_with_tax(lines, rate):\n    """Sums invoice lines and adds tax."""\n    return sum(lines) * (1 + rate)\n',
};
const QUERIES = ["refresh session token", "find user by id", "invoice tax"];

async function indexInto(id: string, shard: number, files: Record<string, string>): Promise<void> {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at, shard) VALUES (?, ?, 'archive', 'queued', ?, ?, ?)")
    .bind(id, id, now, now, shard)
    .run();
  await uploadFilesAndWait(id, files);
  expect((await repoStatus(id)).placement).toEqual({ shard, movingTo: null });
}

/**
 * One Vectorize fake per shard holding all of that shard's local vectors, and an env that binds
 * them. All, not only this file's repos: a row another file left behind (test/reset-storage.ts)
 * then shows as a non-empty index where none is expected.
 */
async function vectorizeEnv(): Promise<{ env: Env; indexes: FakeVectorize[] }> {
  const dims = loadConfig(env).embeddingDimensions;
  const indexes = listShards(env).map(() => new FakeVectorize(dims));
  for (const [n, { db }] of listShards(env).entries()) {
    const { results } = await db.prepare("SELECT repo, id, hex(vector) AS hex FROM local_vectors").all<{ repo: string; id: string; hex: string }>();
    const vectors = results.map((r) => ({
      id: r.id,
      namespace: r.repo,
      values: new Float32Array(new Uint8Array(r.hex.match(/../g)!.map((h) => parseInt(h, 16))).buffer),
    }));
    for (let i = 0; i < vectors.length; i += 1000) await indexes[n].upsert(vectors.slice(i, i + 1000));
  }
  const bound = {
    VECTOR_STORE: "vectorize",
    VECTORIZE_BINDINGS: "VECTORIZE,VECTORIZE_1,VECTORIZE_2",
    VECTORIZE: indexes[0],
    VECTORIZE_1: indexes[1],
    VECTORIZE_2: indexes[2],
  };
  return { env: { ...env, ...bound } as unknown as Env, indexes };
}

/** Vector-mode results (repo, path, lines, score) of every query over `repos` with `e`'s bindings. */
async function answers(e: Env, repos: string[]): Promise<{ repo: string; path: string; startLine: number; score: number }[][]> {
  const out = [];
  for (const q of QUERIES) {
    const r = await search(serviceContext(e, LOCAL_ADMIN), searchInput.parse({ q, repos, mode: "vector", k: 20 }));
    expect(r.stats.failedRepos).toEqual([]);
    out.push(r.results.map((h) => ({ repo: h.repo, path: h.path, startLine: h.startLine, score: h.score })));
  }
  return out;
}

const queries = (f: FakeVectorize) => f.calls.filter((c) => c.method === "query").length;

describe("a Vectorize index per shard", () => {
  it("queries only the indexes holding the searched repos and returns what the local indexes return", async () => {
    await indexInto("vz-a", 1, A);
    await indexInto("vz-b", 2, B);
    const local = await answers(env, ["vz-a", "vz-b"]);
    expect(local.flat().some((h) => h.repo === "vz-a") && local.flat().some((h) => h.repo === "vz-b")).toBe(true);
    // Each repo's vectors sit in its own shard's index only (none in the catalog's, shard 0).
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM local_vectors WHERE repo IN ('vz-a', 'vz-b')").first("n")).toBe(0);
    const { env: ve, indexes } = await vectorizeEnv();
    expect(await Promise.all(indexes.map(async (i) => (await i.describe()).vectorCount > 0))).toEqual([false, true, true]);

    const remote = await answers(ve, ["vz-a", "vz-b"]);
    expect(remote.map((r) => r.map(({ score: _s, ...h }) => h))).toEqual(local.map((r) => r.map(({ score: _s, ...h }) => h)));
    remote.flat().forEach((h, i) => expect(h.score).toBeCloseTo(local.flat()[i].score, 5));
    // At least one query per search into each index holding a searched repo (the vector channel may ask again, deeper), none elsewhere.
    const asked = indexes.map(queries);
    expect(asked[0]).toBe(0);
    expect(Math.min(asked[1], asked[2])).toBeGreaterThanOrEqual(QUERIES.length);

    expect((await answers(ve, ["vz-b"])).flat().every((h) => h.repo === "vz-b")).toBe(true);
    expect(indexes.map(queries).slice(0, 2)).toEqual(asked.slice(0, 2));
    expect(queries(indexes[2])).toBeGreaterThanOrEqual(asked[2] + QUERIES.length);
  });

  it("deletes a repo's vectors from its own index only", async () => {
    await indexInto("vz-c", 1, A);
    await indexInto("vz-d", 2, B);
    const { env: ve, indexes } = await vectorizeEnv();
    const before = await Promise.all(indexes.map(async (i) => (await i.describe()).vectorCount));
    await removeRepo(ve, loadConfig(ve), "vz-c");
    const after = await Promise.all(indexes.map(async (i) => (await i.describe()).vectorCount));
    expect(after[1]).toBeLessThan(before[1]);
    expect([after[0], after[2]]).toEqual([before[0], before[2]]);
    expect(indexes[2].calls.filter((c) => c.method === "deleteByIds")).toEqual([]);
    expect(indexes[0].calls.filter((c) => c.method === "deleteByIds")).toEqual([]);
  });
});
