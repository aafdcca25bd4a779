/**
 * @module kernel/retry
 *
 * Retries of platform calls with exponential backoff and full jitter (p-retry), honouring a
 * server's Retry-After. Only errors marked retryable (`RetryableError`: HTTP 429 and 5xx,
 * including Anthropic's 529 "overloaded") are retried; anything else fails at once. The one
 * retry policy of the project: Workers AI embeddings (indexer/embed) and model calls
 * (worker/generation) both go through `withRetry`.
 */
import pRetry, { AbortError } from "p-retry";

/** A failure worth retrying: rate limited (429) or a server error (5xx). */
export class RetryableError extends Error {
  override name = "RetryableError";
  constructor(
    message: string,
    readonly status: number,
    /** Delay the server asked for (Retry-After), in ms; undefined when it gave none. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Whether an HTTP status is worth retrying: 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Parses a Retry-After header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) into ms from
 * `nowMs`. Returns undefined when absent or unparseable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Retry policy. Defaults: 5 retries, 500 ms doubling to at most 20 s, full jitter. */
export interface RetryOptions {
  retries?: number;
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  /** Upper bound for a Retry-After wait, ms (default 60 s): a longer ask fails instead. */
  maxRetryAfterMs?: number;
  /** Sleep function, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Called after each failed attempt that will be retried (1-based attempt number), e.g. to count retries. */
  onRetry?: (error: RetryableError, attempt: number) => void;
}

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn`, retrying `RetryableError`s. A Retry-After is waited out before p-retry's own
 * (jittered) backoff delay, so the wait is at least what the server asked for.
 * Throws the last error when retries run out, or at once for a non-retryable error.
 */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const sleep = options.sleep ?? sleepMs;
  const maxRetryAfter = options.maxRetryAfterMs ?? 60_000;
  return pRetry(
    async () => {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof RetryableError) throw err;
        throw new AbortError(err instanceof Error ? err : new Error(String(err)));
      }
    },
    {
      retries: options.retries ?? 5,
      factor: 2,
      minTimeout: options.minTimeoutMs ?? 500,
      maxTimeout: options.maxTimeoutMs ?? 20_000,
      randomize: true,
      onFailedAttempt: async ({ error, retriesLeft, attemptNumber }) => {
        if (error instanceof RetryableError && retriesLeft > 0) options.onRetry?.(error, attemptNumber);
        const wait = error instanceof RetryableError ? error.retryAfterMs : undefined;
        if (wait === undefined || retriesLeft === 0) return;
        if (wait > maxRetryAfter) throw error;
        await sleep(wait);
      },
    },
  );
}
