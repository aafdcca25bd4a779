/**
 * The one REST client of the command-line tools: `npm start` and the `codebase-copilot` CLI both
 * talk to the API through it. Errors come back as `ApiError` with the API's stable code.
 */
import type {
  AskAnswer,
  Blame,
  CommitSearch,
  CommitSearchQuery,
  FileHistory,
  GrantInfo,
  GrepPage,
  GrepRequest,
  HistoryQuery,
  RepoStatus,
  RefSync,
  ReviewResult,
  ScheduleTicks,
  SearchAnswer,
  SearchRequest,
  SuggestedTests,
  TokenInfo,
} from "./api-types.ts";
import { ApiError } from "./api-error.ts";
import { registerUrl, type RegisterOutcome } from "./register-url.ts";

export { ApiError } from "./api-error.ts";
export type { RegisterOutcome } from "./register-url.ts";

export type * from "./api-types.ts";

/** Request body: JSON, or raw bytes with a content type. */
export type RequestBody = { json?: unknown; bytes?: Uint8Array; contentType?: string };

/** Extracts a repo from `{repo: {...}}` or a bare repo object. */
function repoOf(data: unknown): RepoStatus {
  return (data as { repo?: RepoStatus }).repo ?? (data as RepoStatus);
}

/** `?a=1&b=x` of the fields that are set (undefined ones are left out, so the route's defaults apply). */
function queryString(fields: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) q.set(k, String(v));
  return q.size ? `?${q}` : "";
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
     * `POST /api/repos {url, ref?, name?}`; on `repo_exists`, refreshes the repo when `ref` is
     * absent or its default ref, else tracks `ref` on it (PATCH) and indexes it (register-url.ts).
     */
    async registerUrl(url: string, o: { ref?: string; name?: string }): Promise<RegisterOutcome> {
      return registerUrl(this, url, o);
    },
    /** `PATCH /api/repos/{id} {refs}`: the refs the repo tracks besides its default branch (docs/refs.md). */
    async setRefs(id: string, refs: string[]): Promise<RefSync> {
      return ((await call("PATCH", repoPath(id), { json: { refs } })) as { refs: RefSync }).refs;
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
    /** `POST /api/review {repo, diff, ref?}`: grounded findings (spends model tokens; worker/services/review-schema.ts). */
    async review(repo: string, diff: string, ref?: string): Promise<ReviewResult> {
      return (await call("POST", "/api/review", { json: { repo, diff, ...(ref !== undefined ? { ref } : {}) } })) as ReviewResult;
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
    /** `GET /api/repos/{id}/history`: commits that changed `path` or lines `start..end` of it (worker/services/history-schema.ts). */
    async fileHistory({ repo, ...q }: HistoryQuery): Promise<FileHistory> {
      return (await call("GET", `${repoPath(repo)}/history${queryString({ ...q })}`)) as FileHistory;
    },
    /** `GET /api/repos/{id}/blame`: the commit that last changed each line of `start..end`. */
    async blame({ repo, ...q }: Omit<HistoryQuery, "limit" | "cursor">): Promise<Blame> {
      return (await call("GET", `${repoPath(repo)}/blame${queryString({ ...q })}`)) as Blame;
    },
    /** `GET /api/search/commits`: BM25 over commit messages, with author and date filters. */
    async searchCommits(q: CommitSearchQuery): Promise<CommitSearch> {
      return (await call("GET", `/api/search/commits${queryString({ ...q })}`)) as CommitSearch;
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
