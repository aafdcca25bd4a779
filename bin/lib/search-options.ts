/**
 * `codebase-copilot search`'s options, mapped to the body of `POST /api/search` with the REST
 * names and meanings (worker/services/search.ts `searchInput` validates them on the server;
 * the fixed value sets come from kernel/search-options.ts), and `--min-confidence` for CI. Pure.
 */
import { CONFIDENCE_LEVELS, SEARCH_MODES, type ConfidenceLevel } from "../../kernel/search-options.ts";
import type { SearchRequest } from "./api-client.ts";
import { repoFields } from "./cli-common.ts";

export { CONFIDENCE_LEVELS, SEARCH_MODES };

/** Parsed options of `search` (commander's camelCase names). */
export interface SearchFlags {
  repo?: string[];
  /** `--ref`: the branch or tag to search in each repo. */
  ref?: string;
  k?: number;
  mode?: (typeof SEARCH_MODES)[number];
  language?: string;
  pathPrefix?: string;
  /** true: --include-tests; false: --no-include-tests; undefined: the server decides (only when the query mentions tests). */
  includeTests?: boolean;
  explain?: boolean;
  minConfidence?: ConfidenceLevel;
}

/** The request body for `query` and `flags`: only what was given, so the server's defaults apply. */
export function searchRequest(query: string, f: SearchFlags): SearchRequest {
  return {
    q: query,
    ...repoFields(f.repo),
    ...(f.ref ? { ref: f.ref } : {}),
    ...(f.k !== undefined ? { k: f.k } : {}),
    ...(f.mode ? { mode: f.mode } : {}),
    ...(f.language ? { language: f.language } : {}),
    ...(f.pathPrefix ? { path_prefix: f.pathPrefix } : {}),
    ...(f.includeTests !== undefined ? { include_tests: f.includeTests } : {}),
    ...(f.explain ? { explain: true } : {}),
  };
}

/**
 * Whether an answer passes `--min-confidence min`: it has a result and its `confidence.level`
 * is `min` or higher (CONFIDENCE_LEVELS lists them highest first). No `min`: any result passes.
 */
export function meetsConfidence(res: { results: unknown[]; confidence?: { level?: string } }, min: ConfidenceLevel | undefined): boolean {
  if (res.results.length === 0) return false;
  if (!min) return true;
  const rank = CONFIDENCE_LEVELS.indexOf(res.confidence?.level as ConfidenceLevel);
  return rank !== -1 && rank <= CONFIDENCE_LEVELS.indexOf(min);
}
