/**
 * @module indexer/jobs
 *
 * The queue message format between the RepoCoordinator (producer) and the consumer. Messages
 * only carry ids (the files of a batch are staged in the coordinator), so they stay far below
 * the 128 KB Queues limit. Messages can outlive a deploy, hence the version field.
 *
 * Versions:
 *   1: `{v: 1, repo, jobId, batchId}`.
 */
import { z } from "zod";

/** Current message version. */
export const INDEX_JOB_VERSION = 1;

const indexJobSchema = z.object({
  v: z.literal(INDEX_JOB_VERSION),
  repo: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/),
  jobId: z.string().min(1).max(64),
  batchId: z.number().int().nonnegative(),
});

/** One queued batch of a repo's index job. */
export type IndexJob = z.infer<typeof indexJobSchema>;

/** Thrown for a message that is not a valid `IndexJob` (permanent: retrying cannot help). */
export class IndexJobParseError extends Error {
  override name = "IndexJobParseError";
}

/** Parses a queue message body. Throws `IndexJobParseError` naming the field that failed. */
export function parseIndexJob(body: unknown): IndexJob {
  const r = indexJobSchema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new IndexJobParseError(`invalid index job message: ${issue?.path.join(".") || "(body)"}: ${issue?.message}`);
}

/** Builds a message body. */
export function indexJob(repo: string, jobId: string, batchId: number): IndexJob {
  return { v: INDEX_JOB_VERSION, repo, jobId, batchId };
}
