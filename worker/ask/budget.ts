/**
 * @module worker/ask/budget
 *
 * The per-identity daily model budget, a ledger in D1 (`ask_usage`, migrations/0009): tokens
 * (input + output + cache reads + cache writes) and estimated USD spent per caller id per UTC
 * day. `checkBudget` runs before a model call and throws `budget_exhausted` (429, Retry-After =
 * seconds to the next UTC midnight) once the day's tokens reach the limit; `recordUsage` adds a
 * call's usage after it. A soft cap: concurrent asks that pass the check together may overshoot
 * it by at most their own usage.
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
