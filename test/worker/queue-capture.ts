/**
 * Drives the index queue by hand for workerd tests: the coordinator's queue producer is swapped
 * for a capturing one (on the live instance, via runInDurableObject), so a test decides when and
 * how often each message reaches the real consumer (`handleIndexBatch`), with the real
 * coordinator, D1, git server and pipeline. A coordinator reset (abortAllDurableObjects) drops
 * the swap: the next instance sends to the real queue again.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { RepoCoordinator } from "../../durable-objects/repo-coordinator";
import { handleIndexBatch, type IndexBatchOptions } from "../../indexer/consumer";
import type { IndexJob } from "../../indexer/jobs";
import type { PipelineDeps } from "../../indexer/pipeline";
import { fixtureUrl } from "./ingest-helpers";

/** The coordinator stub of `repo`, typed for runInDurableObject. */
export function coordinatorOf(repo: string): DurableObjectStub<RepoCoordinator> {
  return env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo)) as unknown as DurableObjectStub<RepoCoordinator>;
}

/** Registers `repo` in D1 and starts a job whose queue messages are captured, not delivered. */
export async function startCapturedJob(repo: string): Promise<{ messages: IndexJob[]; jobId: string }> {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO repos (id, name, source_kind, url, ref, status, created_at, updated_at) VALUES (?, ?, 'git', ?, NULL, 'queued', ?, ?)")
    .bind(repo, repo, fixtureUrl(), now, now)
    .run();
  const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(repo));
  const messages: IndexJob[] = [];
  const capture = {
    async send(body: IndexJob) {
      messages.push(body);
    },
    async sendBatch(batch: Iterable<{ body: IndexJob }>) {
      for (const m of batch) messages.push(m.body);
    },
  };
  const job = await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (instance: RepoCoordinator) => {
    const self = instance as unknown as { env: typeof env };
    self.env = { ...self.env, INDEX_QUEUE: capture as unknown as Queue };
    return instance.requestIndex({ repo, sourceKind: "git", url: fixtureUrl(), ref: null });
  });
  // The alarm fetches and plans (bounded poll until the job is indexing).
  for (let i = 0; i < 400 && (await stub.status())?.status !== "indexing"; i++) await new Promise((r) => setTimeout(r, 25));
  expect((await stub.status())?.status).toBe("indexing");
  return { messages, jobId: job.jobId };
}

/** A queue batch of `messages`, each delivered for the `attempts`-th time. */
export function batchOf(messages: IndexJob[], attempts = 1) {
  return createMessageBatch<IndexJob>(
    "codebase-copilot-index",
    messages.map((body, i) => ({ id: `m${i}-${attempts}`, timestamp: Date.now(), attempts, body })),
  );
}

/** Delivers `messages` to the real consumer as one queue batch (`attempts`: the delivery count); returns what it acked and retried. */
export async function deliver(messages: IndexJob[], deps?: PipelineDeps, attempts = 1, options?: IndexBatchOptions) {
  const batch = batchOf(messages, attempts);
  const ctx = createExecutionContext();
  await handleIndexBatch(batch, env, deps, options);
  return getQueueResult(batch, ctx);
}
