/**
 * A fetch lost with its isolate resumes within a minute, and meanwhile the status says the job
 * is waiting and until when. The isolate is really reset (`abortAllDurableObjects`) while the
 * loopback git server holds the job's pack fetch; this file has its own Durable Objects, so the
 * reset touches nothing else.
 */
import { abortAllDurableObjects, env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";
import { registerAndWait, repoStatus } from "./ingest-helpers";
import { createUpstream, hold, pushCommit, release, requestLog } from "./upstream";

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const packFetches = async (name: string) => (await requestLog(name)).filter((r) => r.kind === "upload-pack").length;

describe("crash during a fetch", () => {
  it("says it is waiting to retry, retries within 60 s, and ends at the new commit", async () => {
    const up = await createUpstream("crash");
    await registerAndWait({ url: up.url, name: "crash" });
    const pushed = await pushCommit("crash", { "src/after-crash.ts": "export function afterCrash() { return 1; }\n" });
    await hold("crash", "upload-pack");
    const before = await packFetches("crash");
    const res = await api("/api/repos/crash/refresh", { method: "POST", json: {} });
    const jobId = ((await res.json()) as { repo: RepoStatus }).repo.job!.id;
    const fetchingSince = Date.now();
    await until("the pack fetch", async () => (await packFetches("crash")) > before);

    const live = await repoStatus("crash");
    expect(live.status).toBe("fetching");
    expect(live.waiting).toBeNull(); // the fetch is running in this instance

    await abortAllDurableObjects();
    const stuck = await repoStatus("crash");
    expect(stuck.status).toBe("fetching");
    expect(stuck.job?.id).toBe(jobId);
    expect(stuck.waiting?.reason).toMatch(/interrupted.*waiting to retry/);
    expect(stuck.waiting!.retryAt - fetchingSince).toBeLessThanOrEqual(60_000);
    expect(stuck.waiting!.retryAt).toBeGreaterThanOrEqual(fetchingSince);

    await release("crash");
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("crash"));
    // Runs the alarm the coordinator set before the fetch (due at retryAt) without waiting for it.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const done = await until("the retried job", async () => {
      const s = await repoStatus("crash");
      return (s.status === "ready" || s.status === "failed") && s;
    });
    expect(done.job?.id).toBe(jobId);
    expect(done.status).toBe("ready");
    expect(done.snapshot?.commit).toBe(pushed);
    expect(done.waiting).toBeNull();
  });
});
