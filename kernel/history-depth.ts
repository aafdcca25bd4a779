/**
 * @module kernel/history-depth
 *
 * How much commit history a git source keeps: `HISTORY_DEPTH` is an age in days (`365d`, the
 * default), a number of commits (`500`), or `0` for none (no history fetch at all), and the
 * budgets one history step keeps to.
 */

/** A parsed `HISTORY_DEPTH`: `commits` most recent commits, or those of the last `days` days. */
export type HistoryDepth = { commits: number } | { days: number };

/**
 * Default depth: the last 365 days (git's `deepen-since`), a year of a busy repo. A commit depth
 * is git's: it counts commits along every path, so on a merge-heavy repo it reaches far back
 * (sympy: depth 500 reached 59,949 commits and a 176 MB pack, the whole history; a year was
 * 1,707 commits and 11 MB), while an age bounds the fetch to the commits of the window.
 */
export const DEFAULT_HISTORY_DAYS = 365;

/** Most commits one fetch records, whatever the depth says (bounds the work of one job). */
export const MAX_HISTORY_COMMITS = 20_000;

/** Depth tried when an age window has no commit (git refuses such a fetch): the last commits instead. */
export const EMPTY_WINDOW_COMMITS = 100;

/**
 * Budgets of one history step (indexer/history/record.ts), sized for a Worker isolate (128 MiB,
 * which also holds the running code): the history fetch's pack, its time, and the extraction's
 * time. Past the pack or fetch-time budget the window is halved and fetched again (at most
 * `halvings` times); past the extraction budget the step stops and a later refresh continues.
 */
export interface HistoryBudget {
  /** Response bytes of the history fetch (the pack is held in memory while extracting). */
  packBytes: number;
  /** Wall time of all fetch attempts together (ms). */
  fetchMs: number;
  /** Wall time of the extraction (ms). */
  extractMs: number;
  /** Most commits recorded in one step. */
  commits: number;
  /** Most times the window is halved after a fetch over budget. */
  halvings: number;
}

/**
 * Default budgets. 6 MiB of pack: isomorphic-git's fetch holds the received pack up to three
 * times and indexes it keeping resolved delta bases, and `npm run bench:history -- --live on`
 * measured the fetch peaking 38 MiB above what was held before for hono's year (a 2.7 MiB
 * pack) and 112 MiB for sympy's (11.1 MiB): about 70 MiB at 6 MiB, inside an isolate's 128 MiB
 * with the rest of the Worker (docs/history.md). 2 minutes of fetching (the transport's own
 * limit is 5), 90 s of extraction, 5,000 commits a step; 5 halvings take 365d down to 12d.
 */
export const DEFAULT_HISTORY_BUDGET: HistoryBudget = { packBytes: 6 * 1024 * 1024, fetchMs: 120_000, extractMs: 90_000, commits: 5_000, halvings: 5 };

/**
 * The step budget with `HISTORY_PACK_MIB` applied: the pack bound in MiB (default 6, see
 * DEFAULT_HISTORY_BUDGET). Raise it only where the isolate is not bounded at 128 MiB (a local
 * `npm start`, or a history step run outside a Worker): sympy's year is an 11.1 MiB pack.
 * Throws TypeError naming the variable when it is not a positive integer.
 */
export function historyBudgetFrom(packMib: string | undefined): HistoryBudget {
  if (packMib === undefined || packMib === "") return DEFAULT_HISTORY_BUDGET;
  const n = Number(packMib);
  if (!Number.isInteger(n) || n <= 0) throw new TypeError(`HISTORY_PACK_MIB must be a positive integer of MiB (default 6); got "${packMib}"`);
  return { ...DEFAULT_HISTORY_BUDGET, packBytes: n * 1024 * 1024 };
}

/** The depth half as deep (at least 1 commit or day), or null when it is already 1. */
export function halveDepth(depth: HistoryDepth): HistoryDepth | null {
  if ("days" in depth) return depth.days > 1 ? { days: Math.ceil(depth.days / 2) } : null;
  return depth.commits > 1 ? { commits: Math.ceil(depth.commits / 2) } : null;
}

/**
 * Parses `HISTORY_DEPTH`. Returns null for `0` (no history). Throws TypeError naming the
 * variable for anything else than a positive integer, `<n>d`, or `0`.
 */
export function parseHistoryDepth(value: string | undefined): HistoryDepth | null {
  const v = (value ?? "").trim();
  if (v === "") return { days: DEFAULT_HISTORY_DAYS };
  if (v === "0") return null;
  const m = /^([1-9][0-9]{0,5})(d?)$/.exec(v);
  if (!m) throw new TypeError(`HISTORY_DEPTH must be a number of commits ("500"), of days ("365d"), or "0" for none; got "${value}"`);
  const n = Number(m[1]);
  return m[2] ? { days: n } : { commits: Math.min(n, MAX_HISTORY_COMMITS) };
}

/** The depth as written in `HISTORY_DEPTH` ("2000", "365d"). */
export function describeDepth(depth: HistoryDepth): string {
  return "days" in depth ? `${depth.days}d` : String(depth.commits);
}
