/**
 * @module worker/search/channels/scope
 *
 * What every channel receives: the D1 handle, the repo and its active snapshot, filters and
 * the candidate depth. The SQL restricting chunks to that snapshot is worker/search/snapshot-sql.ts.
 */
import type { ParsedQuery } from "../query";
import type { SearchFilters } from "../types";

/**
 * How one query term weighs in the BM25 sum, besides its IDF. `weight`: Okapi BM25's query-term
 * frequency factor qtf (k3 + 1) / (k3 + qtf) (worker/search/terms.ts, queryTermWeight). `proseShare`:
 * the document share below which the term's document frequency counts as that share (its IDF
 * capped, as proseCappedDf caps it for term selection); 0 for none.
 */
export interface TermWeight {
  weight: number;
  proseShare: number;
}

/** Scope of one channel run over one repo. */
export interface ChannelScope {
  db: D1Database;
  repo: string;
  /** `repos.active_commit`: only chunks of files in this snapshot are candidates. */
  commit: string;
  /** `repos.active_indexed_at` read with `commit`, when known (the vector store keys its cache by both). */
  indexedAt?: number | null;
  filters: SearchFilters;
  /** Candidates to nominate: max(30, 3k). */
  depth: number;
  query: ParsedQuery;
  /** BM25 terms after IDF selection. */
  terms: string[];
  /** Per term, its weight in the BM25 sum besides IDF (a pasted report's; none: plain BM25). */
  termWeights?: ReadonlyMap<string, TermWeight>;
}
