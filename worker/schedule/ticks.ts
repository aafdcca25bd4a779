/**
 * @module worker/schedule/ticks
 *
 * When the Cron Trigger last ran and when it runs next, for `/api/health/schedule` and the CLI's
 * `status`: the scheduled handler records each tick (D1 `schedule_ticks`, one row per cron
 * expression; migration 0019) and the next tick is read from the cron expression (croner;
 * Cloudflare runs crons in UTC). Under `npm start`, wrangler fires no cron by itself: the
 * local ticker (bin/lib/schedule-ticker.ts) calls `/__scheduled` at the same times.
 */
import { Cron } from "croner";
import type { Env } from "../../kernel/env";

/** The last tick and the next, times in ms since epoch; null before the first tick. */
export interface ScheduleTicks {
  cron: string;
  lastTickAt: number;
  /** Next time `cron` fires after now; null when the expression never fires again. */
  nextTickAt: number | null;
}

/** Records a tick of `cron` at `at` (ms). A missing cron (a bare `/__scheduled`) is stored as "". */
export async function recordTick(env: Pick<Env, "DB">, cron: string, at: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO schedule_ticks (cron, last_tick_at) VALUES (?, ?) ON CONFLICT (cron) DO UPDATE SET last_tick_at = MAX(last_tick_at, excluded.last_tick_at)",
  )
    .bind(cron, at)
    .run();
}

/** The next time `cron` fires after `now` (ms, UTC), or null for an empty or invalid expression. */
export function nextTick(cron: string, now: number): number | null {
  if (!cron) return null;
  try {
    return new Cron(cron, { paused: true, utcOffset: 0 }).nextRun(new Date(now))?.getTime() ?? null;
  } catch {
    return null;
  }
}

/** The most recent tick and the next, or null when no tick ran yet. */
export async function readTicks(env: Pick<Env, "DB">, now: number): Promise<ScheduleTicks | null> {
  const row = await env.DB.prepare("SELECT cron, last_tick_at FROM schedule_ticks ORDER BY last_tick_at DESC LIMIT 1").first<{
    cron: string;
    last_tick_at: number;
  }>();
  return row ? { cron: row.cron, lastTickAt: row.last_tick_at, nextTickAt: nextTick(row.cron, now) } : null;
}
