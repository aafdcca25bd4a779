/**
 * The search page's whole query as URL parameters, so a search can be shared:
 * `/?q=&repo=&ref=&language=&path=&tests=1&mode=&k=`. `ref` is a branch or tag of `repo`. `path` is a prefix (`src/router/`) or a glob
 * (`src/**\/*.ts`) where the server supports globs.
 */

/** Search modes the API accepts. */
export const SEARCH_MODES = ["hybrid", "bm25", "vector", "symbol"] as const;
export type SearchModeName = (typeof SEARCH_MODES)[number];

/** Results asked for first, and added by each "More results". */
export const PAGE_SIZE = 20;
/** The API's largest `k` (worker/services/search.ts SEARCH_MAX_K). */
export const MAX_RESULTS = 50;

/** Everything a search is made of. */
export interface SearchState {
  q: string;
  repo: string;
  /** A branch or tag of `repo` ("" = its default branch). */
  ref: string;
  language: string;
  path: string;
  includeTests: boolean;
  mode: SearchModeName;
  k: number;
}

/** Reads a state from page URL parameters; unknown values fall back to defaults. */
export function stateFromParams(p: URLSearchParams): SearchState {
  const mode = p.get("mode") ?? "hybrid";
  const k = Number(p.get("k"));
  return {
    q: p.get("q") ?? "",
    repo: p.get("repo") ?? "",
    ref: p.get("repo") ? (p.get("ref") ?? "") : "",
    language: p.get("language") ?? "",
    path: p.get("path") ?? "",
    includeTests: ["1", "true", "yes"].includes(p.get("tests") ?? ""),
    mode: (SEARCH_MODES as readonly string[]).includes(mode) ? (mode as SearchModeName) : "hybrid",
    k: Number.isInteger(k) && k >= 1 ? Math.min(k, MAX_RESULTS) : PAGE_SIZE,
  };
}

/** The page URL's parameters for a state; defaults are left out so URLs stay short. */
export function stateToParams(s: SearchState): URLSearchParams {
  const p = new URLSearchParams({ q: s.q });
  if (s.repo) p.set("repo", s.repo);
  if (s.repo && s.ref) p.set("ref", s.ref);
  if (s.language) p.set("language", s.language);
  if (s.path) p.set("path", s.path);
  if (s.includeTests) p.set("tests", "1");
  if (s.mode !== "hybrid") p.set("mode", s.mode);
  if (s.k !== PAGE_SIZE) p.set("k", String(s.k));
  return p;
}

/**
 * The `GET /api/search` parameters for a state. `path` goes out as `path_prefix`, which takes
 * a prefix or (on servers with glob filters) a glob. `explain` asks for the ranking record.
 */
export function stateToApiParams(s: SearchState, opts: { explain: boolean }): URLSearchParams {
  const p = new URLSearchParams({ q: s.q, k: String(s.k) });
  if (s.repo) p.set("repo", s.repo);
  if (s.repo && s.ref) p.set("ref", s.ref);
  if (s.language) p.set("language", s.language);
  if (s.path) p.set("path_prefix", s.path);
  if (s.includeTests) p.set("include_tests", "true");
  if (s.mode !== "hybrid") p.set("mode", s.mode);
  if (opts.explain) p.set("explain", "true");
  return p;
}
