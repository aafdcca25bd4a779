/**
 * @module worker/search/channels/scope
 *
 * What every channel receives: the D1 handle, the repo and its active snapshot, filters and
 * the candidate depth. The SQL restricting chunks to that snapshot is worker/search/snapshot-sql.ts.
 */
import type { ParsedQuery } from "../query";
import type { SearchFilters } from "../types";

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
}
