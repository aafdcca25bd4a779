/**
 * @module worker/search/prior
 *
 * The one way a ranking prior is applied after the rerank: each candidate's score is multiplied
 * by its factor, and the list is re-sorted best first, ties keeping their input order (a stable
 * sort), so candidates the prior does not touch keep their relative order. Pure.
 */

/**
 * Multiplies every candidate's `score` by `factorOf(candidate)` (1 leaves it unchanged) and
 * re-sorts best first (ties: input order). Returns a new array.
 */
export function applyPrior<T extends { score: number }>(candidates: T[], factorOf: (c: T) => number): T[] {
  return candidates
    .map((c, i) => {
      const f = factorOf(c);
      return { c: f === 1 ? c : { ...c, score: c.score * f }, i };
    })
    .sort((a, b) => b.c.score - a.c.score || a.i - b.i)
    .map(({ c }) => c);
}
