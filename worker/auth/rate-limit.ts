/**
 * @module worker/auth/rate-limit
 *
 * Search rate limits per identity and per client IP: search, ask, grep, review and suggest-tests share them
 * (a grep costs more units the more work it did, `grepWorkUnits`). The port is the shape of the Workers
 * rate-limiting binding (`[[ratelimits]]` in wrangler.toml), which wrangler dev and the vitest
 * plugin simulate. When a binding is absent (a deployment that did not declare it), a local
 * fixed-window limiter with the same limits stands in, per isolate: weaker, but never "no limit".
 */
import { LRUCache } from "lru-cache";
import type { Env } from "../../kernel/env";
import { errorResponse } from "../api/errors";
import type { Caller } from "../services/context";
import { clientAddress } from "./client-address";

/** The part of the Workers `RateLimit` binding used here. */
export interface RateLimiter {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** Per-identity searches per window when no binding is configured (keep equal to wrangler.toml). */
export const SEARCH_LIMIT_IDENTITY_PER_MINUTE = 120;
/** Per-IP searches per window when no binding is configured (keep equal to wrangler.toml). */
export const SEARCH_LIMIT_IP_PER_MINUTE = 300;
/** Window of both limits (seconds); the binding supports 10 or 60. Sent as Retry-After. */
export const SEARCH_LIMIT_PERIOD_SECONDS = 60;

/** In-memory fixed-window limiter: the stand-in for a missing binding. */
export class LocalRateLimiter implements RateLimiter {
  /** Bounded: the least recently seen key goes first (its old window is useless anyway). */
  #counts = new LRUCache<string, { window: number; count: number }>({ max: 10_000 });
  constructor(
    readonly limitPerPeriod: number,
    readonly periodSeconds: number,
    readonly now: () => number = Date.now,
  ) {}

