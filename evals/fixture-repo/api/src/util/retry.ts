/** Options of `retryWithBackoff`. */
export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  /** Upper bound of one delay. */
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `fn` until it succeeds or `maxAttempts` calls have failed, waiting between attempts
 * with exponential backoff and full jitter: a random delay in [0, base * 2^attempt), capped.
 * Rethrows the last error.
 */
export async function retryWithBackoff<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let lastError: unknown;
  for (let attempt = 0; attempt < options.maxAttempts; attempt++) {
    try {
      return await fn();
    } catch (err) {
      lastError = err;
      if (attempt + 1 < options.maxAttempts) {
        const ceiling = Math.min(maxDelay, options.baseDelayMs * 2 ** attempt);
        await sleep(Math.random() * ceiling);
      }
    }
  }
  throw lastError;
}
