/**
 * @module kernel/coordinator
 *
 * The RepoCoordinator's RPC contract: the interface the `REPO_COORDINATOR` binding is typed
 * with (kernel/env.ts) and the plain-data shapes that cross it. The Durable Object
 * (durable-objects/repo-coordinator.ts) implements `RepoCoordinatorRpc`; the REST services and
 * the queue consumer call it through the binding. Defined here, not beside the class, so that
 * callers depend on the contract and the kernel depends on no side.
 */
import type { ErrorCode } from "./errors";

/** Status of a repo's index job, mirrored into D1 `repos.status` and shown by the API. */
export const JOB_STATUSES = ["queued", "fetching", "indexing", "ready", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Where the job's files come from. */
export type JobSource = "git" | "archive";

/** Counts of files, as shown by `GET /api/repos/{id}`. */
export interface JobProgress {
  /** Entries of the snapshot's tree (files, symlinks, submodules). */
  filesTotal: number;
  /** New or changed files sent to the queue. */
  filesQueued: number;
  /** Queued files handled by a consumer (written, or skipped by the pipeline). */
  filesDone: number;
  /** Chunks written by this job. */
  chunks: number;
  /** Files whose version was already indexed: they join the new snapshot without work. */
  unchanged: number;
}

/** The state of one index job. Plain data (stored as JSON in the coordinator). */
export interface JobState {
  jobId: string;
  source: JobSource;
  /** Requested ref (git), null for archives. */
  ref: string | null;
  status: JobStatus;
  /** Resolved commit SHA (or `archive-<sha1>`), known after fetching. */
  commit: string | null;
  /** Times in ms since epoch. */
  requestedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  updatedAt: number;
  progress: JobProgress;
  /** Skipped files by reason (`SkipReason` of the filter, plus `index_failed`, `not_text`). */
  skipped: Record<string, number>;
  batches: { total: number; done: number; failed: number };
  lastError: string | null;
}

/** Settings of the repo the coordinator owns. `token` never leaves the coordinator. */
export interface RepoSettings {
  repo: string;
  sourceKind: "git" | "archive";
  url: string | null;
  ref: string | null;
  token?: string;
}

/** A staged file as the consumer receives it. */
export interface StagedFile {
  path: string;
  blobSha: string;
  fileId: string;
  bytes: Uint8Array;
}

/** What a consumer reports for one indexed batch. */
export interface BatchResult {
  /** Files now indexed (they join the new snapshot). */
  written: { path: string; fileId: string }[];
  /** Chunks written. */
  chunks: number;
  /** Files the pipeline skipped, by reason (`index_failed`: the chunker threw). */
  skipped: Record<string, number>;
}

/**
 * The archive's top-folder rule (indexer/source/archive-paths.ts): `"auto"` strips only a
 * recognisable wrapper folder, a number N (0-8) strips N leading folders from every entry.
 */
export type StripOption = "auto" | number;

/** An expected failure returned as a value (RPC keeps only an error's message). */
export interface CoordinatorError {
  error: { code: ErrorCode; message: string };
}

/** The coordinator's public methods: its whole RPC API (see the class for each one's contract). */
export interface RepoCoordinatorRpc extends Rpc.DurableObjectBranded {
  requestIndex(settings: RepoSettings): Promise<JobState>;
  requestArchive(settings: RepoSettings, body: ReadableStream<Uint8Array>, maxBytes: number, strip?: StripOption): Promise<JobState | CoordinatorError>;
  status(): Promise<JobState | null>;
  batchFiles(jobId: string, batchId: number): Promise<StagedFile[] | null>;
  ackBatch(jobId: string, batchId: number, result: BatchResult): Promise<void>;
  failBatch(jobId: string, batchId: number, error: string): Promise<void>;
  destroy(): Promise<void>;
}
