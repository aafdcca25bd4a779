/**
 * @module worker/connections/http
 *
 * The `fetch` the code-host clients use (Octokit's `request.fetch` for GitHub, directly for
 * GitLab), with the limits a service that calls user-configured API hosts needs:
 * - every hop goes through the outbound host guard (indexer/source/host-guard.ts; loopback only
 *   in local mode); redirects are followed by hand, each target checked, at most 5;
 * - the token goes only to the configured API origin: a redirect or a pagination link to another
 *   origin is requested without `Authorization`;
 * - rate limits are waited out through the project's one retry policy (kernel/retry.ts):
 *   `Retry-After` (GitHub secondary limits, GitLab 429), GitHub's primary limit
 *   (`x-ratelimit-remaining: 0` until `x-ratelimit-reset`), a secondary limit without a header
 *   (GitHub asks for at least a minute), and 5xx. A wait longer than `maxWaitMs` is not slept
 *   in a Worker invocation: it fails as `rate_limited` with `retryAfterSeconds`, and the
 *   Cron Trigger tries again on a later tick.
 *
 * GitHub's rules: docs.github.com "Rate limits for the REST API" (primary and secondary limits,
 * "wait at least one minute" without retry-after). GitLab: docs.gitlab.com "Rate limits" (429
 * with Retry-After and RateLimit-Reset).
 */
import { classifyHost, describeHostClass, isFetchableUrl, type HostPolicy } from "../../indexer/source/host-guard";
import { CodeSearchError } from "../../kernel/errors";
import { parseRetryAfter, RetryableError, withRetry } from "../../kernel/retry";

/** Time until response headers per request (ms). */
export const CODE_HOST_TIMEOUT_MS = 15_000;
/** Redirects followed per request. */
export const CODE_HOST_MAX_REDIRECTS = 5;
/** GitHub's advice for a secondary rate limit that names no wait (ms). */
export const SECONDARY_LIMIT_FALLBACK_MS = 60_000;

/** Options of `codeHostFetch`. */
export interface CodeHostFetchOptions extends HostPolicy {
  /** The API origin that may receive the token (e.g. `https://api.github.com`). */
  apiOrigin: string;
  /** Longest single rate-limit wait slept (ms); a longer one fails as `rate_limited`. */
  maxWaitMs: number;
  /** Retries of one request (default 3). */
  retries?: number;
  /** Replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** The wait a rate-limited or failing response asks for: undefined = not retryable; a number (ms, maybe 0) = retry after it. */
export async function retryWait(res: Response, now: number): Promise<number | undefined> {
  if (res.status >= 500) return parseRetryAfter(res.headers.get("retry-after"), now) ?? 0;
  if (res.status !== 403 && res.status !== 429) return undefined;
  const after = parseRetryAfter(res.headers.get("retry-after"), now);
  if (after !== undefined) return after;
  const reset = Number(res.headers.get("x-ratelimit-reset") ?? res.headers.get("ratelimit-reset") ?? NaN);
  if (res.headers.get("x-ratelimit-remaining") === "0" && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now) + 1000;
  if (res.status === 429) return SECONDARY_LIMIT_FALLBACK_MS;
  // A 403 is a permission error unless its message says secondary rate limit.
  const text = await res
    .clone()
    .text()
    .catch(() => "");
  return /secondary rate limit|abuse/i.test(text) ? SECONDARY_LIMIT_FALLBACK_MS : undefined;
}

function checkHop(url: URL, policy: HostPolicy): void {
  if (!isFetchableUrl(url, policy))
    throw new CodeSearchError(
      "invalid_input",
      `baseUrl: ${url.host} is ${describeHostClass(classifyHost(url.hostname))}; this server only calls public code hosts.`,
    );
}

/** One request, redirects followed by hand (each hop guarded), the token kept to the API origin. */
async function guardedOnce(input: string, init: RequestInit, o: CodeHostFetchOptions): Promise<Response> {
  let url = new URL(input);
  let method = init.method ?? "GET";
  for (let hop = 0; ; hop++) {
    checkHop(url, o);
    const headers = new Headers(init.headers);
    if (url.origin !== o.apiOrigin) {
      headers.delete("authorization");
      headers.delete("private-token");
    }
    let res: Response;
    try {
      res = await fetch(url.toString(), {
        method,
        headers,
        body: method === "GET" || method === "HEAD" ? undefined : init.body,
        redirect: "manual",
        signal: AbortSignal.timeout(CODE_HOST_TIMEOUT_MS),
      });
    } catch {
      throw new CodeSearchError("source_unreachable", `The code host at ${url.origin} did not answer within ${CODE_HOST_TIMEOUT_MS / 1000} s.`);
    }
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel();
    if (hop >= CODE_HOST_MAX_REDIRECTS)
      throw new CodeSearchError("source_unreachable", `The code host at ${url.origin} redirected more than ${CODE_HOST_MAX_REDIRECTS} times.`);
    url = new URL(location, url);
    if (res.status === 303) method = "GET";
  }
}

/**
 * A `fetch` for one code host (see the module note). Answers the final response (any status:
 * the client reads 401/404 itself); throws `invalid_input` for a refused host, `rate_limited`
 * (details.retryAfterSeconds) for a limit longer than `maxWaitMs` or still there after the
 * retries, `source_unreachable` for timeouts and persistent 5xx.
 */
export function codeHostFetch(o: CodeHostFetchOptions): typeof fetch {
  const f = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const req = input instanceof Request ? input : null;
    const url = req ? req.url : input.toString();
    const merged: RequestInit = req ? { method: req.method, headers: req.headers, body: req.body, ...init } : init;
    try {
      return await withRetry(
        async () => {
          const res = await guardedOnce(url, merged, o);
          const wait = await retryWait(res, Date.now());
          if (wait === undefined) return res;
          await res.body?.cancel();
          throw new RetryableError(`${res.status} from ${new URL(url).origin}`, res.status, wait);
        },
        { retries: o.retries ?? 3, maxRetryAfterMs: o.maxWaitMs, minTimeoutMs: 250, maxTimeoutMs: 2000, sleep: o.sleep },
      );
    } catch (err) {
      if (!(err instanceof RetryableError)) throw err;
      if (err.status >= 500)
        throw new CodeSearchError("source_unreachable", `The code host at ${new URL(url).origin} keeps failing (HTTP ${err.status}); try again later.`);
      const seconds = Math.max(1, Math.ceil((err.retryAfterMs ?? SECONDARY_LIMIT_FALLBACK_MS) / 1000));
      throw new CodeSearchError("rate_limited", `The code host at ${new URL(url).origin} rate-limited this server; it is tried again in about ${seconds} s.`, {
        retryAfterSeconds: seconds,
      });
    }
  };
  return f as typeof fetch;
}
