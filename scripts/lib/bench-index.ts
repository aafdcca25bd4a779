/**
 * @module scripts/lib/bench-index
 *
 * One indexing measurement of `npm run bench` (scripts/bench.ts): cold, unchanged or one file
 * changed, by archive upload.
 */
import type { ApiClient } from "../../evals/lib/client.ts";
import type { readCorpus } from "../../evals/lib/corpus-fs.ts";
import { indexCorpus, type IndexRun } from "../../evals/lib/evaluate.ts";
import { SHORT_QUERIES } from "./bench-queries.ts";
import type { IndexStageRun } from "./bench-report.ts";

/**
 * Uploads `files` as repo `repo` and waits for the job; returns its wall time, counts and stages
 * (upload, queued, indexing: the job's own timestamps) and the first search after it (ms).
 */
export async function timedIndex(
  client: ApiClient,
  repo: string,
  label: string,
  files: ReturnType<typeof readCorpus>,
  log: (line: string) => void,
): Promise<IndexStageRun> {
  const run: IndexRun = await indexCorpus(client, repo, files, { pollMs: 100 });
  const progress = (run.status.progress ?? {}) as { filesTotal?: number; filesDone?: number; chunks?: number };
  const job = (run.status.job ?? {}) as { unchanged?: number; requestedAt?: number; startedAt?: number | null; finishedAt?: number | null };
  // Stages: the upload request (the server reads the archive and plans the job before it
  // answers), then the job's own timestamps (server clock): queued until a consumer starts it,
  // indexing until the snapshot flips. Client polling is not used for stages: a status call
  // can wait behind the indexing work, which would blur the boundaries.
  const stageMs: Record<string, number> = { upload: run.uploadMs };
  if (job.requestedAt && job.startedAt) stageMs.queued = job.startedAt - job.requestedAt;
  if (job.startedAt && job.finishedAt) stageMs.indexing = job.finishedAt - job.startedAt;
  const firstSearchMs = (await client.search({ query: SHORT_QUERIES[0], repo, k: 10 })).latencyMs;
  log(
    `${label}: ${run.wallMs} ms, ${progress.filesDone ?? "?"} files processed, ${job.unchanged ?? "?"} unchanged, stages ${JSON.stringify(stageMs)}, first search ${firstSearchMs.toFixed(0)} ms`,
  );
  return {
    label,
    wallMs: run.wallMs,
    uploadedFiles: run.files,
    archiveBytes: run.archiveBytes,
    filesTotal: progress.filesTotal ?? null,
    filesProcessed: progress.filesDone ?? null,
    unchanged: job.unchanged ?? null,
    chunks: progress.chunks ?? null,
    serverJobMs: job.finishedAt && job.requestedAt ? job.finishedAt - job.requestedAt : null,
    stageMs,
    firstSearchMs,
  };
}
