/** Outcome of one rate-limit check. */
export interface RateVerdict {
  allowed: boolean;
  /** How long to wait before the next token is available (0 when allowed). */
  retryAfterMs: number;
}

interface Bucket {
  tokens: number;
  updatedAtMs: number;
}

/**
 * Token bucket rate limiter, one bucket per key. A bucket holds up to `burst` tokens and
 * refills continuously at `refillPerSecond`; each request takes one token.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly burst: number,
    private readonly refillPerSecond: number,
  ) {}

  take(key: string, nowMs: number): RateVerdict {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAtMs: nowMs };
    const elapsedSeconds = (nowMs - bucket.updatedAtMs) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsedSeconds * this.refillPerSecond);
    bucket.updatedAtMs = nowMs;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    }
    const missing = 1 - bucket.tokens;
    return { allowed: false, retryAfterMs: Math.ceil((missing / this.refillPerSecond) * 1000) };
  }
}
