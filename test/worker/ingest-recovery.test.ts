/**
 * A coordinator whose isolate died mid-fetch: the job is left `fetching` with no fetch running.
 * The alarm set before every fetch must run the fetch again and complete the job.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newJob, nextState } from "../../durable-objects/job-state";
import * as ledger from "../../durable-objects/ledger";
import { FETCH_HEARTBEAT_MS, FETCH_MAX_ATTEMPTS, type RepoCoordinator } from "../../durable-objects/repo-coordinator";
import { fixtureUrl, indexShape, registerAndWait, waitForJob } from "./ingest-helpers";

describe("coordinator recovery", () => {
  it("re-runs a fetch lost with its isolate, and the index equals a clean run", async () => {
    const repo = "lost-fetch";
    const now = Date.now();
    await env.DB.prepare("INSERT INTO repos (id, name, source_kind, url, ref, status, created_at, updated_at) VALUES (?, ?, 'git', ?, NULL, 'fetching', ?, ?)")
      .bind(repo, repo, fixtureUrl(), now, now)
      .run();
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo));
    // The state a reset isolate leaves behind: settings stored, job `fetching`, no fetch running.
    const jobId = await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (_instance: RepoCoordinator, state) => {
      ledger.migrateLedger(state.storage.sql);
      ledger.putValue(state.storage.sql, "repo", { repo, sourceKind: "git", url: fixtureUrl(), ref: null });
      const job = nextState(newJob("lost-job", "git", null, now), { type: "fetch_started" }, now);
      ledger.putValue(state.storage.sql, "job", job);
      // The safety alarm the coordinator sets before every fetch.
      await state.storage.setAlarm(now + FETCH_HEARTBEAT_MS);
      return job.jobId;
    });
    expect((await stub.status())?.status).toBe("fetching");

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const done = await waitForJob(repo, jobId);
    expect(done.status).toBe("ready");

    const clean = await registerAndWait({ url: fixtureUrl(), name: "lost-fetch-clean" });
    expect(clean.status).toBe("ready");
    expect(await indexShape(repo)).toEqual(await indexShape("lost-fetch-clean"));
  });

  it("fails the job, keeping the old state, after FETCH_MAX_ATTEMPTS lost fetches", async () => {
    const repo = "lost-fetch-often";
    const now = Date.now();
    await env.DB.prepare("INSERT INTO repos (id, name, source_kind, url, ref, status, created_at, updated_at) VALUES (?, ?, 'git', ?, NULL, 'fetching', ?, ?)")
      .bind(repo, repo, fixtureUrl(), now, now)
      .run();
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo));
    await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (_instance: RepoCoordinator, state) => {
      ledger.migrateLedger(state.storage.sql);
      ledger.putValue(state.storage.sql, "repo", { repo, sourceKind: "git", url: fixtureUrl(), ref: null });
      ledger.putValue(state.storage.sql, "job", nextState(newJob("lost-often", "git", null, now), { type: "fetch_started" }, now));
      ledger.putValue(state.storage.sql, "fetchAttempts", FETCH_MAX_ATTEMPTS);
      await state.storage.setAlarm(now + FETCH_HEARTBEAT_MS);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const status = await stub.status();
    expect(status?.status).toBe("failed");
    expect(status?.lastError).toMatch(/lost 3 times/);
  });
});
