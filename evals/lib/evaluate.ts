/**
 * @module evals/lib/evaluate
 *
 * The runtime-neutral core of the harness (no Node APIs, so the workerd CI test runs it too):
 * index a corpus through the product, then ask a retrieval set's questions and score them.
 */
import { buildTarGz, type CorpusFile } from "./archive.ts";
import { ApiClient, waitUntilIndexed, type RepoStatus, type WaitOptions } from "./client.ts";
import { buildRetrievalReport, scoreQuestion, type QuestionOutcome, type RetrievalReport } from "./metrics.ts";
import type { RetrievalSet, SearchHit, SearchResponse, SearchVariant } from "./types.ts";

/** Result of indexing a corpus through the product. */
export interface IndexRun {
  repo: string;
  files: number;
  archiveBytes: number;
  /** Upload to ready, wall time. */
  wallMs: number;
  /** The upload request alone (the server reads the archive and plans the job before answering). */
  uploadMs: number;
  status: RepoStatus;
}

/**
 * Uploads `files` as a tar.gz to `POST /api/repos/{repo}/archive` and waits for the job it
 * started. The job is recognised by the `job.id` the upload returns when the server sends one;
 * otherwise the first `ready` status after the upload counts.
 */
export async function indexCorpus(client: ApiClient, repo: string, files: CorpusFile[], wait: WaitOptions = {}): Promise<IndexRun> {
  const tarGz = await buildTarGz(files);
  const started = Date.now();
  const upload = await client.uploadArchive(repo, tarGz);
  const uploadMs = Date.now() - started;
  const jobId = jobIdOf(upload);
  const status = await waitUntilIndexed(client, repo, {
    ...wait,
    isDone: wait.isDone ?? ((s) => s.status === "ready" && (jobId === undefined || jobIdOf(s) === undefined || jobIdOf(s) === jobId)),
  });
  return { repo, files: files.length, archiveBytes: tarGz.byteLength, wallMs: Date.now() - started, uploadMs, status };
}

/** The job id in an upload response or a status (`job.id` or `jobId`), if any. */
export function jobIdOf(body: Record<string, unknown>): string | undefined {
  const job = body.job as { id?: unknown } | undefined;
  const id = job?.id ?? body.jobId;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** Options of `runRetrievalSet`. */
export interface RetrievalRunOptions {
  k?: number;
  variant?: SearchVariant;
  onQuestion?: (outcome: QuestionOutcome, results: SearchHit[], response: SearchResponse) => void;
}

/** Per-question detail kept in the JSON output (for error analysis). */
export interface QuestionDetail extends QuestionOutcome {
  top: { path: string; startLine: number; endLine: number; symbol?: string | null }[];
  confidence?: unknown;
}

/** Asks every question of `set` against `repo` and scores the answers. Sequential, so latencies do not interfere. */
export async function runRetrievalSet(
  client: ApiClient,
  set: RetrievalSet,
  repo: string,
  options: RetrievalRunOptions = {},
): Promise<{ report: RetrievalReport; details: QuestionDetail[] }> {
  const details: QuestionDetail[] = [];
  for (const q of set.questions) {
    const { response, latencyMs } = await client.search({ query: q.question, repo, k: options.k ?? 10, variant: options.variant });
    const results = response.results ?? [];
    const outcome = scoreQuestion(q, results, response.confidence?.level === "low", latencyMs);
    options.onQuestion?.(outcome, results, response);
    details.push({
      ...outcome,
      top: results.slice(0, 10).map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine, symbol: r.symbol })),
      confidence: response.confidence,
    });
  }
  return { report: buildRetrievalReport(details), details };
}
