/**
 * @module worker/search/channels/scope
 *
 * What every channel receives: the D1 handle, the repo and its active snapshot, filters and
 * the candidate depth; plus the SQL that restricts chunks (alias `c`) to that snapshot.
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

/** JOIN restricting chunks `c` to the active snapshot; binds one parameter, the commit. */
export const SNAPSHOT_JOIN =
  "JOIN snapshot_files sf ON sf.repo = c.repo AND sf.commit_sha = ? AND sf.path = c.path AND sf.file_id = c.file_id";

/** Bound parameters per D1 statement, minus room for the fixed ones. */
export const IDS_PER_STATEMENT = 80;
