/**
 * @module worker/search/report-prior
 *
 * A prior against supporting code for bug reports: a report is fixed in the project's own
 * source, while documentation trees, examples, demos and benchmarks repeat the report's API
 * names in small, dense files (`examples/pairgrid_dotplot.py`, `doc/usage/extensions/example_numpy.py`,
 * `asv_bench/benchmarks/dataset_io.py`) and so rank high lexically. The same reasoning as the
 * prose prior of rerank.ts, applied by directory instead of language. Pure.
 */

/** Directory names of supporting code, anywhere in the path. */
const SUPPORT_DIR_RE = /(?:^|\/)(?:docs?|examples?|demos?|samples?|benchmarks?|asv_bench)\//i;

/** Multiplier of a supporting file's chunk scores for a bug report. */
export const SUPPORT_PRIOR = 0.5;

/** Whether `path` lies in a documentation, example, demo or benchmark directory. */
export function isSupportPath(path: string): boolean {
  return SUPPORT_DIR_RE.test(path);
}

/**
 * Multiplies the score of candidates in supporting directories by SUPPORT_PRIOR and re-sorts,
 * best first (ties: input order). Returns a new array.
 */
export function applySupportPrior<T extends { score: number; path: string }>(candidates: T[]): T[] {
  return candidates
    .map((c, i) => ({ c: isSupportPath(c.path) ? { ...c, score: c.score * SUPPORT_PRIOR } : c, i }))
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .map(({ c }) => c);
}
