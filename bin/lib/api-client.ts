/**
 * The few REST calls `npm start` makes, as the local admin.
 */

/** Repo status as `GET /api/repos/{id}` returns it (fields the CLI reads). */
export interface RepoStatus {
  id: string;
  status: "queued" | "fetching" | "indexing" | "ready" | "failed";
  progress?: { filesTotal?: number; filesQueued?: number; filesDone?: number; chunks?: number };
  skipped?: Record<string, number>;
  snapshot?: { commit: string; indexedAt: number | string } | null;
  lastError?: string | { code?: string; message?: string } | null;
  /** Files and chunks of the active snapshot (what search serves); null before the first one. */
  index?: { files: number; chunks: number } | null;
  /** The current or last job; `unchanged` counts files already indexed in an earlier snapshot. */
  job?: { unchanged?: number } | null;
}

/** An error answer of the API: `{error: {code, message}}`. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A client bound to a base URL (`http://127.0.0.1:8787`) and the admin bearer token. */
export function createApiClient(base: string, token: string) {
  async function call(method: string, path: string, body?: { json?: unknown; bytes?: Uint8Array; contentType?: string }): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: BodyInit | undefined;
    if (body?.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body?.bytes) {
      headers["content-type"] = body.contentType ?? "application/octet-stream";
      payload = body.bytes as Uint8Array<ArrayBuffer>;
    }
    const res = await fetch(`${base}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let data: unknown = null;
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
  /** Unwraps `{repo: {...}}` or a bare repo object. */
  const repoOf = (data: unknown): RepoStatus => ((data as { repo?: RepoStatus }).repo ?? (data as RepoStatus));
  return {
    /** `POST /api/repos {url, ref?, name?}`; on `repo_exists` refreshes the existing repo instead. */
    async registerUrl(url: string, o: { ref?: string; name?: string }): Promise<RepoStatus> {
      try {
        return repoOf(await call("POST", "/api/repos", { json: { url, ...(o.ref ? { ref: o.ref } : {}), ...(o.name ? { name: o.name } : {}) } }));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== "repo_exists") throw err;
        const list = (await call("GET", "/api/repos")) as { repos?: (RepoStatus & { url?: string })[] } | (RepoStatus & { url?: string })[];
        const repos = Array.isArray(list) ? list : (list.repos ?? []);
        const existing = repos.find((r) => r.url === url || (o.name !== undefined && r.id === o.name));
        if (!existing) throw err;
        return repoOf(await call("POST", `/api/repos/${encodeURIComponent(existing.id)}/refresh`));
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
      return repoOf(await call("POST", `/api/repos/${encodeURIComponent(id)}/archive?${query}`, { bytes: tarGz, contentType: "application/gzip" }));
    },
    /** `GET /api/repos/{id}`. */
    async status(id: string): Promise<RepoStatus> {
      return repoOf(await call("GET", `/api/repos/${encodeURIComponent(id)}`));
    },
  };
}
