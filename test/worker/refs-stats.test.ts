/**
 * A second ref's statistics stored as a delta against the default branch's (issue #49,
 * migrations/0032, indexer/store/d1/snapshot-stats.ts): the results of a repo on each of two
 * refs sharing most files (order, fused scores, channel ranks and stage factors, confidence,
 * query terms) equal those of a fresh index of that ref alone, under the same repo id, so that
 * file and chunk ids (which break exact ties) are the same. Checked after the second ref is
 * added, and again after a push to the default branch rebased the delta onto the new snapshot.
 * The `change` branch of the loopback fixture rewrites src/users.ts; a commit on it here also
 * rewrites lib/invoice.py without the words `tax`/`amount` (terms the branch has fewer of: a
 * negative delta, down to absent) and adds src/shipping.ts (terms only the branch has).
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { indexDb, refreshAndWait, registerAndWait } from "./ingest-helpers";
import { patchRefs, refOf, waitForRefs } from "./refs-helpers";
import { createUpstream, pushCommit } from "./upstream";

const REPO = "refs-stats";
const QUERIES = [
  "rename user account",
  "getUserById find a user by id",
  "compute invoice total including tax amount",
  "invoicing taxes amounts",
  "express shipping quote weight",
  "delete user remove from db",
];

/** Full result lists of every query on `ref` (see the module note). */
async function answers(ref: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const q of QUERIES) {
    const res = await api("/api/search", { method: "POST", json: { q, repo: REPO, ref, k: 20, explain: true } });
    const body = (await res.json()) as { results: unknown[]; confidence: unknown; stats: { queryTerms: string[]; failedRepos: unknown[] } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.stats.failedRepos).toEqual([]);
    out.push({ q, results: body.results, confidence: body.confidence, terms: body.stats.queryTerms });
  }
  return out;
}

/** Each snapshot's `terms_key`, `base_key` and `snapshot_df` row count, by commit. */
async function statistics(): Promise<Map<string, { key: number; base: number | null; rows: number }>> {
  const db = await indexDb(REPO);
  const { results } = await db
    .prepare(
      "SELECT s.commit_sha, s.terms_key AS key, s.base_key AS base, (SELECT count(*) FROM snapshot_df d WHERE d.repo = s.repo AND d.terms_key = s.terms_key) AS rows " +
        "FROM snapshot_stats s WHERE s.repo = ?",
    )
    .bind(REPO)
    .all<{ commit_sha: string; key: number; base: number | null; rows: number }>();
  return new Map(results.map((r) => [r.commit_sha, { key: r.key, base: r.base, rows: r.rows }]));
}

async function numbersWithRows(): Promise<number[]> {
  const db = await indexDb(REPO);
  const { results } = await db.prepare("SELECT DISTINCT terms_key AS k FROM snapshot_df WHERE repo = ? ORDER BY 1").bind(REPO).all<{ k: number }>();
  return results.map((r) => r.k);
}

async function remove(): Promise<void> {
  expect((await api(`/api/repos/${REPO}`, { method: "DELETE" })).status).toBe(200);
}

describe("a second ref's statistics", () => {
  it("give each ref the results of a fresh index of that ref alone, before and after the default branch moves", async () => {
    const { url } = await createUpstream(REPO);
    await pushCommit(
      REPO,
      {
        "lib/invoice.py": 'def compute_invoice_total(lines):\n    """Sum of line prices."""\n    return sum(l.price for l in lines)\n',
        "src/shipping.ts":
          "/** Express shipping quote by weight. */\nexport function expressShippingQuote(weight: number): number {\n  return weight * 9 + 15;\n}\n",
      },
      "change",
    );

    // Fresh indexes of each ref alone, as the repo's only (default) ref.
    expect((await registerAndWait({ url, name: REPO, ref: "change" })).status).toBe("ready");
    const freshChange = await answers("change");
    const oneFull = [...(await statistics()).values()][0];
    expect(oneFull.base).toBeNull();
    await remove();
    expect((await registerAndWait({ url, name: REPO })).status).toBe("ready");
    const freshMain = await answers("main");
    expect(freshChange).not.toEqual(freshMain);

    // The branch tracked beside main: its statistics are a delta against main's.
    expect((await patchRefs(REPO, ["change"])).status).toBe(200);
    const s = await waitForRefs(REPO, (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
    const main = refOf(s, "refs/heads/main").commit!;
    const change = refOf(s, "refs/heads/change").commit!;
    const stats = await statistics();
    expect(stats.get(main)!.base).toBeNull();
    expect(stats.get(change)!.base).toBe(stats.get(main)!.key);
    expect(stats.get(change)!.rows).toBeGreaterThan(0);
    expect(stats.get(change)!.rows).toBeLessThan(oneFull.rows / 2);
    expect(await answers("main")).toEqual(freshMain);
    expect(await answers("change")).toEqual(freshChange);

    // A push to main: the new default snapshot is full, the branch's delta is rebased onto it
    // and the old base goes with its snapshot.
    const c2 = await pushCommit(REPO, { "src/db.ts": "export const db = { users: { find: (f: unknown) => f } };\n" });
    expect((await refreshAndWait(REPO)).snapshot!.commit).toBe(c2);
    const after = await statistics();
    expect([...after.keys()].sort()).toEqual([c2, change].sort());
    expect(after.get(c2)!.base).toBeNull();
    expect(after.get(change)!.base).toBe(after.get(c2)!.key);
    expect(await numbersWithRows()).toEqual([after.get(c2)!.key, after.get(change)!.key].sort((a, b) => a - b));
    expect(await answers("change")).toEqual(freshChange);
  });
});
