/**
 * The shapes of the API answers the CLI reads (fields it uses; the rest is printed as is with
 * --json). Split from api-client.ts, which re-exports them.
 */
import type { JobStatus } from "../../kernel/job-status.ts";

/** Repo status as `GET /api/repos/{id}` returns it (fields the CLI reads). */
export interface RepoStatus {
  id: string;
  status: JobStatus;
  url?: string;
  ref?: string;
  progress?: { filesTotal?: number; filesQueued?: number; filesDone?: number; chunks?: number };
  skipped?: Record<string, number>;
  snapshot?: { commit: string; indexedAt: number | string } | null;
  lastError?: string | { code?: string; message?: string } | null;
  /** Files and chunks of the active snapshot (what search serves); null before the first one. */
  index?: { files: number; chunks: number } | null;
  /** The current or last job; `unchanged` counts files already indexed in an earlier snapshot. */
  job?: { id?: string; unchanged?: number; ref?: string | null; commit?: string | null; status?: JobStatus } | null;
  /** Every tracked ref, the default first (docs/refs.md); absent from older servers. */
  refs?: { name: string; default: boolean; commit: string | null; indexedAt: number | null; status: string; lastError: string | null }[];
  /** The extra tracked refs' patterns. */
  refPatterns?: string[];
  /** Why the repo has no refs (an archive). */
  refsNote?: string | null;
}

/** What `PATCH /api/repos/{id} {refs}` answers in `refs` (worker/services/repo-refs.ts `refSyncSchema`). */
export interface RefSync {
  patterns: string[];
  defaultRef: string;
  refs: { name: string; pattern: string; commit: string; action: "queued" | "unchanged" }[];
  removed: string[];
  overLimit: string[];
}

/** One search result as `GET /api/search` returns it (fields the CLI prints). */
export interface SearchHit {
  repo: string;
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
  kind: string;
  score: number;
  /** The ref and commit the result was read at (servers before issue #49 leave them out). */
  ref?: string | null;
  commit?: string;
  snippet?: string;
  content?: string;
  /** With `explain`: channel ranks, fused score and each ranking stage's factor. */
  explain?: { ranks: Record<string, number>; fused: number; stages: { stage: string; factor: number }[] };
}

/** The Cron Trigger's last and next tick, from `GET /api/health/schedule` (worker/schedule/ticks.ts); ms since epoch. */
export interface ScheduleTicks {
  cron: string;
  lastTickAt: number;
  nextTickAt: number | null;
}

/** Body of `POST /api/search` (worker/services/search.ts `searchInput`; the server validates it). */
export interface SearchRequest {
  q: string;
  repo?: string;
  repos?: string[];
  /** A branch or tag to search in each repo (default: each one's default branch). */
  ref?: string;
  k?: number;
  mode?: string;
  language?: string;
  path_prefix?: string;
  include_tests?: boolean;
  explain?: boolean;
}

/** A search answer (fields the CLI reads; the rest is printed as is with --json). */
export type SearchAnswer = { results: SearchHit[]; confidence?: { level?: string; reason?: string } } & Record<string, unknown>;

/** What `POST /api/ask` answers (fields the CLI prints; worker/services/ask-schema.ts). */
export interface AskAnswer {
  status: "answered" | "refused" | "ungrounded";
  answer: string;
  reason?: string | null;
  citations: { evidence: string; repo: string; path: string; startLine: number; endLine: number; verified: boolean }[];
  rejectedCitations: { reason: string }[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null };
  model: string | null;
}

/** Body of `POST /api/grep` (worker/services/grep.ts `grepInput`). */
export interface GrepRequest {
  pattern: string;
  regex?: boolean;
  case_sensitive?: boolean;
  whole_word?: boolean;
  repo?: string;
  repos?: string[];
  ref?: string;
  path?: string;
  language?: string;
  include_tests?: boolean;
  limit?: number;
  cursor?: string;
}

/** One page of grep matches (fields the CLI prints). */
export interface GrepPage {
  matches: {
    repo: string;
    ref?: string | null;
    commit?: string;
    path: string;
    line: number;
    column: number;
    text: string;
    ranges: [number, number][];
    symbol: { name: string } | null;
  }[];
  /** With `ref`: repos that do not track it (not searched). */
  withoutRef?: string[];
  total_count: number;
  total_exact: boolean;
  has_more: boolean;
  next_cursor: string | null;
  scan_capped?: boolean;
}

