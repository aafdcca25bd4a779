/**
 * Queue delivery semantics, driven by hand (test/worker/queue-capture.ts): the test decides when
 * and how often each message reaches the real consumer, with the real coordinator, D1, git
 * server and pipeline. A consumer that dies mid-batch and a restart: ingest-batch-crash.test.ts.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../durable-objects/clock";
import { BATCH_HEARTBEAT_MS } from "../../kernel/coordinator";
import { BATCH_LEASE_MS, type RepoCoordinator } from "../../durable-objects/repo-coordinator";
import type { IndexJob } from "../../indexer/jobs";
import { createPipelineDeps, indexFiles, type PipelineDeps } from "../../indexer/pipeline";
import { loadConfig } from "../../kernel/env";
import { fixtureUrl, indexShape, registerAndWait, repoStatus } from "./ingest-helpers";
import { deliver, startCapturedJob } from "./queue-capture";

describe("queue consumer", () => {
  it("a batch delivered twice (the first time dying before its ack) leaves the rows of a clean run", async () => {
    const clean = await registerAndWait({ url: fixtureUrl(), name: "q-clean-1" });
    expect(clean.status).toBe("ready");

    const { messages, jobId } = await startCapturedJob("q-twice");
    expect(messages).toEqual([{ v: 1, repo: "q-twice", jobId, batchId: 0 }]);
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("q-twice"));
    // First delivery: the pipeline writes everything, then the consumer dies before acking.
    // 8 files: the fixture force-adds two files its .gitignore matches; git indexes tracked files.
    const files = await stub.batchFiles(jobId, 0);
    expect(files?.length).toBe(8);
    const deps = await createPipelineDeps(env, loadConfig(env), "q-twice");
    await indexFiles(deps, "q-twice", files!);
    expect((await repoStatus("q-twice")).status).toBe("indexing");
    // Redelivery: written again, acked; then the same message once more (acked, no work).
    const r1 = await deliver([messages[0]!, messages[0]!], deps, 2);
    expect(r1.explicitAcks.sort()).toEqual(["m0-2", "m1-2"]);
    expect(r1.retryMessages).toEqual([]);
    const done = await repoStatus("q-twice");
    expect(done.status).toBe("ready");
    expect(done.progress).toMatchObject({ filesQueued: 8, filesDone: 8 });
    expect(await indexShape("q-twice")).toEqual(await indexShape("q-clean-1"));
  });

  it("a batch waiting in a long queue is not re-sent; a taken batch keeps its lease while its consumer heartbeats", async () => {
    const { messages, jobId } = await startCapturedJob("q-lease");
    expect(messages).toHaveLength(1);
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("q-lease"));
    const sentAt = Date.now();
    const clock = new ManualClock(sentAt + 60_000);
    await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (instance: RepoCoordinator) => {
      instance.clock = clock;
    });
    // An alarm far enough ahead that it never fires on its own: runDurableObjectAlarm runs it now.
    const check = async () => {
      await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (_i, state) => state.storage.setAlarm(Date.now() + 60_000));
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    };
    // A minute in the queue (a 45 s re-send used to fire here and pile duplicates on the queue).
    await check();
    expect(messages).toHaveLength(1);
    // A consumer takes it after 9 minutes and heartbeats for two minutes: past the queue wait
    // since the send, and far past the lease since the take, it is not sent again.
    clock.set(sentAt + 9 * 60_000);
    expect(await stub.batchFiles(jobId, 0)).toHaveLength(8);
    for (let t = 9 * 60_000; t <= 11 * 60_000; t += BATCH_HEARTBEAT_MS) {
      clock.set(sentAt + t);
      expect(await stub.renewBatch(jobId, 0)).toBe(true);
    }
    await check();
    expect(messages).toHaveLength(1);
    expect((await stub.status())?.waiting ?? null).toBeNull();
    // The consumer went silent: once the lease runs out the batch is sent again, and that delivery completes the job.
    clock.set(sentAt + 11 * 60_000 + BATCH_LEASE_MS + 1000);
    expect((await stub.status())?.waiting?.reason).toMatch(/1 batch was not acknowledged/);
    await check();
    expect(messages).toEqual([messages[0], { v: 1, repo: "q-lease", jobId, batchId: 0 }]);
    await deliver([messages[1]!]);
    expect((await repoStatus("q-lease")).status).toBe("ready");
    // A late heartbeat of the settled batch tells its consumer to stop.
    expect(await stub.renewBatch(jobId, 0)).toBe(false);
  });

  it("a consumer that throws once is retried with a delay, and the final index equals a clean run", async () => {
    const clean = await registerAndWait({ url: fixtureUrl(), name: "q-clean-2" });
    expect(clean.status).toBe("ready");

    const { messages } = await startCapturedJob("q-retry");
    const real = await createPipelineDeps(env, loadConfig(env), "q-retry");
    let calls = 0;
    const flaky: PipelineDeps = {
      ...real,
      embedder: {
        model: real.embedder.model,
        dimensions: real.embedder.dimensions,
        lexical: real.embedder.lexical,
        maxBatch: real.embedder.maxBatch,
        async embed(texts, kind) {
          calls += 1;
          if (calls === 1) throw new Error("embedding backend unavailable (injected)");
          return real.embedder.embed(texts, kind);
        },
      },
    };
    const first = await deliver(messages, flaky, 1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(["m0-1"]);
    const mid = await repoStatus("q-retry");
    expect(mid.status).toBe("indexing");
    expect(mid.snapshot).toBeNull(); // nothing visible from the failed attempt

    const second = await deliver(messages, flaky, 2);
    expect(second.explicitAcks).toEqual(["m0-2"]);
    const done = await repoStatus("q-retry");
    expect(done.status).toBe("ready");
    expect(await indexShape("q-retry")).toEqual(await indexShape("q-clean-2"));
  });

  it("a batch that keeps failing is acked after the last attempt and counted as index_failed", async () => {
    const { messages } = await startCapturedJob("q-give-up");
    const real = await createPipelineDeps(env, loadConfig(env), "q-give-up");
    const db = new Proxy(real.db, {
      get: (target, key) => (key === "batch" ? async () => Promise.reject(new Error("D1 down (injected)")) : Reflect.get(target, key).bind(target)),
    });
    const broken: PipelineDeps = { ...real, db };
    const r = await deliver(messages, broken, 5);
    expect(r.explicitAcks).toEqual(["m0-5"]);
    const s = await repoStatus("q-give-up");
    expect(s.status).toBe("ready");
    expect(s.skipped.index_failed).toBe(8);
    expect(s.snapshot?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await indexShape("q-give-up")).toMatchObject({ files: [], chunks: [], vectors: 0 });
  });

  it("drops malformed messages instead of retrying them forever", async () => {
    const r = await deliver([{ v: 2, repo: "x" } as unknown as IndexJob]);
    expect(r.explicitAcks).toEqual(["m0-1"]);
    expect(r.retryMessages).toEqual([]);
  });
});
