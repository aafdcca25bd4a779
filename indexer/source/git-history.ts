/**
 * @module indexer/source/git-history
 *
 * The history fetch: the commits of `HISTORY_DEPTH` (an age, git's `deepen-since`, or a commit
 * depth) into memory, as a fetch of its own after the snapshot's depth-1 fetch, so that a large
 * or failing history never delays or fails the snapshot. It keeps to a budget (kernel/history-depth.ts
 * `HistoryBudget`): a pack larger than `packBytes` or a fetch slower than `fetchMs` is cut off
 * and the window halved and fetched again, and what was fetched says so (`limit`).
 *
 * Errors: credentials failures are thrown as `gitError` maps them; a window that stays over
 * budget after `halvings` halvings throws `HistoryBudgetError`; anything else is thrown mapped.
 */
import { describeDepth, EMPTY_WINDOW_COMMITS, halveDepth, type HistoryBudget, type HistoryDepth } from "../../kernel/history-depth";
import type { GitObjectReader } from "../history/tree-diff";
import { fetchObjects, gitError, type FetchDepth, type GitSourceOptions, type ResolvedRef } from "./git";
import { objectReader } from "./git-objects";
import { GitTransportError } from "./guarded-http";
import type { MemoryFs } from "./memory-fs";

const SHA_RE = /^[0-9a-f]{40}$/;

/** The fetched commits, for indexer/history. */
export interface FetchedHistory {
  reader: GitObjectReader;
  /** Commits whose parents were not fetched (git's `shallow` file): history stops there. */
  shallow: Set<string>;
  /** The depth fetched, as HISTORY_DEPTH writes it ("365d"; "92d" after halvings). */
  depth: string;
  /** Full ref name fetched (`refs/heads/main`). */
  ref: string;
  /** Why less than the configured depth was fetched (a budget, an empty window), or null. */
  limit: string | null;
  /** Bytes of the fetched repository held in memory (pack and index). */
  bytes: number;
}

/** How the message of a `HistoryBudgetError` (and so the stored note) begins. */
export const OVER_BUDGET = "no history fetched:";

/** A history fetch over budget even at its smallest window; `message` says which budget. */
export class HistoryBudgetError extends Error {
  override name = "HistoryBudgetError";
}

/** isomorphic-git's fetch depth for a history depth: `depth: n`, or `since` `days` before `now` (ms). */
export function fetchDepthOf(history: HistoryDepth, now: number): FetchDepth {
  if ("days" in history) return { since: new Date(now - history.days * 86_400_000) };
  return { depth: history.commits };
}

/** Which budget a transport failure hit, or null when it was not a budget. */
function budgetHit(err: unknown, budget: HistoryBudget): string | null {
  if (!(err instanceof GitTransportError)) return null;
  if (err.kind === "too_large") return `the pack passed the ${budget.packBytes}-byte budget`;
  if (err.kind === "total_timeout") return `the fetch passed the ${budget.fetchMs} ms budget`;
  return null;
}

/**
 * Fetches `resolved` with `depth` of history within `budget`. `now` (ms) anchors an age window
 * and measures the time budget. Throws as the module note says.
 */
export async function fetchHistory(
  opts: GitSourceOptions,
  resolved: ResolvedRef,
  depth: HistoryDepth,
  budget: HistoryBudget,
  now: () => number = Date.now,
): Promise<FetchedHistory> {
  const deadline = now() + budget.fetchMs;
  let current = depth;
  let limit: string | null = null;
  let halvings = 0;
  for (;;) {
    const limits = { ...opts.limits, maxResponseBytes: budget.packBytes, totalTimeoutMs: Math.max(1, deadline - now()) };
    try {
      const { fs, cache } = await fetchObjects({ ...opts, limits }, resolved, fetchDepthOf(current, now()));
      const reader = objectReader(fs, cache);
      // An age window without commits fetches nothing: the tip is then missing (caught below).
      await reader.readCommit(resolved.commit);
      return { reader, shallow: await shallowOf(fs), depth: describeDepth(current), ref: resolved.ref, limit, bytes: fs.byteSize };
    } catch (err) {
      const hit = budgetHit(err, budget);
      if (hit) {
        const half = halveDepth(current);
        if (!half || halvings >= budget.halvings || deadline - now() <= 0) {
          throw new HistoryBudgetError(`${OVER_BUDGET} at depth ${describeDepth(current)} ${hit}`);
        }
        halvings++;
        limit = `window reduced from ${describeDepth(depth)} to ${describeDepth(half)}, because at ${describeDepth(current)} ${hit}`;
        current = half;
        continue;
      }
      const e = gitError(err, opts.url, !!opts.token);
      if (e.details?.reason === "token_rejected" || e.details?.reason === "token_required") throw e;
      // An age window without commits (git refuses it, or sends no tip): the last commits
      // instead, once.
      if ("days" in current && current === depth) {
        limit = `no commit in the last ${depth.days} days, so the last ${EMPTY_WINDOW_COMMITS} commits (along every path)`;
        current = { commits: EMPTY_WINDOW_COMMITS };
        continue;
      }
      throw e;
    }
  }
}

/** The commits whose parents were not fetched (git's `shallow` file). */
async function shallowOf(fs: MemoryFs): Promise<Set<string>> {
  try {
    const text = (await fs.readFile("/shallow", { encoding: "utf8" })) as string;
    return new Set(text.split("\n").filter((l) => SHA_RE.test(l)));
  } catch {
    return new Set();
  }
}
