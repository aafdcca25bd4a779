/**
 * @module worker/search/report-prior
 *
 * A prior against supporting files for bug reports: a report is fixed in the project's own
 * source, while changelogs (their entries are past reports, in the same words), issue templates
 * and CI files under `.github/`, documentation trees, examples, demos and benchmarks repeat the
 * report's API names in small, dense files (`examples/pairgrid_dotplot.py`, `bench/skip.py`,
 * `doc/usage/extensions/example_numpy.py`, `asv_bench/benchmarks/dataset_io.py`) and so rank
 * high lexically. The same reasoning as the prose prior of rerank.ts, applied by path instead of
 * language. Pure.
 */
import { applyPrior } from "./prior";

/** Directory names of supporting files, anywhere in the path. */
const SUPPORT_DIR_RE = /(?:^|\/)(?:docs?|examples?|demos?|samples?|benchmarks?|bench(?:es)?|asv_bench|\.github)\//i;

/** Changelog and release-notes file names (`CHANGES`, `CHANGELOG.rst`, `HISTORY.md`, `NEWS`, `CHANGES.old`). */
const CHANGELOG_RE = /(?:^|\/)(?:change(?:s|log)|history|news|release[-_]?notes)(?:\.(?:md|markdown|rst|txt|old))*$/i;

/** Multiplier of a supporting file's chunk scores for a bug report. */
export const SUPPORT_PRIOR = 0.5;

/** Whether `path` is a changelog or lies in a documentation, example, demo, benchmark or `.github` directory. */
export function isSupportPath(path: string): boolean {
  return SUPPORT_DIR_RE.test(path) || CHANGELOG_RE.test(path);
}

/**
 * Multiplies the score of candidates in supporting directories by SUPPORT_PRIOR and re-sorts,
 * best first (ties: input order). Returns a new array.
 */
export function applySupportPrior<T extends { score: number; path: string }>(candidates: T[]): T[] {
  return applyPrior(candidates, (c) => (isSupportPath(c.path) ? SUPPORT_PRIOR : 1));
}
