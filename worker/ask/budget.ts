/**
 * @module worker/ask/budget
 *
 * The per-identity daily model budget, a ledger in D1 (`ask_usage`, migrations/0009): tokens
 * (input + output + cache reads + cache writes) and estimated USD spent per caller id per UTC
 * day. `reserveBudget` runs before a model call: one conditional upsert adds the call's estimated
 * tokens while the day's tokens (reservations included) are under the limit, else throws
 * `budget_exhausted` (429, Retry-After = seconds to the next UTC midnight). `recordUsage` adds
 * each model call's actual usage and `settle` takes the reservation back, so the row ends at the
 * actual usage. Being one statement, the reservation is atomic: concurrent asks cannot all pass
 * a check that none of them has spent yet (issue #43: 10 concurrent asks used 2.0 M tokens of a
 * 300 k budget). The cap is soft by at most one reservation plus that call's excess over its
 * estimate. A reservation never settled (the isolate died mid-call) stays counted until the day
 * ends: the safe side.
 */
import { CodeSearchError } from "../../kernel/errors";
import type { TokenUsage } from "../../kernel/generation";

const DAY_MS = 86_400_000;

/** The UTC day of `nowMs` as YYYY-MM-DD. */
export function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Whole seconds from `nowMs` to the next UTC midnight (at least 1). */
export function secondsToNextUtcDay(nowMs: number): number {
  return Math.max(1, Math.ceil((Math.floor(nowMs / DAY_MS + 1) * DAY_MS - nowMs) / 1000));
}

/** Tokens the day's budget counts for `usage`. */
export function budgetTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** Tokens `identity` spent on the UTC day of `nowMs`. */
export async function spentToday(db: D1Database, identity: string, nowMs: number): Promise<number> {
  const row = await db.prepare("SELECT tokens FROM ask_usage WHERE identity = ?1 AND day = ?2").bind(identity, utcDay(nowMs)).first<{ tokens: number }>();
  return row?.tokens ?? 0;
}

/** Throws `budget_exhausted` when `identity` has spent `limitTokens` or more today. */
export async function checkBudget(db: D1Database, identity: string, nowMs: number, limitTokens: number): Promise<void> {
  const spent = await spentToday(db, identity, nowMs);
  if (spent < limitTokens) return;
  const retryAfterSeconds = secondsToNextUtcDay(nowMs);
  throw new CodeSearchError(
    "budget_exhausted",
    `Today's model budget for this identity is spent (${spent} of ${limitTokens} tokens); it resets at 00:00 UTC, in ${retryAfterSeconds} s. Search still works (POST /api/search).`,
    { retryAfterSeconds, spentTokens: spent, limitTokens },
  );
}

/** Tokens held for a call until `settle`: on the UTC day they were taken from. */
export interface Reservation {
  identity: string;
  day: string;
  tokens: number;
}

/**
 * Reserves `estimateTokens` of `identity`'s day if the day's tokens are below `limitTokens`
 * (one conditional upsert), else throws `budget_exhausted` with retryAfterSeconds.
 */
export async function reserveBudget(db: D1Database, identity: string, nowMs: number, limitTokens: number, estimateTokens: number): Promise<Reservation> {
  const day = utcDay(nowMs);
  const tokens = Math.max(0, Math.ceil(estimateTokens));
  const r = await db
    .prepare(
      "INSERT INTO ask_usage (identity, day, tokens, cost_usd, calls) VALUES (?1, ?2, ?3, 0, 0) " +
        "ON CONFLICT (identity, day) DO UPDATE SET tokens = tokens + excluded.tokens WHERE ask_usage.tokens < ?4",
    )
    .bind(identity, day, tokens, limitTokens)
    .run();
  if (r.meta.changes > 0) return { identity, day, tokens };
  const spent = await spentToday(db, identity, nowMs);
  const retryAfterSeconds = secondsToNextUtcDay(nowMs);
  throw new CodeSearchError(
    "budget_exhausted",
    `Today's model budget for this identity is spent (${spent} of ${limitTokens} tokens, reservations of calls in progress included); it resets at 00:00 UTC, in ${retryAfterSeconds} s. Search still works (POST /api/search).`,
    { retryAfterSeconds, spentTokens: spent, limitTokens },
  );
}

/** Takes a reservation back (the calls' actual usage is recorded by `recordUsage`). Idempotent per reservation object. */
export async function settle(db: D1Database, reservation: Reservation): Promise<void> {
  if (reservation.tokens <= 0) return;
  const tokens = reservation.tokens;
  reservation.tokens = 0;
  await db
    .prepare("UPDATE ask_usage SET tokens = MAX(0, tokens - ?3) WHERE identity = ?1 AND day = ?2")
    .bind(reservation.identity, reservation.day, tokens)
    .run();
}

/** Adds one call's usage to `identity`'s ledger row of the day (upsert). */
export async function recordUsage(db: D1Database, identity: string, nowMs: number, usage: TokenUsage, costUsd: number | null): Promise<void> {
  await db
    .prepare(
      "INSERT INTO ask_usage (identity, day, tokens, cost_usd, calls) VALUES (?1, ?2, ?3, ?4, 1) " +
        "ON CONFLICT (identity, day) DO UPDATE SET tokens = tokens + excluded.tokens, cost_usd = cost_usd + excluded.cost_usd, calls = calls + 1",
    )
    .bind(identity, utcDay(nowMs), budgetTokens(usage), costUsd ?? 0)
    .run();
}
