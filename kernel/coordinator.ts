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

import type { JobStatus } from "./job-status";

export { JOB_STATUSES, type JobStatus } from "./job-status";

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
  /**
   * A refresh (or push) that arrived while this job was past `queued`: one follow-up job runs
   * when this one ends. `commit` is the pushed commit when a webhook said it, null for "the
   * ref's tip"; `requestedAt` (ms) is when the newest such request arrived. Absent on jobs
   * stored before this field existed.
   */
  pending?: PendingRefresh | null;
  /** The commit a push announced for this job, if any (the fetch indexes the ref's tip). */
  wantedCommit?: string | null;
  /**
   * The extra tracked ref this job indexes (full name, a `repo_refs` row with `is_default = 0`);
   * null or absent: the default ref, whose snapshot becomes `repos.active_commit` (docs/refs.md).
   */
  trackedRef?: string | null;
  /** The full ref name the fetch resolved (`refs/heads/main`), known after fetching; null for archives. */
  resolvedRef?: string | null;
}

/** A refresh waiting for the running job to end. Times in ms since epoch. */
export interface PendingRefresh {
  commit: string | null;
  requestedAt: number;
}

/** What a running job stuck after a crash is waiting for, and when it is retried (ms since epoch). */
export interface Waiting {
  reason: string;
  retryAt: number;
}

/** A job as the coordinator reports it: its state plus what it waits for, if stuck. */
export type JobView = JobState & { waiting: Waiting | null };

/** Credentials or ref to try (`checkSource`); absent fields mean the stored ones. */
export interface SourceOverrides {
  ref?: string | null;
  token?: string;
  username?: string;
  authScheme?: "basic" | "bearer";
}

/** A ref resolved on the remote: full ref name (or the SHA asked for) and its commit. */
export interface RemoteRef {
  ref: string;
  commit: string;
}

/**
 * What a scheduled remote check did, about the default ref; `refs` says what it did about the
 * extra tracked refs (absent when there are none, or nothing was checked).
 */
export type PollResult = (
  | { kind: "unchanged"; commit: string }
  | { kind: "started"; commit: string; jobId: string }
  | { kind: "skipped"; reason: string }
  | { kind: "error"; message: string }
) & { refs?: { queued: string[]; removed: string[] } };

/** Options of `requestIndex`. */
export interface IndexRequestOptions {
  /** The commit a push announced (webhooks); the job indexes the ref's tip, which includes it. */
  commit?: string | null;
}

/** Options of `syncRefs`. */
export interface SyncRefsOptions {
  /** Queue every tracked ref, unchanged ones too (a move re-indexes each ref into its target shard). */
  reindexAll?: boolean;
}

/** One tracked ref as `syncRefs` left it. */
export interface SyncedRef {
  name: string;
  pattern: string;
  /** Its commit on the remote. */
  commit: string;
  /** `queued`: a job was started or queued for it; `unchanged`: its snapshot is at that commit already. */
  action: "queued" | "unchanged";
}

/** What `syncRefs` did (docs/refs.md). */
export interface RefSyncResult {
  /** The stored patterns, normalised (`refs/heads/feature`, `refs/tags/v2.*`). */
  patterns: string[];
  /** The default ref's full name on the remote. */
  defaultRef: string;
  refs: SyncedRef[];
  /** Extra refs no longer tracked (untracked, or gone from the remote): their rows went, their snapshots are collected. */
  removed: string[];
  /** Refs the patterns match past MAX_REFS_PER_REPO, not tracked (only when the patterns were stored earlier). */
  overLimit: string[];
}

/**
 * Settings of the repo the coordinator owns. `token` is what callers pass in (plaintext, over
 * RPC); the coordinator stores only `tokenSealed` (kernel/secret-box.ts) and never returns
 * either. Rows written before sealing existed may still hold `token`; they are sealed on the
 * next write.
 */
export interface RepoSettings {
  repo: string;
  sourceKind: "git" | "archive";
  url: string | null;
  ref: string | null;
  token?: string;
  tokenSealed?: string;
  /** Basic-auth user name (default x-access-token). */
  username?: string;
  authScheme?: "basic" | "bearer";
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

/**
 * How often a queue consumer renews the lease of the batch it works on (`renewBatch`), in ms.
 * The coordinator sends a batch again once its lease went unrenewed for `BATCH_LEASE_MS`
 * (durable-objects/job-state.ts), so a consumer that dies mid-batch costs seconds, not minutes.
 */
export const BATCH_HEARTBEAT_MS = 5_000;

/** An expected failure returned as a value (RPC keeps only an error's message). */
export interface CoordinatorError {
  error: { code: ErrorCode; message: string };
}

/** The coordinator's public methods: its whole RPC API (see the class for each one's contract). */
export interface RepoCoordinatorRpc extends Rpc.DurableObjectBranded {
  requestIndex(settings: RepoSettings, options?: IndexRequestOptions): Promise<JobView>;
  requestArchive(
    settings: RepoSettings,
    body: ReadableStream<Uint8Array>,
    maxBytes: number,
    strip?: StripOption,
    tracked?: boolean,
  ): Promise<JobState | CoordinatorError>;
  status(): Promise<JobView | null>;
  checkSource(overrides?: SourceOverrides): Promise<RemoteRef | CoordinatorError>;
  pollRemote(): Promise<PollResult>;
  syncRefs(patterns?: string[] | null, options?: SyncRefsOptions): Promise<RefSyncResult | CoordinatorError>;
  batchFiles(jobId: string, batchId: number): Promise<StagedFile[] | null>;
  renewBatch(jobId: string, batchId: number): Promise<boolean>;
  /** True when the ack settled the batch; false for a duplicate, or a job that is not current (superseded, or the repo deleted). */
  ackBatch(jobId: string, batchId: number, result: BatchResult): Promise<boolean>;
  failBatch(jobId: string, batchId: number, error: string): Promise<void>;
  destroy(): Promise<void>;
}
