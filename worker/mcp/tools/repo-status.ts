/**
 * @module worker/mcp/tools/repo-status
 *
 * Output schema and text rendering of a repo's status (`RepoStatus` in
 * worker/services/repos.ts), shared by list_repos, get_index_status and refresh_index.
 */
import { z } from "zod";
import type { RepoStatus } from "../../services/repos";

const jobStatus = z.enum(["queued", "fetching", "indexing", "ready", "failed"]);

/** A repo's status; times are ms since epoch. `job` is the coordinator's current or last job. */
export const repoStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  sourceKind: z.enum(["git", "archive"]),
  url: z.string().nullable(),
  ref: z.string().nullable(),
  status: jobStatus,
  progress: z.object({ filesTotal: z.number(), filesQueued: z.number(), filesDone: z.number(), chunks: z.number() }),
  skipped: z.record(z.string(), z.number()),
  index: z.object({ files: z.number(), chunks: z.number() }).nullable(),
  snapshot: z.object({ commit: z.string(), indexedAt: z.number() }).nullable(),
  embedding: z.object({ model: z.string(), dimensions: z.number() }).nullable(),
  lastError: z.string().nullable(),
  stale: z.object({ reason: z.string(), since: z.number(), snapshotAge: z.number() }).nullable(),
  pending: z.object({ commit: z.string().nullable(), requestedAt: z.number() }).nullable(),
  waiting: z.object({ reason: z.string(), retryAt: z.number() }).nullable(),
  job: z.looseObject({ id: z.string(), status: jobStatus, commit: z.string().nullable() }).nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** One line per repo: id, status, snapshot, progress while indexing, what it waits for, a queued follow-up, last error. */
export function renderRepoStatus(r: RepoStatus): string {
  const snap = r.snapshot ? `snapshot ${r.snapshot.commit.slice(0, 12)} indexed ${new Date(r.snapshot.indexedAt).toISOString()}` : "no snapshot yet";
  const busy = r.status === "ready" || r.status === "failed" ? "" : `, ${r.progress.filesDone}/${r.progress.filesTotal} files`;
  const skipped = Object.entries(r.skipped).map(([why, n]) => `${why} ${n}`).join(", ");
  const source = r.url ? `${r.url}${r.ref ? `@${r.ref}` : ""}` : r.sourceKind;
  const waiting = r.waiting ? `; ${r.waiting.reason} at ${new Date(r.waiting.retryAt).toISOString()}` : "";
  const pending = r.pending ? `; follow-up queued${r.pending.commit ? ` for ${r.pending.commit.slice(0, 12)}` : ""}` : "";
  const stale = r.stale ? `; STALE since ${new Date(r.stale.since).toISOString()} (${r.stale.reason})` : "";
  return `${r.id}: ${r.status}${busy}${waiting}; ${snap}${stale}; ${source}${pending}${skipped ? `; skipped: ${skipped}` : ""}${r.lastError ? `; last error: ${r.lastError}` : ""}`;
}
