/**
 * Where a query's terms occur in a line of code, for marking them. Matching is
 * case-insensitive and by substring, because the index tokenizes identifiers into parts
 * (`getUserById` is found by `user`), so a part inside an identifier is a real match.
 */

/** Shortest term that is marked; one-letter terms would mark nearly everything. */
export const MIN_MARKED_TERM_CHARS = 2;

/** Query terms to mark: lower-cased, unique, longest first, at least MIN_MARKED_TERM_CHARS long. */
export function markableTerms(terms: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    const s = t.trim().toLowerCase();
    if (s.length >= MIN_MARKED_TERM_CHARS) out.add(s);
  }
  return [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** Words of a free-text query (letters, digits, `_`), for when the server sent no terms. */
export function queryWords(q: string): string[] {
  return q.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/**
 * Non-overlapping `[start, end)` character ranges of `line` covered by any of `terms`
 * (from markableTerms), sorted, adjacent ranges merged.
 */
export function termRanges(line: string, terms: readonly string[]): [number, number][] {
  if (!terms.length || !line) return [];
  const lower = line.toLowerCase();
  const hits: [number, number][] = [];
  for (const t of terms) {
    for (let at = lower.indexOf(t); at >= 0; at = lower.indexOf(t, at + t.length)) hits.push([at, at + t.length]);
  }
  hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const h of hits) {
    const last = merged[merged.length - 1];
    if (last && h[0] <= last[1]) last[1] = Math.max(last[1], h[1]);
    else merged.push([h[0], h[1]]);
  }
  return merged;
}
