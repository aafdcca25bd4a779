/**
 * @module worker/services/repo-status-schema
 *
 * The wire shape of a repo's status (`GET /api/repos[/{id}]`, MCP `get_index_status`,
 * `list_repos`, `refresh_index`), as a zod schema; `RepoStatus` is inferred from it. Its own
 * module, importing only zod and other schemas, so the web page and the CLI can type what they
 * read from the API with the server's own type.
 */
import { z } from "zod";
import { JOB_STATUSES } from "../../kernel/job-status";
import { staleInfoSchema } from "../search/schema";

/**
 * One tracked ref in a repo's status (`repo_refs`, docs/refs.md): full name, whether it is the
 * default ref (what reads naming no ref serve), the pattern it matched (null for the default),
 * its snapshot's commit and activation time (ms; null until its first job completes), and the
 * state of its last job (`failed`: lastError; an earlier commit keeps serving). Terse on purpose:
 * MCP tools repeat this schema (mcp-schemas.test.ts bounds tools/list).
 */
export const refStatusSchema = z
  .object({
    name: z.string(),
    default: z.boolean(),
    pattern: z.string().nullable(),
    commit: z.string().nullable(),
    indexedAt: z.number().int().nullable(),
    status: z.enum(["queued", "indexing", "ready", "failed"]),
    lastError: z.string().nullable(),
  })
  .meta({ id: "RefStatus" });

/** A repo's status, as `GET /api/repos/{id}` returns it. Times in ms since epoch. */
export const repoStatusSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sourceKind: z.enum(["git", "archive"]),
    url: z.string().nullable(),
    ref: z.string().nullable(),
    status: z.enum(JOB_STATUSES),
    progress: z
      .object({ filesTotal: z.number().int(), filesQueued: z.number().int(), filesDone: z.number().int(), chunks: z.number().int() })
      .describe("Counters of the current or last job (an unchanged re-index reports 0 chunks); see `index` for totals."),
    skipped: z.record(z.string(), z.number().int()).describe("Skipped files of the current or last job, by reason (indexer/filter/skip-reason.ts)."),
    index: z
      .object({ files: z.number().int(), chunks: z.number().int() })
      .nullable()
      .describe("What search serves now: files and chunks of the active snapshot; null until the first job completes."),
    snapshot: z
      .object({ commit: z.string(), indexedAt: z.number().int() })
      .nullable()
      .describe("The snapshot search serves; null until the first job completes."),
    embedding: z.object({ model: z.string(), dimensions: z.number().int() }).nullable(),
    lastError: z.string().nullable(),
    pending: z
      .object({ commit: z.string().nullable(), requestedAt: z.number().int() })
      .nullable()
      .describe(
        'A refresh or push that arrived while the job ran: one follow-up job starts when it ends. `commit` is the pushed commit (webhooks), null for "the ref\'s tip".',
      ),
    stale: staleInfoSchema
      .nullable()
      .describe(
        "Set when the snapshot being served may be out of date: the last refresh failed, or the scheduled check found the upstream gone or the token revoked. Times in ms.",
      ),
    waiting: z
      .object({ reason: z.string(), retryAt: z.number().int() })
      .nullable()
      .describe("Set while a running job is stuck (a fetch lost in a restart, batches not acknowledged): why, and when it is retried."),
    job: z
      .object({
        id: z.string(),
        source: z.enum(["git", "archive"]),
        ref: z.string().nullable(),
        commit: z.string().nullable(),
        status: z.enum(JOB_STATUSES),
        unchanged: z.number().int(),
        batches: z.object({ total: z.number().int(), done: z.number().int(), failed: z.number().int() }),
        requestedAt: z.number().int(),
        startedAt: z.number().int().nullable(),
        finishedAt: z.number().int().nullable(),
      })
      .nullable()
      .describe("The coordinator's current or last job; done when its status is ready or failed."),
    placement: z
      .object({ shard: z.number().int().nullable(), movingTo: z.number().int().nullable() })
      .describe(
        "The shard (D1 database) holding the repo's index (null: not placed yet), and the shard a move re-indexes it into (POST /api/repos/{id}/move) until the move's job flips it; docs/storage.md, Shards.",
      ),
    refPatterns: z.array(z.string()).describe("Extra tracked refs (full names or globs)."),
    refs: z.array(refStatusSchema).describe("Every tracked ref, the default first."),
    refsNote: z.string().nullable().describe("Set for archives: no refs."),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .meta({ id: "RepoStatus" });
export type RepoStatus = z.infer<typeof repoStatusSchema>;
