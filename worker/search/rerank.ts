/**
 * @module worker/search/rerank
 *
 * Second stage over the fused head: ranks candidates by how much of the query's information
 * they cover, then fuses that ranking with the channel fusion by RRF. Pure.
 *
 * Term coverage: the IDF-weighted share of distinct query terms that occur in a chunk (its
 * path, container, symbol and code), a term matching by its stem too (`routing` ~ `router`).
 * BM25 saturates each term's frequency but still lets one rare term that repeats carry a
 * chunk; natural-language questions describe several aspects of the code they want, and the
 * chunk that covers most of them is the better answer (the "coordination level" of classic IR,
 * e.g. Salton and McGill, Introduction to Modern Information Retrieval, 1983; coverage
 * features in learning-to-rank, Qin et al., LETOR 2010). Chunks without a definition (module
 * blocks, windows, doc sections) keep a share of their coverage: questions ask for code.
 */
import { stem } from "../../indexer/embed/features";
import { tokenize } from "../../indexer/store/contract";
import { RRF_K } from "./fuse";
import { idf } from "./terms";

/** What the reranker reads of a candidate. */
export interface RerankCandidate {
  chunkId: string;
  score: number;
  path: string;
  kind: string;
  symbol: string | null;
  container: string | null;
  content: string;
}

/** Tunables of the rerank stage; `weight` 0 disables it. */
export const RERANK = {
  /** RRF weight of the coverage ranking (the channel fusion has weight 1). */
  weight: 1,
  /** Multiplier for terms found in the symbol name or container (1: no boost; 1.5 and 2 measured worse). */
  symbolBoost: 1,
  /** Share of the coverage score kept by module blocks, windows and doc sections (no definition). */
  nonDefinitionFactor: 0.8,
};

const NON_DEFINITION_KINDS = new Set(["module", "window", "section"]);

/**
 * IDF-weighted coverage of `terms` by one candidate, in 0..(1 + symbolBoost).
 * `df`: document frequency per term, `totalDocs`: chunks in the index.
 */
export function coverage(c: RerankCandidate, terms: string[], df: Map<string, number>, totalDocs: number): number {
  if (!terms.length) return 0;
  const body = new Set<string>();
  for (const t of tokenize(`${c.path} ${c.content}`)) {
    body.add(t);
    body.add(stem(t));
  }
  const name = new Set<string>();
  for (const t of tokenize(`${c.container ?? ""} ${c.symbol ?? ""}`)) {
    name.add(t);
    name.add(stem(t));
  }
  let total = 0;
  let got = 0;
  for (const t of terms) {
    const w = idf(df.get(t) ?? 0, Math.max(totalDocs, 1));
    total += w;
    const s = stem(t);
    const inName = name.has(t) || name.has(s);
    if (inName) got += w * RERANK.symbolBoost;
    else if (body.has(t) || body.has(s)) got += w;
  }
  const score = total ? got / total : 0;
  return NON_DEFINITION_KINDS.has(c.kind) ? score * RERANK.nonDefinitionFactor : score;
}

/**
 * Reorders `candidates` (best first by channel fusion) by their fused RRF score plus an RRF
 * term for their coverage rank. Returns a new array with the combined `score`.
 */
export function rerankByCoverage<T extends RerankCandidate>(candidates: T[], terms: string[], df: Map<string, number>, totalDocs: number): T[] {
  // A single candidate still gets its term: scores of several repos are merged.
  if (RERANK.weight <= 0 || !candidates.length || !terms.length) return candidates;
  const cov = candidates.map((c) => coverage(c, terms, df, totalDocs));
  const byCov = candidates.map((_, i) => i).sort((a, b) => cov[b] - cov[a] || a - b);
  const covRank = new Array<number>(candidates.length);
  byCov.forEach((idx, r) => (covRank[idx] = r + 1));
  // Added to the fused score (not to 1/(k + fused rank)) so scores stay comparable across repos.
  const combined = candidates.map((c, i) => ({ c, i, s: c.score + RERANK.weight / (RRF_K + covRank[i]) }));
  combined.sort((a, b) => b.s - a.s || a.i - b.i);
  return combined.map(({ c, s }) => ({ ...c, score: s }));
}
