/**
 * @module evals/lib/client
 *
 * A small REST client for the product: the harness talks to a running instance only through
 * the documented API (README, "API reference"), so the same runner measures the local and a
 * deployed configuration. `fetch` is injectable: the CI test passes workerd's `SELF.fetch`.
 */
import type { SearchResponse, SearchVariant } from "./types.ts";

/** Options of `ApiClient`. */
export interface ApiClientOptions {
  /** e.g. `http://127.0.0.1:8787` (no trailing slash needed). */
  baseUrl: string;
  /** Bearer token (the local admin token or an API token with `search` and `index` scopes). */
  token?: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
}

/** A non-2xx answer, with the product's error code when the body had one. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Repo status as `GET /api/repos/{id}` returns it (fields the harness reads; the rest is kept). */
export interface RepoStatus {
  id: string;
  status: "queued" | "fetching" | "indexing" | "ready" | "failed" | string;
  [key: string]: unknown;
}

/** A search request: the variant's options plus the query. */
export interface SearchRequest {
  query: string;
  repo: string;
  k: number;
  variant?: SearchVariant;
  /** Ask for each result's channel ranks and stage factors (`explain: true`). */
  explain?: boolean;
}

/** Retries of a request answered 429 before giving up. */
export const RATE_LIMIT_RETRIES = 5;
/** Longest wait honoured from a Retry-After header, seconds. */
export const RATE_LIMIT_MAX_WAIT_S = 65;

/** Thin typed wrapper over `fetch` for the endpoints the harness uses. */
export class ApiClient {
  readonly #base: string;
  readonly #token?: string;
  readonly #fetch: (input: string, init?: RequestInit) => Promise<Response>;

  constructor(options: ApiClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#token = options.token;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Sends a request and parses JSON; throws `ApiError` on non-2xx. */
  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return (await this.requestTimed<T>(method, path, body, headers)).body;
  }

  /**
   * As `request`, also returning the wall time of the attempt that answered (ms). A 429 is
   * retried after its Retry-After (at most RATE_LIMIT_RETRIES times, each wait at most
   * RATE_LIMIT_MAX_WAIT_S); the waiting is not part of the returned time.
   */
  async requestTimed<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ body: T; ms: number }> {
    const h: Record<string, string> = { accept: "application/json", ...headers };
    if (this.#token) h.authorization = `Bearer ${this.#token}`;
    let payload: BodyInit | undefined;
    if (body instanceof Uint8Array) payload = body as unknown as BodyInit;
    else if (body !== undefined) {
      h["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const res = await this.#fetch(`${this.#base}${path}`, { method, headers: h, body: payload });
      const text = await res.text();
      const ms = performance.now() - started;
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Non-JSON body: keep the text for the error message.
      }
      if (res.status === 429 && attempt < RATE_LIMIT_RETRIES && !(body instanceof Uint8Array)) {
        const wait = Math.min(Number(res.headers.get("retry-after")) || 1, RATE_LIMIT_MAX_WAIT_S);
        this.rateLimitedWaits++;
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      if (!res.ok) {
        const err = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
        throw new ApiError(res.status, err?.code, `${method} ${path}: HTTP ${res.status} ${err?.code ?? ""} ${err?.message ?? text.slice(0, 300)}`.trim());
      }
      return { body: parsed as T, ms };
    }
  }

  /** How many times a 429 made this client wait (reported, so a run slowed by the limiter says so). */
  rateLimitedWaits = 0;

  /** `GET /api/repos/{id}`. */
  repoStatus(id: string): Promise<RepoStatus> {
    return this.request<RepoStatus | { repo: RepoStatus }>("GET", `/api/repos/${encodeURIComponent(id)}`).then(unwrapRepo);
  }

  /** `POST /api/repos/{id}/archive` with a tar.gz body; returns the response body (repo and job). */
  uploadArchive(id: string, tarGz: Uint8Array): Promise<Record<string, unknown>> {
    return this.request("POST", `/api/repos/${encodeURIComponent(id)}/archive?strip=0`, tarGz, { "content-type": "application/gzip" });
  }

  /**
   * `POST /api/search`. Sends `mode`, `per_file_cap`, `channels` and `disable_rules` only when the variant sets
   * them, so a server that does not know an option is not sent it. Returns the response and
   * the client-side latency in ms (wall time of the HTTP round trip).
   */
  async search(req: SearchRequest): Promise<{ response: SearchResponse; latencyMs: number }> {
    const body: Record<string, unknown> = { q: req.query, repo: req.repo, k: req.k };
    const v = req.variant;
    if (v?.mode) body.mode = v.mode;
    if (v?.perFileCap !== undefined) body.per_file_cap = v.perFileCap;
    if (v?.channels) body.channels = v.channels;
    if (req.explain) body.explain = true;
    // The server honours disable_rules only with explain (worker/services/search.ts).
    if (v?.disableRules?.length) Object.assign(body, { disable_rules: v.disableRules, explain: true });
    const { body: response, ms } = await this.requestTimed<SearchResponse>("POST", "/api/search", body);
    return { response, latencyMs: ms };
  }
}

function unwrapRepo(body: RepoStatus | { repo: RepoStatus }): RepoStatus {
  return "repo" in body && typeof body.repo === "object" && body.repo !== null ? (body.repo as RepoStatus) : (body as RepoStatus);
}

/** Options of `waitUntilIndexed`. */
export interface WaitOptions {
  /** Give up after this long (ms); default 30 minutes. */
  timeoutMs?: number;
  /** Poll interval (ms); default 250. */
  pollMs?: number;
  /** Called with every status polled (progress display, stage timing). */
  onStatus?: (status: RepoStatus, elapsedMs: number) => void;
  /** Returns true when the polled status belongs to the job this wait is for (see `isJobDone`). */
  isDone?: (status: RepoStatus) => boolean;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Polls `GET /api/repos/{id}` until the repo is ready (or `isDone` says so); throws on
 * `failed` or timeout, with the last status in the message.
 */
export async function waitUntilIndexed(client: ApiClient, id: string, options: WaitOptions = {}): Promise<RepoStatus> {
  const timeout = options.timeoutMs ?? 30 * 60_000;
  const poll = options.pollMs ?? 250;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const isDone = options.isDone ?? ((s: RepoStatus) => s.status === "ready");
  const started = Date.now();
  for (;;) {
    const status = await client.repoStatus(id);
    const elapsed = Date.now() - started;
    options.onStatus?.(status, elapsed);
    if (status.status === "failed") throw new Error(`indexing ${id} failed: ${JSON.stringify(status).slice(0, 800)}`);
    if (isDone(status)) return status;
    if (elapsed > timeout) throw new Error(`indexing ${id} did not finish within ${timeout} ms; last status ${JSON.stringify(status).slice(0, 800)}`);
    await sleep(poll);
  }
}
