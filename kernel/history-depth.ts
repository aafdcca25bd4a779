/**
 * @module kernel/history-depth
 *
 * How much commit history a git source keeps: `HISTORY_DEPTH` is a number of commits (`500`),
 * an age in days (`365d`), or `0` for none (a depth-1 fetch, as before history existed).
 */

/** A parsed `HISTORY_DEPTH`: `commits` most recent commits, or those of the last `days` days. */
export type HistoryDepth = { commits: number } | { days: number };

/**
 * Default depth: 500 commits. A year of hono's default branch was 406 commits, of sympy's 1,711
 * (docs/history.md). The fetched commits are held in the isolate's memory while history is
 * extracted, and `npm run bench:history` on hono measured 72 MiB more resident memory for 500
 * commits than for a depth-1 fetch and 165 MiB for 2,000, against 128 MiB per Worker isolate:
 * 2,000 would cover sympy's year but not fit, so a deployment raises it only where it measured.
 */
export const DEFAULT_HISTORY_COMMITS = 500;

/** Most commits one fetch records, whatever the depth says (bounds the work of one job). */
export const MAX_HISTORY_COMMITS = 20_000;

/**
 * Parses `HISTORY_DEPTH`. Returns null for `0` (no history). Throws TypeError naming the
 * variable for anything else than a positive integer, `<n>d`, or `0`.
 */
export function parseHistoryDepth(value: string | undefined): HistoryDepth | null {
  const v = (value ?? "").trim();
  if (v === "") return { commits: DEFAULT_HISTORY_COMMITS };
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
