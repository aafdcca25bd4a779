/**
 * @module worker/mcp/tools/repo-status
 *
 * Text rendering of a repo's status (`repoStatusSchema` in worker/services/repos.ts, re-exported
 * as the output schema), shared by list_repos, get_index_status and refresh_index.
 */
import { repoStatusSchema, type RepoStatus } from "../../services/repos";

export { repoStatusSchema };

/**
 * The tracked refs as an agent passes them (`ref` of the read tools): short names, the default
 * marked, and those without a snapshot yet with their status; "" with only the default ref.
 */
function trackedRefs(r: RepoStatus): string {
  if (r.refs.length < 2) return "";
  const names = r.refs.map((ref) => {
    const short = ref.name.replace(/^refs\/(heads|tags)\//, "");
    if (ref.default) return `${short} (default)`;
    return ref.commit ? short : `${short} (${ref.status}, not indexed yet)`;
  });
  return `; refs: ${names.join(", ")}`;
}

/** One line per repo: id, status, snapshot, progress while indexing, what it waits for, a queued follow-up, tracked refs, last error. */
export function renderRepoStatus(r: RepoStatus): string {
  const snap = r.snapshot ? `snapshot ${r.snapshot.commit.slice(0, 12)} indexed ${new Date(r.snapshot.indexedAt).toISOString()}` : "no snapshot yet";
  const busy = r.status === "ready" || r.status === "failed" ? "" : `, ${r.progress.filesDone}/${r.progress.filesTotal} files`;
  const skipped = Object.entries(r.skipped)
    .map(([why, n]) => `${why} ${n}`)
    .join(", ");
  const source = r.url ? `${r.url}${r.ref ? `@${r.ref}` : ""}` : r.sourceKind;
  const waiting = r.waiting ? `; ${r.waiting.reason} at ${new Date(r.waiting.retryAt).toISOString()}` : "";
  const pending = r.pending ? `; follow-up queued${r.pending.commit ? ` for ${r.pending.commit.slice(0, 12)}` : ""}` : "";
  const stale = r.stale ? `; STALE since ${new Date(r.stale.since).toISOString()} (${r.stale.reason})` : "";
  return `${r.id}: ${r.status}${busy}${waiting}; ${snap}${stale}; ${source}${pending}${trackedRefs(r)}${skipped ? `; skipped: ${skipped}` : ""}${r.lastError ? `; last error: ${r.lastError}` : ""}`;
}