  async limit({ key }: { key: string }): Promise<{ success: boolean }> {
    const window = Math.floor(this.now() / (this.periodSeconds * 1000));
    const entry = this.#counts.get(key);
    if (!entry || entry.window !== window) {
      this.#counts.set(key, { window, count: 1 });
      return { success: this.limitPerPeriod >= 1 };
    }
    if (entry.count >= this.limitPerPeriod) return { success: false };
    entry.count++;
    return { success: true };
  }
}

let fallbackIdentity: LocalRateLimiter | undefined;
let fallbackIp: LocalRateLimiter | undefined;

function limiters(env: Env): { identity: RateLimiter; ip: RateLimiter } {
  return {
    identity: env.SEARCH_LIMIT_IDENTITY ?? (fallbackIdentity ??= new LocalRateLimiter(SEARCH_LIMIT_IDENTITY_PER_MINUTE, SEARCH_LIMIT_PERIOD_SECONDS)),
    ip: env.SEARCH_LIMIT_IP ?? (fallbackIp ??= new LocalRateLimiter(SEARCH_LIMIT_IP_PER_MINUTE, SEARCH_LIMIT_PERIOD_SECONDS)),
  };
}

/** Outcome of a search rate check: allowed, or refused with the seconds to wait. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number; scope: "identity" | "ip" };

/**
 * Counts one search for the caller and for the client address (worker/auth/client-address.ts:
 * `CF-Connecting-IP` on Cloudflare, loopback under npm start; unknown in unit tests, then only
 * the identity is counted).
 * The local admin token is exempt from the identity limit (it is the operator, and test suites
 * use it heavily); the IP limit still applies to it.
 */
export async function checkSearchRate(env: Env, caller: Caller, request: Request): Promise<RateDecision> {
  const { identity, ip } = limiters(env);
  if (caller.kind !== "admin-token") {
    const r = await identity.limit({ key: `id:${caller.id}` });
    if (!r.success) return { ok: false, retryAfterSeconds: SEARCH_LIMIT_PERIOD_SECONDS, scope: "identity" };
  }
  const clientIp = clientAddress(env, request);
  if (clientIp) {
    const r = await ip.limit({ key: `ip:${clientIp}` });
    if (!r.success) return { ok: false, retryAfterSeconds: SEARCH_LIMIT_PERIOD_SECONDS, scope: "ip" };
  }
  return { ok: true };
}

/** Dynamic client registrations per client address per window when no binding is configured (keep equal to wrangler.toml). */
export const REGISTER_LIMIT_IP_PER_MINUTE = 10;

let fallbackRegister: LocalRateLimiter | undefined;

/**
 * Counts one dynamic client registration for the client address; `ok: false` when over
 * REGISTER_LIMIT_IP_PER_MINUTE. An unknown address (unit tests only) is not counted.
 */
export async function checkRegisterRate(env: Env, request: Request): Promise<RateDecision> {
  const address = clientAddress(env, request);
  if (address === null) return { ok: true };
  const limiter = env.REGISTER_LIMIT_IP ?? (fallbackRegister ??= new LocalRateLimiter(REGISTER_LIMIT_IP_PER_MINUTE, SEARCH_LIMIT_PERIOD_SECONDS));
  const r = await limiter.limit({ key: `register:${address}` });
  return r.success ? { ok: true } : { ok: false, retryAfterSeconds: SEARCH_LIMIT_PERIOD_SECONDS, scope: "ip" };
}

/**
 * Paths counted as searches: `/search`, `/ask` (grounded answers search first), `/grep` and
 * `/review` and `/suggest-tests` (model calls with fill, like ask) and anything below them, under /api.
 */
export function isSearchPath(pathname: string): boolean {
  return /\/(search|ask|grep|review|suggest-tests)(\/|$)/.test(pathname);
}

/** Bytes of file text one rate unit of grep pays for (an eighth of GREP_SCAN_MAX_BYTES). */
export const GREP_UNIT_BYTES = 4 * 1024 * 1024;
/** Wall-clock milliseconds one rate unit of grep pays for. */
export const GREP_UNIT_MS = 1_000;
/** Most units one grep costs (a full 32 MiB scan, or about the default 3 s budget and more). */
export const GREP_MAX_UNITS = 8;

/**
 * Rate units one grep costs: one, plus one per GREP_UNIT_BYTES of text verified or per
 * GREP_UNIT_MS taken beyond the first (whichever is more), at most GREP_MAX_UNITS. Pure.
 */
export function grepWorkUnits(bytesScanned: number, tookMs: number): number {
  const units = Math.max(Math.ceil(bytesScanned / GREP_UNIT_BYTES), Math.ceil(tookMs / GREP_UNIT_MS), 1);
  return Math.min(GREP_MAX_UNITS, units);
}

/**
 * Counts `units - 1` more searches against the caller's identity limit: the first unit was
 * counted at the edge (worker/auth/rest-auth.ts, the MCP gate) before the work was known, so a
 * heavy grep spends the identity's window faster and its next call answers 429 sooner. The local
 * admin token is exempt, as in `checkSearchRate`.
 */
export async function chargeExtraWork(env: Env, caller: Caller, units: number): Promise<void> {
  if (caller.kind === "admin-token") return;
  const { identity } = limiters(env);
  for (let i = 1; i < units; i++) await identity.limit({ key: `id:${caller.id}` });
}

/** The 429 answer: JSON error body plus Retry-After (RFC 9110 §10.2.3). */
export function rateLimitedResponse(decision: Extract<RateDecision, { ok: false }>, what = "searches"): Response {
  const who = decision.scope === "ip" ? "this address" : "this identity";
  return errorResponse("rate_limited", `Too many ${what} from ${who}; retry after ${decision.retryAfterSeconds} seconds.`, {
    details: { retryAfterSeconds: decision.retryAfterSeconds },
    headers: { "retry-after": String(decision.retryAfterSeconds) },
  });
}
