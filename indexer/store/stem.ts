/**
 * @module indexer/store/stem
 *
 * The stemmer shared by the index side (the local embedder's features, indexer/embed/features.ts)
 * and the query side (BM25 stem expansion and reranking in worker/search/). Part of the storage
 * contract with the tokenizer: stems only meet while both sides stem alike.
 */

/** Suffixes stripped, in the order tried, with the shortest stem each may leave. */
const SUFFIXES = [
  ["ations", 4],
  ["ation", 4],
  ["ings", 4],
  ["ing", 4],
  ["ers", 4],
  ["er", 4],
  ["ies", 3],
  ["ied", 3],
  ["ed", 4],
  ["es", 4],
  ["ly", 4],
  ["s", 4],
  ["or", 4],
] as const;

/** Light suffix stripping (a small subset of Porter's step 1): enough to conflate inflections. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  for (const [suffix, min] of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= min) {
      const base = word.slice(0, -suffix.length);
      return suffix === "ies" || suffix === "ied" ? `${base}y` : base;
    }
  }
  return word;
}
