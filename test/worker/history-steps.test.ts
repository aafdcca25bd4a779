/**
 * History recorded in bounded steps (indexer/history/record.ts) against the loopback git server
 * and D1: a step that spends its commit budget stops at a commit, says so, and leaves the rest
 * pending; the next steps continue from where it stopped until the history equals what one
 * unbounded step records. A fetch that stays over its byte budget
 * records only a note naming the budget, which later steps keep without fetching again.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { recordHistory, historyMissing } from "../../indexer/history/record";
import { checkRemote } from "../../indexer/source/git";
import { historyMeta } from "../../indexer/store/d1/history";
import { DEFAULT_HISTORY_BUDGET } from "../../kernel/history-depth";
import { requestLog } from "./upstream";

const source = () => ({ url: `${inject("gitServerUrl")}/history.git`, limits: { allowLoopback: true }, history: { commits: 100 } });
const MAX_BYTES = 1 << 20;

/** The repo's stored rows, comparable across repos. */
async function rowsOf(repo: string) {
  const commits = await env.DB.prepare("SELECT sha, parents, boundary, subject FROM commits WHERE repo = ? ORDER BY sha").bind(repo).all();
  const changes = await env.DB.prepare(
    "SELECT path, sha, parent_index, status, old_path, hunks FROM commit_changes WHERE repo = ? ORDER BY path, sha, parent_index",
  )
    .bind(repo)
    .all();
  return { commits: commits.results, changes: changes.results };
}

describe("recordHistory in steps", () => {
  it("stops at its commit budget, says where and why, and the next steps continue to the full history", async () => {
    const src = source();
    const resolved = await checkRemote(src);
    const whole = await recordHistory(env.DB, "steps-one", src, resolved, MAX_BYTES, Date.now);
    expect(whole).toMatchObject({ limit: null });
    expect(whole!.commits).toBeGreaterThan(4);

    const budget = { ...DEFAULT_HISTORY_BUDGET, commits: 2 };
    const first = await recordHistory(env.DB, "steps", src, resolved, MAX_BYTES, Date.now, budget);
    expect(first!.commits).toBe(2);
    expect(first!.limit).toMatch(/^history truncated at [0-9a-f]{40}, because the step's budget of 2 commits was spent; a refresh continues it$/);
    const meta = await historyMeta(env.DB, "steps");
    expect(meta).toMatchObject({ head: resolved.commit, pending: true, limit: first!.limit });
    // An unchanged refresh still runs a step while one is pending.
    expect(await historyMissing(env.DB, "steps", resolved.commit)).toBe(true);

    let steps = 1;
    let total = first!.commits;
    while ((await historyMeta(env.DB, "steps"))!.pending && steps < 10) {
      const next = await recordHistory(env.DB, "steps", src, resolved, MAX_BYTES, Date.now, budget);
      expect(next!.commits).toBeGreaterThan(0);
      expect(next!.commits).toBeLessThanOrEqual(2);
      total += next!.commits;
      steps++;
    }
    expect(await historyMeta(env.DB, "steps")).toMatchObject({ pending: false, limit: null });
    expect(await historyMissing(env.DB, "steps", resolved.commit)).toBe(false);
    expect(total).toBe(whole!.commits);
    expect(steps).toBe(Math.ceil(whole!.commits / 2));
    expect(await rowsOf("steps")).toEqual(await rowsOf("steps-one"));
  });

  it("records no commit, only a note naming the budget, when the fetch stays over its byte budget", async () => {
    const src = source();
    const resolved = await checkRemote(src);
    const r = await recordHistory(env.DB, "steps-over", src, resolved, MAX_BYTES, Date.now, { ...DEFAULT_HISTORY_BUDGET, packBytes: 500, halvings: 1 });
    const note = "no history fetched: at depth 50 the pack passed the 500-byte budget";
    expect(r).toMatchObject({ commits: 0, limit: note });
    expect(await historyMeta(env.DB, "steps-over")).toMatchObject({ head: resolved.commit, limit: note, pending: false, commits: 0 });
    expect((await rowsOf("steps-over")).commits).toEqual([]);

    // The next step at the same depth keeps the note instead of fetching the same packs again.
    const fetchesBefore = (await requestLog("history")).filter((q) => q.kind === "upload-pack").length;
    const again = await recordHistory(env.DB, "steps-over", src, resolved, MAX_BYTES, Date.now, { ...DEFAULT_HISTORY_BUDGET, packBytes: 500, halvings: 1 });
    expect(again).toMatchObject({ commits: 0, limit: note });
    expect((await requestLog("history")).filter((q) => q.kind === "upload-pack").length).toBe(fetchesBefore);
  });
});
