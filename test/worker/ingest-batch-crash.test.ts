/**
 * Recovery of an index job whose queue consumer dies mid-batch, or whose runtime restarts: the
 * batch is sent again within the short lease (about 20 s without a heartbeat; it was 5 minutes),
 * the status says the job waits from the first missed heartbeat, and batches sent before a
 * restart and not taken are sent again at once (a local queue loses its messages with the
 * runtime; they used to wait 10 minutes). The last test really resets the coordinators
 * (`abortAllDurableObjects`); this file has its own Durable Objects, so nothing else is touched.
 */
import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../durable-objects/clock";
import * as ledger from "../../durable-objects/ledger";
import { BATCH_BEAT_MISSED_MS, BATCH_LEASE_MS, type RepoCoordinator } from "../../durable-objects/repo-coordinator";
import { createPipelineDeps, indexFiles, type PipelineDeps } from "../../indexer/pipeline";
import { loadConfig } from "../../kernel/env";
import { fixtureUrl, indexShape, registerAndWait, repoStatus, waitForJob } from "./ingest-helpers";
import { coordinatorOf, deliver, startCapturedJob } from "./queue-capture";

/** Runs the coordinator's alarm now (its own alarm is moved far ahead so it never fires on its own). */
async function runAlarm(repo: string): Promise<void> {
  const stub = coordinatorOf(repo);
  await runInDurableObject(stub, async (_i, state) => state.storage.setAlarm(Date.now() + 60_000));
  expect(await runDurableObjectAlarm(stub)).toBe(true);
}

/** When the coordinator last saw a consumer take or renew batch 0 of `jobId` (ms; 0: never). */
async function leaseOf(repo: string, jobId: string): Promise<number> {
  return runInDurableObject(coordinatorOf(repo), async (_i, state) => ledger.getBatch(state.storage.sql, jobId, 0)?.startedAt ?? -1);
}

describe("a consumer that dies mid-batch", () => {
  it("has its batch sent again once the lease goes BATCH_LEASE_MS without a heartbeat, and the index equals a clean run", async () => {
    const clean = await registerAndWait({ url: fixtureUrl(), name: "crash-clean" });
    expect(clean.status).toBe("ready");
    const { messages, jobId } = await startCapturedJob("crash-batch");
    expect(messages).toHaveLength(1);
    const stub = coordinatorOf("crash-batch");
    const clock = new ManualClock(Date.now());
    await runInDurableObject(stub, async (instance: RepoCoordinator) => {
      instance.clock = clock;
    });
    const takenAt = clock.now();
    // The consumer takes the batch, writes part of it, and dies: no heartbeat, no ack.
    const files = await stub.batchFiles(jobId, 0);
    expect(files).toHaveLength(8);
    await indexFiles(await createPipelineDeps(env, loadConfig(env), "crash-batch"), "crash-batch", files!.slice(0, 3));
    expect((await stub.status())?.waiting ?? null).toBeNull();

    // From the first missed heartbeat, the status says what the job waits for and when it goes on.
    clock.set(takenAt + BATCH_BEAT_MISSED_MS + 1);
    const waiting = (await repoStatus("crash-batch")).waiting;
    expect(waiting?.reason).toMatch(/1 batch was not acknowledged; waiting to send again/);
    expect(waiting?.retryAt).toBe(takenAt + BATCH_LEASE_MS);
    await runAlarm("crash-batch");
    expect(messages).toHaveLength(1); // the lease still runs

    clock.set(takenAt + BATCH_LEASE_MS + 1);
    await runAlarm("crash-batch");
    expect(messages).toEqual([messages[0], { v: 1, repo: "crash-batch", jobId, batchId: 0 }]);
    expect(BATCH_LEASE_MS).toBeLessThanOrEqual(20_000);

    const r = await deliver([messages[1]!]);
    expect(r.explicitAcks).toEqual(["m0-1"]);
    const done = await repoStatus("crash-batch");
    expect(done.status).toBe("ready");
    expect(done.waiting).toBeNull();
    expect(await indexShape("crash-batch")).toEqual(await indexShape("crash-clean"));
  });

  it("renews the lease while it works, so a slow batch is not sent again", async () => {
    const { messages, jobId } = await startCapturedJob("slow-batch");
    const real = await createPipelineDeps(env, loadConfig(env), "slow-batch");
    const renewals: number[] = [];
    // An embedder that only answers once the coordinator has seen two heartbeats since the take.
    const slow: PipelineDeps = {
      ...real,
      embedder: {
        model: real.embedder.model,
        dimensions: real.embedder.dimensions,
        lexical: real.embedder.lexical,
        maxBatch: real.embedder.maxBatch,
        async embed(texts, kind) {
          for (let i = 0; i < 400 && renewals.length < 3; i++) {
            const at = await leaseOf("slow-batch", jobId);
            if (renewals.at(-1) !== at) renewals.push(at);
            await new Promise((r) => setTimeout(r, 10));
          }
          return real.embedder.embed(texts, kind);
        },
      },
    };
    const r = await deliver(messages, slow, 1, { heartbeatMs: 20 });
    expect(r.explicitAcks).toEqual(["m0-1"]);
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(renewals[2]!).toBeGreaterThan(renewals[0]!);
    expect((await repoStatus("slow-batch")).status).toBe("ready");
    expect(messages).toHaveLength(1);
  });
});

describe("a restart mid-index", () => {
  it("sends a batch that was sent before the restart and not taken again at once, saying so meanwhile", async () => {
    const { messages, jobId } = await startCapturedJob("crash-restart");
    expect(messages).toHaveLength(1);
    expect((await coordinatorOf("crash-restart").status())?.waiting ?? null).toBeNull();
    // Its own stall alarm must not fire first: the test runs the first alarm after the restart itself.
    await runInDurableObject(coordinatorOf("crash-restart"), async (_i, state) => state.storage.setAlarm(Date.now() + 60_000));

    // The runtime restarts: the coordinator instance (and, locally, the queue's messages) are gone.
    await abortAllDurableObjects();
    const stuck = await repoStatus("crash-restart");
    expect(stuck.status).toBe("indexing");
    expect(stuck.waiting?.reason).toMatch(/1 batch was not acknowledged; waiting to send again/);

    // The first alarm after the restart sends it again, to the real queue this time.
    await runAlarm("crash-restart");
    const done = await waitForJob("crash-restart", jobId);
    expect(done.status).toBe("ready");
    expect(done.progress).toMatchObject({ filesQueued: 8, filesDone: 8 });
    expect(done.waiting).toBeNull();
  });
});
