/**
 * The Cron Trigger's ref check, run through the Worker's `scheduled` handler: only repos whose
 * remote commit moved re-index, and an unmoved repo costs one ls-remote (`info/refs`) and no
 * pack fetch, as the loopback git server's request log shows.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { api } from "../helpers";
import { registerAndWait, repoStatus } from "./ingest-helpers";
import { createUpstream, pushCommit, requestLog } from "./upstream";

async function tick(at: number): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("scheduled ref check", () => {
  it("re-indexes only the repo whose commit moved, with no fetch for the others", async () => {
    for (const name of ["cron-still", "cron-moved", "cron-off"]) await registerAndWait({ url: (await createUpstream(name)).url, name });
    expect((await api("/api/repos/cron-off/schedule", { method: "PUT", json: { intervalSeconds: 0 } })).status).toBe(200);
    const pushed = await pushCommit("cron-moved", { "src/cron.ts": "export const viaCron = 1;\n" });
    await pushCommit("cron-off", { "src/off.ts": "export const off = 1;\n" });
    const jobs = Object.fromEntries(await Promise.all(["cron-still", "cron-moved", "cron-off"].map(async (n) => [n, (await repoStatus(n)).job?.id] as const)));
    const logBefore = Object.fromEntries(
      await Promise.all(["cron-still", "cron-moved", "cron-off"].map(async (n) => [n, (await requestLog(n)).length] as const)),
    );

    await tick(Date.now());

    const moved = await until("the moved repo's new snapshot", async () => {
      const s = await repoStatus("cron-moved");
      return s.job?.id !== jobs["cron-moved"] && s.status === "ready" && s;
    });
    expect(moved.snapshot?.commit).toBe(pushed);
    const still = await repoStatus("cron-still");
    expect(still.job?.id).toBe(jobs["cron-still"]);
    expect((await requestLog("cron-still")).slice(logBefore["cron-still"]).map((r) => r.kind)).toEqual(["info/refs"]);
    expect((await requestLog("cron-off")).length).toBe(logBefore["cron-off"]);
    expect((await repoStatus("cron-off")).job?.id).toBe(jobs["cron-off"]);

    // Checked just now: the next tick within the interval asks the remotes nothing.
    const after = (await requestLog("cron-still")).length;
    await tick(Date.now() + 60_000);
    expect((await requestLog("cron-still")).length).toBe(after);
    // Past the default interval (1 h) it asks again.
    await tick(Date.now() + 3601_000);
    expect((await requestLog("cron-still")).slice(after).map((r) => r.kind)).toEqual(["info/refs"]);
    const schedule = await (await api("/api/repos/cron-still/schedule")).json();
    expect(schedule).toEqual({ repo: "cron-still", intervalSeconds: null, effectiveSeconds: 3600, lastCheckedAt: expect.any(Number) });
  });

  it("validates the interval and names the field", async () => {
    await registerAndWait({ url: (await createUpstream("cron-bad")).url, name: "cron-bad" });
    const res = await api("/api/repos/cron-bad/schedule", { method: "PUT", json: { intervalSeconds: -5 } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toMatch(/^intervalSeconds: /);
  });
});
