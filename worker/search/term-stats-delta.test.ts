import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotStatisticsStatements } from "../../indexer/store/d1/snapshots";
import { documentFrequencies, STEM_LOOKUP } from "./term-stats";

/**
 * A snapshot's statistics stored as a delta against the active snapshot (migrations/0032,
 * indexer/store/d1/snapshot-stats.ts) read as the same frequencies as the same members stored in
 * full. Per-file term counts are written as `file_terms` rows directly.
 */
const REPO = "delta";
const FILES: Record<string, Record<string, number>> = {
  f1: { queue: 1, push: 1 },
  f2: { queue: 2, pool: 1 },
  f3: { zebra: 1, queues: 1 },
  f4: { router: 1, queue: 1 },
  f3b: { zebra: 2 },
  f5: { quokka: 1, queue: 1 },
};
/** base: the active snapshot; x and y: a.ts and b.ts as in base, c.ts rewritten (no more `queues`), d.ts gone (`router` only there), e.ts added. */
const BASE = { "a.ts": "f1", "b.ts": "f2", "c.ts": "f3", "d.ts": "f4" };
const OTHER = { "a.ts": "f1", "b.ts": "f2", "c.ts": "f3b", "e.ts": "f5" };
const TERMS = ["queue", "queues", "router", "zebra", "quokka", "push", "pool", "queuing", "routing", "zebras"];

function members(commit: string, files: Record<string, string>): D1PreparedStatement[] {
  return Object.entries(files).map(([path, id]) =>
    env.DB.prepare("INSERT INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(REPO, commit, path, id),
  );
}

async function keys(commit: string) {
  return env.DB.prepare(
    "SELECT terms_key AS key, base_key AS base, (SELECT count(*) FROM snapshot_df d WHERE d.repo = s.repo AND d.terms_key = s.terms_key) AS rows FROM snapshot_stats s WHERE repo = ? AND commit_sha = ?",
  )
    .bind(REPO, commit)
    .first<{ key: number; base: number | null; rows: number }>();
}

beforeAll(async () => {
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO repos (id, name, source_kind, status, created_at, updated_at, active_commit) VALUES (?, ?, 'git', 'ready', ?, ?, 'base')").bind(
      REPO,
      REPO,
      now,
      now,
    ),
    ...Object.entries(FILES).map(([id, terms]) =>
      env.DB.prepare("INSERT INTO file_terms (repo, file_id, part, terms) VALUES (?, ?, 0, ?)").bind(REPO, id, JSON.stringify(terms)),
    ),
    ...members("base", BASE),
    ...members("x", OTHER),
    ...members("y", OTHER),
  ]);
  await env.DB.batch(snapshotStatisticsStatements(env.DB, REPO, "base"));
  await env.DB.batch(snapshotStatisticsStatements(env.DB, REPO, "x", { againstActive: true }));
  await env.DB.batch(snapshotStatisticsStatements(env.DB, REPO, "y"));
});

describe("statistics stored as a delta", () => {
  it("hold only the terms whose frequency differs from the base's", async () => {
    const base = await keys("base");
    const x = await keys("x");
    const y = await keys("y");
    expect(base!.base).toBeNull();
    expect(y!.base).toBeNull();
    expect(x!.base).toBe(base!.key);
    // queues -1, router -1, zebra +1, quokka +1; queue: -1 (d.ts) +1 (e.ts) = 0, so no row.
    const { results } = await env.DB.prepare("SELECT term, df FROM snapshot_df WHERE repo = ? AND terms_key = ? ORDER BY term").bind(REPO, x!.key).all();
    expect(results).toEqual([
      { term: "queues", df: -1 },
      { term: "quokka", df: 1 },
      { term: "router", df: -1 },
      { term: "zebra", df: 1 },
    ]);
    expect(x!.rows).toBeLessThan(y!.rows);
  });

  it("read as the same frequencies as the same members in full, exact and by stem prefix, eager or late", async () => {
    const saved = STEM_LOOKUP.eager;
    try {
      for (const eager of [saved, 0]) {
        STEM_LOOKUP.eager = eager;
        const delta = await documentFrequencies(env.DB, [{ id: REPO, commit: "x" }], TERMS);
        const full = await documentFrequencies(env.DB, [{ id: REPO, commit: "y" }], TERMS);
        expect([...delta.df].sort()).toEqual([...full.df].sort());
        expect(delta.df.get("queue")).toBe(4);
        expect(delta.df.get("zebra")).toBe(2);
        // Absent from x, present in its base: no entry (a sum of 0 is absent), and no prefix either.
        expect(delta.df.has("router")).toBe(false);
        expect(delta.df.has("routing")).toBe(false);
        // Absent from x too, but its stem prefix `queue*` reaches `queue`.
        expect(delta.df.get("queues")).toBe(4);
      }
    } finally {
      STEM_LOOKUP.eager = saved;
    }
  });

  it("keep the base's rows while a delta names it, even when the base is activated again", async () => {
    const before = await keys("base");
    await env.DB.batch(snapshotStatisticsStatements(env.DB, REPO, "base"));
    const after = await keys("base");
    expect(after!.key).not.toBe(before!.key);
    const kept = await env.DB.prepare("SELECT count(*) AS n FROM snapshot_df WHERE repo = ? AND terms_key = ?").bind(REPO, before!.key).first<{ n: number }>();
    expect(kept!.n).toBe(before!.rows);
    const delta = await documentFrequencies(env.DB, [{ id: REPO, commit: "x" }], TERMS);
    const full = await documentFrequencies(env.DB, [{ id: REPO, commit: "y" }], TERMS);
    expect([...delta.df].sort()).toEqual([...full.df].sort());
  });
});
