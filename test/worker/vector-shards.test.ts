/**
 * Vector indexes follow the D1 shards (issue #45; indexer/store/vectors/indexes.ts): the test
 * Worker's three shards give it three local vector indexes, each the `local_vectors` table of
 * its shard. A repo's vectors live in its shard's index only; its vector-channel results are the
 * same whatever index holds it and whatever shares that index; a search over repos in two
 * indexes queries both and merges them. Repos are indexed through the real archive pipeline.
 * (The move carrying vectors is in shards-move.test.ts.)
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listShards } from "../../indexer/store/shards";
import { vectorIndexName } from "../../indexer/store/vectors";
import { loadConfig } from "../../kernel/env";
import { api } from "../helpers";
import { repoStatus, uploadFilesAndWait } from "./ingest-helpers";

const TREE: Record<string, string> = {
  "src/auth/session.ts": [
    "/** Refreshes an expired session token with the refresh token. */",
    "export async function refreshSession(token: string): Promise<string> {",
    "  const session = await loadSession(token);",
    "  return session.expiresAt < Date.now() ? renewToken(session) : session.token;",
    "}",
    "export function loadSession(token: string) {",
    "  return { token, expiresAt: 0 };",
    "}",
  ].join("\n"),
  "src/auth/token.ts":
    "/** Issues a new token for a session. */\nexport function renewToken(session: { token: string }): string {\n  return `${session.token}.renewed`;\n}\n",
  "src/db/users.ts":
    "export class UserStore {\n  /** Finds a user by id, or null. */\n  getUserById(id: string) {\n    return this.rows.get(id) ?? null;\n  }\n  rows = new Map();\n}\n",
  "lib/invoice.py":
    'def total_with_tax(lines, rate):\n    """Sums invoice lines and adds tax at rate."""\n    return sum(l.amount for l in lines) * (1 + rate)\n',
};

/** Another repo with the same words, sharing an index with the compared one. */
const NEIGHBOUR: Record<string, string> = {
  "session.go": 'package auth\n\n// RefreshToken refreshes a session token.\nfunc RefreshToken(session string) string { return session + "token" }\n',
  "users.py": "def get_user_by_id(users, user_id):\n    return users.get(user_id)\n",
};

const QUERIES = ["refresh expired session token", "find user by id", "invoice tax total"];

/** Creates archive repo `id`'s catalog row placed on `shard`, then indexes `files` into it. */
async function indexInto(id: string, shard: number, files: Record<string, string>): Promise<void> {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at, shard) VALUES (?, ?, 'archive', 'queued', ?, ?, ?)")
    .bind(id, id, now, now, shard)
    .run();
  await uploadFilesAndWait(id, files);
  expect((await repoStatus(id)).placement).toEqual({ shard, movingTo: null });
}

async function remove(id: string): Promise<void> {
  expect((await api(`/api/repos/${id}`, { method: "DELETE" })).status).toBe(200);
}

/** `id`'s vectors in each shard's vector index, and its chunks in its serving shard. */
async function vectorsPerIndex(id: string): Promise<number[]> {
  return Promise.all(
    listShards(env).map(async ({ db }) => (await db.prepare("SELECT count(*) AS n FROM local_vectors WHERE repo = ?").bind(id).first<{ n: number }>())!.n),
  );
}

async function chunksOf(id: string, shard: number): Promise<number> {
  return (await listShards(env)[shard].db.prepare("SELECT count(*) AS n FROM chunks WHERE repo = ?").bind(id).first<{ n: number }>())!.n;
}

type Hit = { repo: string; path: string; score: number };

/** Vector-channel results (mode vector, with explain) of every query over `repos`. */
async function vectorAnswers(repos: string[]): Promise<{ q: string; results: Hit[] }[]> {
  const out: { q: string; results: Hit[] }[] = [];
  for (const q of QUERIES) {
    const res = await api("/api/search", { method: "POST", json: { q, repos, k: 20, mode: "vector", explain: true } });
    const body = (await res.json()) as { results: Hit[]; stats: { failedRepos: unknown[] } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.stats.failedRepos).toEqual([]);
    out.push({ q, results: body.results });
  }
  return out;
}

describe("vector indexes follow the shards", () => {
  it("gives the test Worker one local vector index per shard", () => {
    const config = loadConfig(env);
    expect(config.vectorStore).toBe("local");
    expect(listShards(env).map((s) => vectorIndexName(env, config, s.shard))).toEqual(["SHARD_0", "SHARD_1", "SHARD_2"]);
  });

  it("keeps a repo's vectors in its shard's index, with the same vector results in any index", async () => {
    await indexInto("vec", 0, TREE);
    const chunks = await chunksOf("vec", 0);
    expect(chunks).toBeGreaterThan(0);
    expect(await vectorsPerIndex("vec")).toEqual([chunks, 0, 0]);
    const alone = await vectorAnswers(["vec"]);
    for (const a of alone) expect(a.results.length, a.q).toBeGreaterThan(0);
    await remove("vec");
    expect(await vectorsPerIndex("vec")).toEqual([0, 0, 0]);

    await indexInto("vec-nb", 2, NEIGHBOUR);
    await indexInto("vec", 2, TREE);
    expect(await vectorsPerIndex("vec")).toEqual([0, 0, chunks]);
    expect(await vectorAnswers(["vec"])).toEqual(alone);
  });

  it("searches repos in two indexes by querying both and merging, as when they share one", async () => {
    await indexInto("vpair-a", 1, TREE);
    await indexInto("vpair-b", 1, NEIGHBOUR);
    const together = await vectorAnswers(["vpair-a", "vpair-b"]);
    expect(together.some((a) => a.results.some((h) => h.repo === "vpair-a"))).toBe(true);
    expect(together.some((a) => a.results.some((h) => h.repo === "vpair-b"))).toBe(true);
    await remove("vpair-b");
    await indexInto("vpair-b", 2, NEIGHBOUR);
    expect((await vectorsPerIndex("vpair-a"))[1]).toBeGreaterThan(0);
    expect(await vectorsPerIndex("vpair-b")).toEqual([0, 0, expect.any(Number)]);
    expect((await vectorsPerIndex("vpair-b"))[2]).toBeGreaterThan(0);
    expect(await vectorAnswers(["vpair-a", "vpair-b"])).toEqual(together);
  });
});
