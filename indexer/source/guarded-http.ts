/**
 * The HTTP client isomorphic-git uses for remote git (its `HttpClient` plugin shape), with the
 * outbound limits a service that fetches user-supplied URLs needs:
 * - every hop is checked against the host policy (host-guard.ts): the first URL, and each
 *   redirect, which is followed by hand (`redirect: "manual"`) so that a public URL cannot
 *   bounce the fetch to a private or metadata address;
 * - a connect timeout (until the response headers arrive), a total timeout for the whole
 *   operation (every request of one fetch shares it), and a cap on the bytes read.
 *
 * Failures are thrown as `GitTransportError` with a `kind`; git.ts turns them into coded
 * errors (a refused hop is `invalid_input`; an answer cut off mid-body is `interrupted`;
 * timeouts and caps share the neutral message).
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from "isomorphic-git";
import { concatBytes } from "../../kernel/bounded-body";
import { classifyHost, describeHostClass, isFetchableUrl, type HostPolicy } from "./host-guard";

/** Limits of one git operation (an ls-remote, or a fetch). */
export interface TransportLimits extends HostPolicy {
  /** Time until response headers arrive, per request (ms). */
  connectTimeoutMs: number;
  /** Time for the whole operation, all requests together (ms). */
  totalTimeoutMs: number;
  /** Response bytes read over the whole operation. */
  maxResponseBytes: number;
  /** Redirects followed per request. */
  maxRedirects: number;
}

/**
 * Defaults: 15 s to connect, 5 min in total (the DO's fetch alarm re-runs a lost fetch after
 * 10 min, FETCH_STALL_MS), and 100 MiB read: a Worker isolate has 128 MB of memory and the
 * shallow pack is held in it.
 */
export const DEFAULT_TRANSPORT_LIMITS: Omit<TransportLimits, "allowLoopback"> = {
  connectTimeoutMs: 15_000,
  totalTimeoutMs: 5 * 60_000,
  maxResponseBytes: 100 * 1024 * 1024,
  maxRedirects: 5,
};

/** Why a request was not completed. */
export type TransportFailure = "refused_host" | "connect_timeout" | "total_timeout" | "too_large" | "too_many_redirects" | "interrupted";

/** A transport failure; `detail` is safe to show (it never carries a response body). */
export class GitTransportError extends Error {
  override name = "GitTransportError";
  constructor(
    readonly kind: TransportFailure,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Checks one hop; throws `refused_host` naming the host class. */
function checkHop(url: URL, limits: TransportLimits): void {
  if (!isFetchableUrl(url, limits)) {
    const cls = classifyHost(url.hostname);
    throw new GitTransportError("refused_host", `${url.host}, ${describeHostClass(cls)}`);
  }
}

async function collect(body: GitHttpRequest["body"]): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const parts: Uint8Array[] = [];
  for await (const p of body as AsyncIterable<Uint8Array>) parts.push(p);
  return concatBytes(parts);
}

/**
 * An `HttpClient` for isomorphic-git bounded by `limits`. Create one per operation: the total
 * timeout and the byte cap count from its creation.
 */
export function createGuardedHttp(limits: TransportLimits): HttpClient {
  const deadline = Date.now() + limits.totalTimeoutMs;
  let bytesRead = 0;
  const remaining = () => deadline - Date.now();
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const body = await collect(req.body);
      let url = new URL(req.url);
      let method = req.method ?? "GET";
      for (let hop = 0; ; hop++) {
        checkHop(url, limits);
        if (remaining() <= 0) throw new GitTransportError("total_timeout", `no answer within ${limits.totalTimeoutMs} ms`);
        const total = AbortSignal.timeout(remaining());
        const connect = new AbortController();
        const timer = setTimeout(() => connect.abort(), Math.min(limits.connectTimeoutMs, remaining()));
        let res: Response;
        try {
          res = await fetch(url.toString(), {
            method,
            headers: req.headers,
            body: method === "GET" || method === "HEAD" ? undefined : body,
            redirect: "manual",
            signal: AbortSignal.any([total, connect.signal]),
          });
        } catch (err) {
          if (connect.signal.aborted) throw new GitTransportError("connect_timeout", `no response within ${limits.connectTimeoutMs} ms`);
          if (total.aborted) throw new GitTransportError("total_timeout", `no answer within ${limits.totalTimeoutMs} ms`);
          throw err;
        } finally {
          clearTimeout(timer);
        }
        const location = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && location) {
          await res.body?.cancel();
          if (hop >= limits.maxRedirects) throw new GitTransportError("too_many_redirects", `more than ${limits.maxRedirects} redirects`);
          url = new URL(location, url);
          // 303 (and, as browsers do, 301/302 after a POST) continue as GET.
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) method = "GET";
          continue;
        }
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        return {
          url: url.toString(),
          method,
          statusCode: res.status,
          statusMessage: res.statusText,
          headers,
          body: limitBody(
            res.body,
            limits,
            total,
            () => bytesRead,
            (n) => (bytesRead = n),
          ),
        };
      }
    },
  };
}

/** The response body as isomorphic-git reads it (an async iterator), counting bytes against the cap. */
function limitBody(
  body: ReadableStream<Uint8Array> | null,
  limits: TransportLimits,
  total: AbortSignal,
  get: () => number,
  set: (n: number) => void,
): AsyncIterableIterator<Uint8Array> {
  const reader = body?.getReader();
  const iterator: AsyncIterableIterator<Uint8Array> = {
    async next() {
      if (!reader) return { done: true, value: undefined };
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (err) {
        if (total.aborted) throw new GitTransportError("total_timeout", `no complete answer within ${limits.totalTimeoutMs} ms`);
        // The connection broke after the answer began (reset, closed mid-body): not a timeout.
        throw new GitTransportError("interrupted", `the connection was cut after ${get()} bytes of the answer`);
      }
      if (r.done) return { done: true, value: undefined };
      set(get() + r.value.byteLength);
      if (get() > limits.maxResponseBytes) {
        await reader.cancel().catch(() => {});
        throw new GitTransportError("too_large", `the remote sent more than ${limits.maxResponseBytes} bytes`);
      }
      return { done: false, value: r.value };
    },
    async return() {
      await reader?.cancel().catch(() => {});
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
