/**
 * @module indexer/consumer
 *
 * The index queue's consumer. Per message `{v: 1, repo, jobId, batchId}`: fetch the batch's
 * files from the repo's coordinator, run the pipeline, acknowledge to the coordinator, ack the
 * message. Transient errors (D1, embedding, vector store) retry the message with a growing
 * delay; a malformed message, or one that keeps failing, is acked after the coordinator is told
 * (its files then count as skipped `index_failed`), so one bad batch never blocks a job.
 *
 * While a batch is indexed, the consumer renews its lease on the coordinator every
 * `BATCH_HEARTBEAT_MS`; if the consumer dies (a crash, a killed runtime), the heartbeats stop
 * and the coordinator sends the batch again within seconds (durable-objects/batch-lease.ts).
 *
 * Idempotent: a message delivered twice writes the same rows (the pipeline replaces what a file
 * version wrote), and the coordinator ignores a second acknowledgement. A message of a deleted
 * repo writes nothing (its coordinator has no files to give), and a batch whose repo is deleted
 * while it is indexed removes the repo's rows it wrote into its shard after the delete.
 */
import { BATCH_HEARTBEAT_MS } from "../kernel/coordinator";
import { loadConfig, type Env } from "../kernel/env";
import { IndexJobParseError, parseIndexJob } from "./jobs";
import { createPipelineDeps, indexFiles, type PipelineDeps } from "./pipeline";
import { deleteRepoData } from "./store/d1/snapshots";

/** Deliveries of a message before its batch is given up on (wrangler.toml `max_retries` is 5, i.e. 6 deliveries). */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Retry delay: 2^attempts seconds, capped (s). */
export const MAX_RETRY_DELAY_SECONDS = 60;

/** Retry delay in seconds for the n-th failed delivery (1-based): 2, 4, 8, ... capped at 60. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, 2 ** Math.max(1, attempts));
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Options of `handleIndexBatch`. */
export interface IndexBatchOptions {
  /** How often the lease of a batch being indexed is renewed (ms); default `BATCH_HEARTBEAT_MS`. */
  heartbeatMs?: number;
}

/**
 * Handles one queue batch. `deps` defaults to the configured embedder and the D1 and vector
 * store of each message's repo's shard; tests pass their own to inject failures.
 */
export async function handleIndexBatch(batch: MessageBatch<unknown>, env: Env, deps?: PipelineDeps, options: IndexBatchOptions = {}): Promise<void> {
  const pipeline = deps ?? ((repo: string) => createPipelineDeps(env, loadConfig(env), repo));
  const heartbeatMs = options.heartbeatMs ?? BATCH_HEARTBEAT_MS;
  // Messages run concurrently: one batch's D1 writes overlap the next one's chunking and embedding.
  await Promise.all(batch.messages.map((message) => handleMessage(message, env, pipeline, heartbeatMs)));
}

/**
 * Runs `work` while calling `beat` every `intervalMs`. A failed beat is only logged: the work
 * goes on, and at worst the coordinator sends the batch again (a harmless duplicate).
 */
async function withHeartbeat<T>(beat: () => Promise<unknown>, intervalMs: number, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    beat().catch((err: unknown) => console.warn("index batch heartbeat failed", describe(err)));
  }, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** One message: index the batch it names and ack, or retry / give up (see module note). */
async function handleMessage(
  message: Message<unknown>,
  env: Env,
  pipeline: PipelineDeps | ((repo: string) => Promise<PipelineDeps>),
  heartbeatMs: number,
): Promise<void> {
  let job;
  try {
    job = parseIndexJob(message.body);
  } catch (err) {
    // A message from an incompatible producer: nothing can be retried, nobody to tell.
    console.error("dropping index message", describe(err));
    message.ack();
    return;
  }
  const coordinator = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(job.repo));
  try {
    const files = await coordinator.batchFiles(job.jobId, job.batchId);
    if (files) {
      const { jobId, batchId } = job;
      const deps = typeof pipeline === "function" ? await pipeline(job.repo) : pipeline;
      const result = await withHeartbeat(
        () => coordinator.renewBatch(jobId, batchId),
        heartbeatMs,
        () => indexFiles(deps, job.repo, files),
      );
      const settled = await coordinator.ackBatch(jobId, batchId, result);
      // No job at all: the repo was deleted while this batch was indexed (removeRepo destroys
      // the coordinator first), so what it wrote after the delete must go too.
      if (!settled && (await coordinator.status()) === null) await deleteRepoData(deps.db, deps.vectors, job.repo);
    }
    message.ack();
  } catch (err) {
    const permanent = err instanceof IndexJobParseError || message.attempts >= MAX_DELIVERY_ATTEMPTS;
    if (!permanent) {
      console.warn(`index batch ${job.repo}/${job.jobId}/${job.batchId} failed (attempt ${message.attempts}); retrying`, describe(err));
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      return;
    }
    try {
      await coordinator.failBatch(job.jobId, job.batchId, describe(err));
      message.ack();
    } catch (reportErr) {
      // The coordinator is unreachable too: let the queue retry (or dead-letter) the message.
      console.error("could not report a failed batch", describe(reportErr));
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}
