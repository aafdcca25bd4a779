/**
 * The Cron Trigger's last and next tick, as `/api/health/schedule` reports them: recorded by the
 * Worker's `scheduled` handler (the one wrangler's `/__scheduled` runs under `npm start`), the
 * next one read from the cron expression in UTC.
 */
import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { nextTick } from "../../worker/schedule/ticks";

async function health(): Promise<{ schedule: { cron: string; lastTickAt: number; nextTickAt: number | null } | null }> {
  const res = await SELF.fetch("http://localhost/api/health/schedule");
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe("scheduled ticks in /api/health/schedule (public, as /api/health)", () => {
  it("is null before the first tick, then shows the last tick and the next one", async () => {
    expect(await health()).toEqual({ schedule: null });
    const at = Date.now() - 60_000;
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const { schedule } = await health();
    expect(schedule?.cron).toBe("*/5 * * * *");
    expect(schedule?.lastTickAt).toBe(at);
    const next = schedule?.nextTickAt ?? 0;
    expect(next).toBeGreaterThan(Date.now() - 1000);
    expect(next - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    expect(new Date(next).getUTCMinutes() % 5).toBe(0);
    expect(new Date(next).getUTCSeconds()).toBe(0);
  });

  it("reads the next tick in UTC and gives null for no expression", () => {
    expect(nextTick("0 3 * * *", Date.UTC(2026, 0, 1, 4, 0))).toBe(Date.UTC(2026, 0, 2, 3, 0));
    expect(nextTick("", Date.now())).toBeNull();
    expect(nextTick("not a cron", Date.now())).toBeNull();
  });
});
