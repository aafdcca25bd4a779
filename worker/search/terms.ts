/**
 * @module worker/search/terms
 *
 * Chooses the query terms BM25 uses. Terms absent from the index cannot match and are
 * dropped (and reported as missing). A long query (a pasted bug report) keeps only its most
 * informative terms by inverse document frequency, so the MATCH expression stays small and
 * fast instead of OR-ing hundreds of terms. Pure: document frequencies come from the caller.
 */

/** Most terms OR-ed into one BM25 query. */
export const MAX_BM25_TERMS = 24;

/**
 * BM25's IDF (Robertson/Sparck Jones, as in FTS5): ln((N - df + 0.5) / (df + 0.5)), floored
 * at a small positive value so very common terms still count a little.
 */
export function idf(df: number, totalDocs: number): number {
  return Math.max(1e-6, Math.log((totalDocs - df + 0.5) / (df + 0.5)));
}

/** Result of term selection. */
export interface TermSelection {
  /** Terms to search, most informative first. */
  selected: string[];
  /** Terms with no occurrence in the index. */
  absent: string[];
}

/**
 * Picks up to `max` terms present in the index, by descending IDF (ties: query order).
 * `df` maps term to document frequency (missing = 0). Terms occurring more than once in the
 * query (`counts`) get a small boost: a bug report repeats what matters.
 */
export function selectTerms(
  terms: string[],
  df: Map<string, number>,
  totalDocs: number,
  max = MAX_BM25_TERMS,
  counts: Map<string, number> = new Map(),
): TermSelection {
  const absent = terms.filter((t) => !(df.get(t) ?? 0));
  const present = terms.filter((t) => (df.get(t) ?? 0) > 0);
  if (present.length <= max) return { selected: present, absent };
  const score = (t: string) => idf(df.get(t) ?? 0, Math.max(totalDocs, 1)) * (1 + 0.5 * Math.log(Math.max(1, counts.get(t) ?? 1)));
  const order = new Map(present.map((t, i) => [t, i]));
  const selected = [...present].sort((a, b) => score(b) - score(a) || order.get(a)! - order.get(b)!).slice(0, max);
  return { selected, absent };
}
