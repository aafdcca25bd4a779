/**
 * The one REST client of the command-line tools: `npm start` and the `codebase-copilot` CLI both
 * talk to the API through it. Errors come back as `ApiError` with the API's stable code.
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
  job?: { id?: string; unchanged?: number } | null;
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

/** An error answer of the API (`{error: {code, message}}`) or of the network. */
export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
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
}

/** Request body: JSON, or raw bytes with a content type. */
export type RequestBody = { json?: unknown; bytes?: Uint8Array; contentType?: string };

/** Extracts a repo from `{repo: {...}}` or a bare repo object. */
function repoOf(data: unknown): RepoStatus {
  return (data as { repo?: RepoStatus }).repo ?? (data as RepoStatus);
}

/**
 * The ref a repo registered from the CLI tracks: its stored ref, or `null` for the remote's HEAD.
 * `refs/heads/x` and `x` are the same branch.
 */
function sameRef(asked: string, tracked: string | null | undefined): boolean {
  const norm = (r: string) => r.trim().replace(/^refs\/heads\//, "");
  return tracked ? norm(asked) === norm(tracked) : norm(asked) === "HEAD";
}

/**
 * A client bound to a base URL (`http://127.0.0.1:8787`) and a bearer token.
 * Every method rejects with `ApiError` on a non-2xx answer or when the server is unreachable
 * (status 0, code `unreachable`). `fetchImpl` (default the global fetch) lets a test call a
 * Worker in process.
 */
export function createApiClient(base: string, token: string, fetchImpl: typeof fetch = (input, init) => fetch(input, init)) {
  const root = base.replace(/\/+$/, "");
  async function call(method: string, path: string, body?: RequestBody): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: BodyInit | undefined;
    if (body?.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body?.bytes) {
      headers["content-type"] = body.contentType ?? "application/octet-stream";
      payload = body.bytes as Uint8Array<ArrayBuffer>;
    }
    let res: Response;
    try {
      res = await fetchImpl(`${root}${path}`, { method, headers, body: payload });
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      throw new ApiError(0, "unreachable", `Cannot reach ${root} (${cause}). Is the server running? Check --url or CODEBASE_COPILOT_URL.`);
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = { error: { code: "not_json", message: text.slice(0, 300) } };
    }
    if (!res.ok) {
      const err = (data as { error?: { code?: string; message?: string } } | null)?.error;
      throw new ApiError(res.status, err?.code ?? `http_${res.status}`, `${method} ${path}: ${res.status} ${err?.message ?? text.slice(0, 300)}`);
    }
    return data;
  }
  const repoPath = (id: string) => `/api/repos/${encodeURIComponent(id)}`;
  return {
    /** Any call: `method path` with an optional body; resolves to the parsed JSON. */
    call,
    /** `GET /api/health` (no token needed); true when it answers 200. */
    async health(): Promise<boolean> {
      try {
        const res = await fetch(`${root}/api/health`, { signal: AbortSignal.timeout(3000) });
        await res.body?.cancel();
        return res.ok;
      } catch {
        return false;
      }
    },
    /** The scheduled work's last and next tick (`GET /api/health/schedule`); null before the first tick or from an older server (404). */
    async schedule(): Promise<ScheduleTicks | null> {
      try {
        return ((await call("GET", "/api/health/schedule")) as { schedule: ScheduleTicks | null }).schedule;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
    /**
     * `POST /api/repos {url, ref?, name?}`; on `repo_exists` refreshes the existing repo instead,
     * but only when `ref` is absent or the one the repo tracks: a repo tracks one ref, so a
     * refresh would index the tracked ref and report success for a ref it never fetched. Another
     * ref rejects with `ApiError` 409 `ref_not_tracked` (exit code 5), saying what to do.
     */
    async registerUrl(url: string, o: { ref?: string; name?: string }): Promise<RepoStatus> {
      try {
        return repoOf(await call("POST", "/api/repos", { json: { url, ...(o.ref ? { ref: o.ref } : {}), ...(o.name ? { name: o.name } : {}) } }));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== "repo_exists") throw err;
        const repos = await this.listRepos();
        // The 409 names the id asked for: `name` when given (two repos may share a URL), else the URL's.
        const existing = repos.find((r) => (o.name !== undefined ? r.id === o.name : r.url === url));
        if (!existing) throw err;
        if (o.ref && !sameRef(o.ref, existing.ref)) {
          const tracked = existing.ref ? `ref "${existing.ref}"` : "the remote's default branch (HEAD)";
          throw new ApiError(
            409,
            "ref_not_tracked",
            `Repo "${existing.id}" already indexes ${url} at ${tracked}, and a repo tracks one ref: nothing was indexed for "${o.ref}". ` +
              `Index it as its own repo (add --name ${existing.id}-${o.ref.replace(/[^A-Za-z0-9._-]+/g, "-")}), ` +
              `or move "${existing.id}" to it (POST /api/repos/${existing.id}/refresh with {"ref": "${o.ref}"}); without --ref the tracked ref is refreshed.`,
          );
        }
        return this.refresh(existing.id);
      }
    },
    /**
     * `POST /api/repos/{id}/archive?strip=0` with a tar.gz body (creates the repo when absent).
     * `strip=0`: pack-folder.ts writes paths relative to the folder, so none is a wrapper to strip.
     * `listedByGit`: the files came from `git ls-files` (`?gitignore=applied`), so the server
     * keeps tracked files that a .gitignore matches, as git does.
     */
    async uploadArchive(id: string, tarGz: Uint8Array, o: { listedByGit?: boolean } = {}): Promise<RepoStatus> {
      const query = `strip=0${o.listedByGit ? "&gitignore=applied" : ""}`;
      return repoOf(await call("POST", `${repoPath(id)}/archive?${query}`, { bytes: tarGz, contentType: "application/gzip" }));
    },
    /** `GET /api/repos/{id}`. */
    async status(id: string): Promise<RepoStatus> {
      return repoOf(await call("GET", repoPath(id)));
    },
    /** `GET /api/repos`: the repos the token may see. */
    async listRepos(): Promise<RepoStatus[]> {
      const list = (await call("GET", "/api/repos")) as { repos?: RepoStatus[] } | RepoStatus[];
      return Array.isArray(list) ? list : (list.repos ?? []);
    },
    /** `POST /api/repos/{id}/refresh`. */
    async refresh(id: string): Promise<RepoStatus> {
      return repoOf(await call("POST", `${repoPath(id)}/refresh`));
    },
    /** `POST /api/review {repo, diff}`: grounded findings (spends model tokens; worker/services/review-schema.ts). */
    async review(repo: string, diff: string): Promise<ReviewResult> {
      return (await call("POST", "/api/review", { json: { repo, diff } })) as ReviewResult;
    },
    /** `POST /api/search`: the whole response (`results`, `stats`, `confidence`, ...). */
    /** `POST /api/suggest-tests`: a test skeleton for one function or method, with its facts. */
    async suggestTests(input: { repo: string; path: string; symbol: string; ref?: string; framework?: string; fill?: boolean }): Promise<SuggestedTests> {
      return (await call("POST", "/api/suggest-tests", { json: input })) as SuggestedTests;
    },
    async search(input: SearchRequest): Promise<SearchAnswer> {
      return (await call("POST", "/api/search", { json: input })) as SearchAnswer;
    },
    /** `POST /api/ask`: a grounded answer (spends model tokens); the whole AskOutput. */
    async ask(input: { question: string; repo?: string; repos?: string[]; ref?: string; k?: number }): Promise<AskAnswer> {
      return (await call("POST", "/api/ask", { json: input })) as AskAnswer;
    },
    /** `POST /api/grep`: exact or regex matches, complete and ordered (repo, path, line). */
    async grep(input: GrepRequest): Promise<GrepPage> {
      return (await call("POST", "/api/grep", { json: input })) as GrepPage;
    },
    /** `POST /api/tokens`: the new token (its secret is in the answer, once). */
    async createToken(input: { name: string; scopes: string[]; repos?: string[]; expiresInDays?: number }): Promise<TokenInfo & { token: string }> {
      return (await call("POST", "/api/tokens", { json: input })) as TokenInfo & { token: string };
    },
    /** `GET /api/tokens`. */
    async listTokens(): Promise<TokenInfo[]> {
      return ((await call("GET", "/api/tokens")) as { tokens: TokenInfo[] }).tokens;
    },
    /** `DELETE /api/tokens/{id}`. */
    async revokeToken(id: string): Promise<TokenInfo> {
      return (await call("DELETE", `/api/tokens/${encodeURIComponent(id)}`)) as TokenInfo;
    },
    /** `GET /api/grants?user=`: a person's sign-ins. */
    async listGrants(user: string): Promise<GrantInfo[]> {
      return ((await call("GET", `/api/grants?user=${encodeURIComponent(user)}`)) as { grants: GrantInfo[] }).grants;
    },
    /** `DELETE /api/grants/{id}?user=`, or every grant of the person without `id`: the ids revoked. */
    async revokeGrants(user: string, id?: string): Promise<string[]> {
      const path = id ? `/api/grants/${encodeURIComponent(id)}` : "/api/grants";
      return ((await call("DELETE", `${path}?user=${encodeURIComponent(user)}`)) as { revoked: string[] }).revoked;
    },
  };
}

/** The client type, for functions that take one. */
export type ApiClient = ReturnType<typeof createApiClient>;
