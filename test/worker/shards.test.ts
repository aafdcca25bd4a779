/**
 * Shards (issue #45, docs/storage.md "Shards"): a repo's search results (order, fused scores,
 * channel ranks) are the same whatever shard holds it and whatever else shares that shard, for a
 * one-repo search and for a search over repos in one shard or in two. The test Worker has three
 * shards (test/config/wrangler-test-config.ts); repos are indexed through the real archive
 * pipeline into the shard their catalog row names.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { databaseBytes, shardFills } from "../../indexer/store/shard-placement";
import { listShards, repoDb, shardDb } from "../../indexer/store/shards";
import { api } from "../helpers";
import { repoStatus, uploadFilesAndWait } from "./ingest-helpers";

/** The repo whose results are compared: a few files sharing words, so IDF and coverage matter. */
const TREE: Record<string, string> = {
  "src/auth/session.ts": [
    "/** Refreshes an expired session token with the refresh token. */",
    "export async function refreshSession(token: string): Promise<string> {",
    "  const session = await loadSession(token);",
    "  if (session.expiresAt < Date.now()) return renewToken(session);",
    "  return session.token;",
    "}",
    "",
    "export function loadSession(token: string) {",
    "  return { token, expiresAt: 0 };",
    "}",
  ].join("\n"),
  "src/auth/token.ts": [
    "/** Issues a new token for a session; tokens expire after an hour. */",
    "export function renewToken(session: { token: string }): string {",
    "  return `${session.token}.renewed`;",
    "}",
  ].join("\n"),
  "src/db/users.ts": [
    "export class UserStore {",
    "  /** Finds a user by id, or null. */",
    "  getUserById(id: string) {",
    "    return this.rows.get(id) ?? null;",
    "  }",
    "  rows = new Map<string, { id: string; name: string }>();",
    "}",
  ].join("\n"),
  "lib/invoice.py": [
    "def total_with_tax(lines, rate):",
    '    """Sums invoice lines and adds tax at rate."""',
    "    return sum(l.amount for l in lines) * (1 + rate)",
  ].join("\n"),
  "README.md": "# Demo\n\nSessions refresh their token when it expires; users are stored by id.\n",
};

/** Neighbours: other repos sharing the shard, with many of the same words (they would move IDF if statistics leaked). */
const NEIGHBOUR: Record<string, string> = {
  "session.go": 'package auth\n\n// RefreshToken refreshes a session token.\nfunc RefreshToken(session string) string { return session + "token" }\n',
  "users.py": "def get_user_by_id(users, user_id):\n    return users.get(user_id)\n\ndef refresh_users(users):\n    return dict(users)\n",
  "notes.md": "Token, session, refresh, expire, invoice, tax, user: words everyone uses.\n",
};

const QUERIES = ["refresh expired session token", "getUserById", "invoice tax total", "where are users stored", "renewToken session"];

/** Creates the catalog row of archive repo `id` placed on `shard` (as placement would), then indexes `files` into it. */
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

/** Full result lists (ids, paths, lines, scores, channel ranks and stage factors) of every query over `repos`. */
async function answers(repos: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUERIES) {
    const res = await api("/api/search", { method: "POST", json: { q, repos, k: 20, explain: true } });
    const body = (await res.json()) as { results: unknown[]; confidence: unknown; stats: { queryTerms: string[]; failedRepos: unknown[] } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.stats.failedRepos).toEqual([]);
    out.push({ q, results: body.results, confidence: body.confidence, terms: body.stats.queryTerms });
  }
  return out;
}

/** Rows of `id` in each shard: only its serving shard holds any. */
async function rowsPerShard(id: string): Promise<number[]> {
  return Promise.all(
    listShards(env).map(async ({ db }) => (await db.prepare("SELECT count(*) AS n FROM chunks WHERE repo = ?").bind(id).first<{ n: number }>())!.n),
  );
}

describe("shards", () => {
  it("has three shards besides the catalog, each reporting its size", async () => {
    const shards = listShards(env);
    expect(shards.map((s) => s.binding)).toEqual(["SHARD_0", "SHARD_1", "SHARD_2"]);
    for (const s of shards) {
      expect(s.db).not.toBe(env.DB);
      expect(await databaseBytes(s.db)).toBeGreaterThan(0);
    }
  });

  it("gives a repo the same results alone in one shard and beside other repos in another", async () => {
    await indexInto("same", 0, TREE);
    expect(await rowsPerShard("same")).toEqual([expect.any(Number), 0, 0]);
    const alone = await answers(["same"]);
    expect((alone[0] as { results: unknown[] }).results.length).toBeGreaterThan(0);
    await remove("same");
    expect(await rowsPerShard("same")).toEqual([0, 0, 0]);

    await indexInto("nb-1", 2, NEIGHBOUR);
    await indexInto("nb-2", 2, { ...NEIGHBOUR, "extra.ts": "export const sessionTokenRefresh = 1;\n" });
    await indexInto("same", 2, TREE);
    expect((await rowsPerShard("same"))[2]).toBeGreaterThan(0);
    expect(await answers(["same"])).toEqual(alone);
  });

  it("gives a search over two repos the same results when they share a shard and when they do not", async () => {
    await indexInto("pair-a", 1, TREE);
    await indexInto("pair-b", 1, NEIGHBOUR);
    const together = await answers(["pair-a", "pair-b"]);
    await remove("pair-a");
    await indexInto("pair-a", 0, TREE);
    expect(await repoDb(env, "pair-a")).toBe(shardDb(env, 0));
    expect(await repoDb(env, "pair-b")).toBe(shardDb(env, 1));
    expect(await answers(["pair-a", "pair-b"])).toEqual(together);
  });

  it("places a new repo on the least-full shard and reports each shard's fill", async () => {
    const fills = await shardFills(env);
    const least = [...fills].sort((a, b) => a.bytes - b.bytes || a.repos - b.repos || a.shard - b.shard)[0].shard;
    await uploadFilesAndWait("placed", { "a.ts": "export const placed = 1;\n" });
    expect((await repoStatus("placed")).placement).toEqual({ shard: least, movingTo: null });
    expect(await rowsPerShard("placed")).toEqual(fills.map((f) => (f.shard === least ? 1 : 0)));
  });
});
