/**
 * @module indexer/history/record
 *
 * One history step (the coordinator runs it after a job's snapshot is planned, with
 * HISTORY_DEPTH): fetches the commits of the depth within the budget (indexer/source/git-history.ts),
 * extracts those not stored yet, starting at the tip and at the frontier where an earlier step
 * stopped, until the step's commit or time budget, and writes them with a note of how far
 * history falls short of the depth. A failure is logged and leaves history as it was: indexing
 * the snapshot does not depend on it.
 */
import { DEFAULT_HISTORY_BUDGET, describeDepth, type HistoryBudget, type HistoryDepth } from "../../kernel/history-depth";
import type { GitSourceOptions, ResolvedRef } from "../source/git";
import { fetchHistory, HistoryBudgetError, OVER_BUDGET } from "../source/git-history";
import { hasCommit, historyMeta, storedHistory, writeHistory } from "../store/d1/history";
import { extractHistory } from "./extract";

/**
 * After a step found even the smallest window over budget, later steps at the same depth keep
 * its note for this long instead of fetching again (each try fetches up to `halvings + 1` packs
 * that the budget then cuts off).
 */
export const OVER_BUDGET_RETRY_MS = 7 * 86_400_000;

/** What one step did (for the log and the bench). */
export interface RecordedHistory {
  commits: number;
  changes: number;
  ms: number;
  /** How history falls short of the depth, as stored (`HistoryMeta.limit`), or null. */
  limit: string | null;
}

/** One line for the log: "12 new commits, 40 file changes in 830 ms (why it stopped short)". */
export function describeRecorded(r: RecordedHistory): string {
  return `${r.commits} new commits, ${r.changes} file changes in ${r.ms} ms${r.limit ? ` (${r.limit})` : ""}`;
}

/**
 * Whether a step should run although the snapshot is unchanged. For the default ref: history's
 * head is not `commit`, or an earlier step stopped at its budget (the refresh continues it). For
 * another tracked ref: `commit` is not in the repo's one commit graph, which every ref's step
 * adds to.
 */
export async function historyMissing(db: D1Database, repo: string, commit: string, defaultRef = true): Promise<boolean> {
  if (!defaultRef) return !(await hasCommit(db, repo, commit));
  const meta = await historyMeta(db, repo);
  return meta?.head !== commit || meta.pending;
}

/**
 * Runs one step for `resolved` (see the module note); null when the source keeps no history or
 * the step failed. A fetch over budget at its smallest window records no commits, only the note.
 * Every tracked ref's step adds its commits to the repo's one graph; only the default ref's
 * (`defaultRef`) moves the meta row's head, ref, depth and note, and continues from the frontier.
 */
export async function recordHistory(
  db: D1Database,
  repo: string,
  source: GitSourceOptions,
  resolved: ResolvedRef,
  maxBytes: number,
  now: () => number,
  budget: HistoryBudget = DEFAULT_HISTORY_BUDGET,
  defaultRef = true,
): Promise<RecordedHistory | null> {
  if (!source.history) return null;
  const started = now();
  try {
    const meta = await historyMeta(db, repo);
    if (meta?.limit?.startsWith(OVER_BUDGET) && meta.depth === describeDepth(source.history) && now() - meta.updatedAt < OVER_BUDGET_RETRY_MS) {
      // Trying again would fetch the same over-budget packs: keep the note, for this commit too.
      if (!defaultRef) return { commits: 0, changes: 0, ms: now() - started, limit: meta.limit };
      await writeHistory(db, repo, [], [], { ...meta, head: resolved.commit, ref: resolved.ref });
      return { commits: 0, changes: 0, ms: now() - started, limit: meta.limit };
    }
    const { known, frontier } = await storedHistory(db, repo);
    const fetched = await fetchHistory(source, resolved, source.history, budget, now);
    const h = await extractHistory(fetched.reader, defaultRef ? [resolved.commit, ...frontier] : [resolved.commit], {
      known,
      shallow: fetched.shallow,
      maxCommits: budget.commits,
      maxBytes,
      deadline: now() + budget.extractMs,
      now,
    });
    const stop = h.stopped ? `history truncated at ${h.stopped.commit}, because ${h.stopped.reason}; a refresh continues it` : null;
    const limit = [fetched.limit, stop].filter((x) => x !== null).join("; ") || null;
    await writeHistory(db, repo, h.commits, h.changes, {
      head: resolved.commit,
      ref: resolved.ref,
      depth: fetched.depth,
      updatedAt: now(),
      limit,
      pending: !!h.stopped,
      defaultRef,
    });
    return { commits: h.commits.length, changes: h.changes.length, ms: now() - started, limit };
  } catch (err) {
    // Another ref's step over budget leaves the default ref's note as it is.
    if (err instanceof HistoryBudgetError && !defaultRef) return { commits: 0, changes: 0, ms: now() - started, limit: err.message };
    if (err instanceof HistoryBudgetError) return recordOverBudget(db, repo, resolved, source.history, err.message, now, started);
    console.error(`repo ${repo}: recording history of ${resolved.commit} failed; history stays as it was`, err);
    return null;
  }
}

/** No commits, and a note saying which budget the smallest window passed (answers then say it). */
async function recordOverBudget(
  db: D1Database,
  repo: string,
  resolved: ResolvedRef,
  depth: HistoryDepth,
  limit: string,
  now: () => number,
  started: number,
): Promise<RecordedHistory | null> {
  console.warn(`repo ${repo}: history of ${resolved.commit} not recorded: ${limit}`);
  try {
    await writeHistory(db, repo, [], [], { head: resolved.commit, ref: resolved.ref, depth: describeDepth(depth), updatedAt: now(), limit, pending: false });
    return { commits: 0, changes: 0, ms: now() - started, limit };
  } catch (err) {
    console.error(`repo ${repo}: writing the history note failed`, err);
    return null;
  }
}
