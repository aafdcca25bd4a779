/**
 * @module worker/search/terms
 *
 * Chooses the query terms BM25 uses. Terms absent from the index cannot match and are
 * dropped (and reported as missing). A long query (a pasted bug report) keeps only its most
 * informative terms by inverse document frequency, so the MATCH expression stays small and
 * fast instead of OR-ing hundreds of terms. Pure: document frequencies come from the caller.
 */

import { BM25_K3, MAX_BM25_TERMS, PROSE_IDF_CAP_SHARE } from "./ranking/weights";

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
 * Document frequencies for weighting a bug report's terms: a term the report does not mark as
 * code (`codeTerms`) counts as occurring in at least PROSE_IDF_CAP_SHARE of the `totalDocs`
 * documents, so its IDF is capped there. Returns a new map; `df` is unchanged.
 */
export function proseCappedDf(df: Map<string, number>, totalDocs: number, codeTerms: ReadonlySet<string>): Map<string, number> {
  const floor = Math.max(1, totalDocs * PROSE_IDF_CAP_SHARE);
  const out = new Map(df);
  for (const [t, n] of df) if (!codeTerms.has(t) && n > 0 && n < floor) out.set(t, floor);
  return out;
}

/** Okapi BM25's query-term frequency weight: qtf (k3 + 1) / (k3 + qtf), 1 for a term occurring once. */
export function queryTermWeight(qtf: number): number {
  const f = Math.max(1, qtf);
  return (f * (BM25_K3 + 1)) / (BM25_K3 + f);
}

/** A number alone (`1113`, `2016`, `404`): a line number, date or output value in a report. */
const NUMBER_RE = /^\d+$/;

/** Whether term selection may choose `t`: a report's numbers not marked as code are left out. */
const selectable = (t: string, codeTerms?: ReadonlySet<string>) => !(codeTerms && !codeTerms.has(t) && NUMBER_RE.test(t));

/**
 * Picks up to `max` terms present in the index, by descending IDF times the query-term
 * frequency weight qtf (k3 + 1) / (k3 + qtf) (BM25_K3; qtf from `counts`, 1 when missing), ties:
 * query order. `df` maps term to document frequency (missing = 0). With `codeTerms` (a
 * bug report's terms marked as code, ParsedQuery.codeTerms), the other terms' IDF is capped
 * (proseCappedDf) and numbers not marked as code are left out.
 */
export function selectTerms(
  terms: string[],
  df: Map<string, number>,
  totalDocs: number,
  max = MAX_BM25_TERMS,
  counts: Map<string, number> = new Map(),
  codeTerms?: ReadonlySet<string>,
): TermSelection {
  const absent = terms.filter((t) => !(df.get(t) ?? 0));
  const present = terms.filter((t) => (df.get(t) ?? 0) > 0 && selectable(t, codeTerms));
  if (present.length <= max) return { selected: present, absent };
  const n = Math.max(totalDocs, 1);
  const weights = codeTerms ? proseCappedDf(df, n, codeTerms) : df;
  const score = (t: string) => idf(weights.get(t) ?? 0, n) * queryTermWeight(counts.get(t) ?? 1);
  const order = new Map(present.map((t, i) => [t, i]));
  const selected = [...present].sort((a, b) => score(b) - score(a) || order.get(a)! - order.get(b)!).slice(0, max);
  return { selected, absent };
}

/**
 * The terms selectTerms selects when every term of `terms` occurs in the index (same `max` and
 * `codeTerms`), or null when the choice would depend on document frequencies (more than `max`
 * candidates). With some terms absent, it selects this list without them, in the same order.
 */
export function selectionIfAllPresent(terms: string[], codeTerms?: ReadonlySet<string>, max = MAX_BM25_TERMS): string[] | null {
  const present = terms.filter((t) => selectable(t, codeTerms));
  return present.length <= max ? present : null;
}
