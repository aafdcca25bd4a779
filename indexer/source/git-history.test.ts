/**
 * The history fetch (indexer/source/git-history.ts) from the loopback git server: a commit depth
 * gives the commits and the boundary; an age window without commits gives the last commits and
 * says so; a pack over its byte budget halves the window until it fits, and says so, or gives up
 * naming the budget.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_HISTORY_BUDGET, EMPTY_WINDOW_COMMITS } from "../../kernel/history-depth";
import { checkRemote } from "./git";
import { fetchHistory, HistoryBudgetError } from "./git-history";

const base = () => inject("gitServerUrl");
const limits = { allowLoopback: true };
const opts = (name: string) => ({ url: `${base()}/${name}.git`, limits });

async function control(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${base()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, await res.text()).toBe(200);
}

/** 40,000 hex characters that do not compress below ~20 KB, nor delta against each other. */
function noise(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20_000));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("fetchHistory", () => {
  it("fetches the asked number of commits, with the boundary in `shallow`", async () => {
    const o = opts("history");
    const h = await fetchHistory(o, await checkRemote(o), { commits: 2 }, DEFAULT_HISTORY_BUDGET);
    const tip = (await checkRemote(o)).commit;
    expect(h).toMatchObject({ depth: "2", ref: "refs/heads/main", limit: null });
    const head = await h.reader.readCommit(tip);
    // Depth 2 from the tip: the merge's child, then the merge, whose parents are the boundary.
    expect(h.shallow.size).toBeGreaterThan(0);
    expect(h.shallow.has(tip)).toBe(false);
    expect(head.parent).toHaveLength(1);
  });

  it("takes the last commits instead of an age window without commits, and says so", async () => {
    // Every fixture commit is from 2024: a one-day window before now has none, and git refuses it.
    const o = opts("history");
    const h = await fetchHistory(o, await checkRemote(o), { days: 1 }, DEFAULT_HISTORY_BUDGET);
    expect(h.depth).toBe(String(EMPTY_WINDOW_COMMITS));
    expect(h.limit).toContain("no commit in the last 1 days");
  });

  describe("with a pack budget", () => {
    // histbig: the history fixture plus 4 commits each rewriting a ~20 KB (compressed) file, so
    // depth 8 and 4 carry 4 versions (over 50,000 bytes) and depth 2 carries 2 (under it).
    const budget = { ...DEFAULT_HISTORY_BUDGET, packBytes: 50_000 };
    beforeAll(async () => {
      await control("/repos", { name: "histbig", from: "history" });
      for (let i = 0; i < 4; i++) await control("/repos/histbig/commit", { files: { "big.txt": noise() }, message: `big ${i}` });
    });

    it("halves the window until the pack fits, and says what it reduced and why", async () => {
      const o = opts("histbig");
      const h = await fetchHistory(o, await checkRemote(o), { commits: 8 }, budget);
      expect(h.depth).toBe("2");
      expect(h.limit).toBe("window reduced from 8 to 2, because at 4 the pack passed the 50000-byte budget");
      expect(h.bytes).toBeLessThan(50_000);
    });

    it("gives up naming the budget when the smallest allowed window is still over it", async () => {
      const o = opts("histbig");
      const err = await fetchHistory(o, await checkRemote(o), { commits: 8 }, { ...budget, halvings: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HistoryBudgetError);
      expect((err as Error).message).toBe("no history fetched: at depth 4 the pack passed the 50000-byte budget");
    });
  });
});
