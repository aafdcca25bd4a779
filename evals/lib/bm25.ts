/**
 * @module evals/lib/bm25
 *
 * The plain baseline for file localization: Okapi BM25 over whole files, k1 = 1.2, b = 0.75
 * (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009,
 * eq. 3.15 with the usual defaults). IDF is `ln(1 + (N - n + 0.5) / (n + 0.5))`, the
 * non-negative variant Lucene uses, so very common terms add ~0 instead of a negative score.
 * Documents are tokenized with the product's index-side tokenizer and queries with its
 * query-side one (indexer/store/tokenize.ts), so the baseline and the product see the same terms.
 */
import { tokenize, tokenizeQuery } from "../../indexer/store/tokenize.ts";

/** BM25 parameters (defaults k1 = 1.2, b = 0.75). */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** An in-memory BM25 index over whole files. */
export class WholeFileBm25 {
  readonly #k1: number;
  readonly #b: number;
  readonly #paths: string[] = [];
  readonly #lengths: number[] = [];
  /** term -> postings (doc index, term frequency). */
  readonly #postings = new Map<string, { doc: number; tf: number }[]>();
  #totalLength = 0;

  constructor(options: Bm25Options = {}) {
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
  }

  /** Number of indexed files. */
  get size(): number {
    return this.#paths.length;
  }

  /** Adds one file; its path is part of the text (as a file name is part of what a reader sees). */
  add(path: string, text: string): void {
    const doc = this.#paths.length;
    const tokens = tokenize(`${path}\n${text}`);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [term, n] of tf) {
      let list = this.#postings.get(term);
      if (!list) this.#postings.set(term, (list = []));
      list.push({ doc, tf: n });
    }
    this.#paths.push(path);
    this.#lengths.push(tokens.length);
    this.#totalLength += tokens.length;
  }

  /** The top `k` paths for a query, best first, with their scores. */
  search(query: string, k: number): { path: string; score: number }[] {
    const n = this.#paths.length;
    if (n === 0) return [];
    const avgdl = this.#totalLength / n;
    const scores = new Float64Array(n);
    for (const term of tokenizeQuery(query)) {
      const list = this.#postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = this.#k1 * (1 - this.#b + (this.#b * this.#lengths[doc]) / avgdl);
        scores[doc] += (idf * tf * (this.#k1 + 1)) / (tf + norm);
      }
    }
    const ranked: { path: string; score: number }[] = [];
    scores.forEach((score, doc) => {
      if (score > 0) ranked.push({ path: this.#paths[doc], score });
    });
    ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
    return ranked.slice(0, k);
  }
}
