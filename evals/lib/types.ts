/**
 * @module evals/lib/types
 *
 * Shapes shared by the evaluation runner, its metrics and the CI test. Lines are 1-based and
 * inclusive, as everywhere in the product.
 */

/** A gold location: the definition that answers a question. */
export interface GoldSpan {
  /** Path relative to the corpus root, `/`-separated. */
  file: string;
  /**
   * Name of the defining symbol; `Container.member` for methods; heading text for Markdown. When
   * a range spans several definitions, the first one. Absent for a file-level range.
   */
  symbol?: string;
  startLine: number;
  endLine: number;
}

/**
 * Question categories. `lexical` names the code's identifiers, `semantic` does not, `report` is
 * a pasted error message or stack trace, `unanswerable` has no gold and should be refused.
 */
export type Category = "semantic" | "lexical" | "report" | "unanswerable";

/** One question of a retrieval set (fixture, hono-50, polyglot). An empty `gold` means unanswerable. */
export interface Question {
  id: string;
  category: Category;
  question: string;
  gold: GoldSpan[];
  /** Multilingual set: the question's language (ISO 639-1) and the English question it translates. */
  lang?: string;
  english?: string;
}

/** A retrieval set: questions about one repository at one commit. */
export interface RetrievalSet {
  name: string;
  /** Upstream repository (`owner/name`) or `fixture`. */
  repo: string;
  commit?: string;
  /** Main language of the repository, for reports (polyglot sets). */
  language?: string;
  questions: Question[];
}

/** One SWE-bench Lite instance as stored in `swebench-lite-offline.jsonl`. */
export interface SwebenchInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  gold_files: string[];
  gold_spans?: Record<string, string[]>;
}

/** A search result as `POST /api/search` returns it (fields the harness reads). */
export interface SearchHit {
  repo?: string;
  path: string;
  startLine: number;
  endLine: number;
  symbol?: string | null;
  score?: number;
  ranks?: Record<string, number>;
}

/** The confidence block of a search response. `low` means the gate refused. */
export interface SearchConfidence {
  level: string;
  termCoverage?: number;
  [key: string]: unknown;
}

/** A search response (fields the harness reads). */
export interface SearchResponse {
  results: SearchHit[];
  confidence?: SearchConfidence;
  /** Server statistics; `queryTerms` are the BM25 terms it selected. */
  stats?: { queryTerms?: string[]; tookMs?: number; queryLanguage?: { detected: string; via: string; searchedAs: string } };
}

/** Search options the harness varies (mode, per-file cap, channels). */
export interface SearchVariant {
  /** Label in reports, e.g. `hybrid` or `bm25+vector, no cap`. */
  label: string;
  mode?: "hybrid" | "bm25" | "vector" | "symbol";
  /** Channels to fuse when the server supports choosing them (`channels` in the request). */
  channels?: string[];
  /** Results per file; 0 turns the cap off. Sent as `per_file_cap`. */
  perFileCap?: number;
  /** Report rules to turn off (worker/search/rules.ts); sent as `disable_rules` with `explain` (admin token). */
  disableRules?: string[];
}