/** Token metadata as `/api/tokens` returns it (never the secret, except once on creation). */
export interface TokenInfo {
  id: string;
  name: string;
  scopes: string[];
  repos: string[] | null;
  createdAt?: number;
  expiresAt?: number | null;
  lastUsedAt?: number | null;
  revokedAt?: number | null;
}

/** A sign-in (OAuth grant) as `/api/grants` returns it; times in ms since epoch. */
export interface GrantInfo {
  id: string;
  user: string;
  login: string | null;
  clientId: string;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
}

/** What `POST /api/suggest-tests` answers (worker/services/suggest-tests-schema.ts). */
export interface SuggestedTests {
  repo: string;
  path: string;
  symbol: string;
  framework: string;
  test_path: string;
  test_path_exists: boolean;
  skeleton: string;
  tests: { name: string; behaviour: string }[];
  facts: { kind: string; text: string; path: string; line: number }[];
  notes: string[];
  /** With `fill`: the checked, model-completed test (null when the skeleton stands) and why. */
  fill?: { filled: boolean; reason: string; test: string | null; unresolved: { name: string; line: number }[]; model: string | null; prompt: string | null };
}

/** A grounded finding as `POST /api/review` returns it. */
export interface ReviewFinding {
  severity: string;
  category: string;
  file: string;
  line: number;
  issue: string;
  suggestion: string;
}

/** The parts of a `POST /api/review` answer the CLI prints. */
export interface ReviewResult {
  status: string;
  reason: string | null;
  summary: string;
  findings: ReviewFinding[];
  rejectedFindings: (ReviewFinding & { reason: string; detail: string })[];
  toolCalls: { tool: string; isError: boolean }[];
  modelCalls: number;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null };
  model: string;
  prompts: { system: { id: string; version: number }; task: { id: string; version: number } };
  /** The snapshot the review read: its ref (full name; null for an archive) and commit. */
  scope?: { ref: string | null; commit: string };
}

/** A commit as history, blame and commit search show it (worker/services/history-schema.ts `commitSummarySchema`); `date`: author date, ISO UTC. */
export interface CommitSummary {
  sha: string;
  author: { name: string; email: string };
  date: string;
  subject: string;
}

/** A line range of a file at some commit (1-based, inclusive). */
export interface FileRange {
  path: string;
  start: number;
  end: number;
}

/** `GET /api/repos/{id}/history`: one page of the commits that changed a file or lines of it, newest first. */
export interface FileHistory {
  repo: string;
  path: string;
  /** The ref read (full name) and the commit the walk started from. */
  ref: string;
  commit: string;
  range: { start: number; end: number } | null;
  /** `after`/`before`: the range in that commit and its parent (null for a whole file; `before` null when the commit added the lines). */
  commits: (CommitSummary & { path: string; after: FileRange | null; before: FileRange | null })[];
  next_cursor: string | null;
  /** Older history is beyond the kept depth. */
  truncated: boolean;
  depth: string;
}

/** `GET /api/repos/{id}/blame`: consecutive lines last changed by the same commit, as one range each. */
export interface Blame {
  repo: string;
  path: string;
  ref: string;
  commit: string;
  start: number;
  end: number;
  /** `origin`: the lines in that commit; `boundary`: at least this old (the oldest kept commit). */
  ranges: (CommitSummary & { start: number; end: number; origin: FileRange; boundary: boolean })[];
}

/** `GET /api/search/commits`: commits whose messages match, best first. */
export interface CommitSearch {
  commits: (CommitSummary & { repo: string; body: string; score: number })[];
  repos: string[];
  /** With `ref`: the ref searched (full name) and its commit; null: every tracked ref's commits. */
  ref: string | null;
  commit: string | null;
}

/** Query of `GET /api/repos/{id}/history` (the route's names; absent fields take its defaults). */
export interface HistoryQuery {
  repo: string;
  path: string;
  start?: number;
  end?: number;
  ref?: string;
  limit?: number;
  cursor?: string;
}

/** Query of `GET /api/search/commits`. */
export interface CommitSearchQuery {
  q: string;
  repo?: string;
  ref?: string;
  author?: string;
  since?: string;
  until?: string;
  limit?: number;
}
