/**
 * A repo's status in words, for people (no tool or route names): what it is doing, how far
 * it is, and what went wrong. Pure; used by the repositories page.
 */
import type { RepoStatus } from "../../worker/services/repo-status-schema";

/** The fields of `GET /api/repos` entries this page reads, typed by the server's schema (worker/services/repo-status-schema.ts). */
export type RepoStatusView = Pick<RepoStatus, "id" | "sourceKind" | "url" | "ref" | "status" | "progress" | "skipped" | "index" | "snapshot" | "lastError"> &
  Partial<Pick<RepoStatus, "placement" | "refs">>;

/** Where the index lives: "Shard 1", "Shard 0, moving to shard 2"; null before placement (or from a server without shards). */
export function placementWords(r: RepoStatusView): string | null {
  const p = r.placement;
  if (!p || p.shard === null) return null;
  return p.movingTo === null ? `Shard ${p.shard}` : `Shard ${p.shard}, moving to shard ${p.movingTo}`;
}

/** One tracked ref as the page lists it: "main (default)", its commit (12 hex) and its state in words. */
export interface RefLine {
  name: string;
  commit: string | null;
  state: string;
  failed: boolean;
}

const REF_STATE_WORDS: Record<string, string> = { queued: "Waiting to be indexed", indexing: "Indexing", ready: "Ready", failed: "Indexing failed" };

/**
 * The repo's tracked refs (default first, as the server lists them) in words; [] for an archive
 * or a server that does not list refs. A failed ref keeps serving its earlier commit, so its
 * commit is shown with the error.
 */
export function refLines(r: RepoStatusView): RefLine[] {
  return (r.refs ?? []).map((ref) => {
    const name = ref.name.replace(/^refs\/(heads|tags)\//, "");
    const error = ref.status === "failed" ? errorWords(ref.lastError) : null;
    return {
      name: ref.default ? `${name} (default)` : name,
      commit: ref.commit ? ref.commit.slice(0, 12) : null,
      state: `${REF_STATE_WORDS[ref.status] ?? ref.status}${error ? `: ${error}` : ""}`,
      failed: ref.status === "failed",
    };
  });
}

/** True while a job is running (the page keeps polling). */
export function isBusy(status: string): boolean {
  return status === "queued" || status === "fetching" || status === "indexing";
}

/** Status words: "Ready", "Indexing: 40 of 120 files". */
export function statusWords(r: RepoStatusView): string {
  const p = r.progress;
  switch (r.status) {
    case "ready":
      return "Ready";
    case "failed":
      return "Indexing failed";
    case "queued":
      return "Waiting to be indexed";
    case "fetching":
      return r.sourceKind === "archive" ? "Reading the upload" : "Fetching from git";
    default:
      return p.filesTotal > 0 ? `Indexing: ${p.filesDone} of ${p.filesTotal} files` : "Indexing";
  }
}

/**
 * What the add form says about the repo it just added, as its job moves on: while busy the
 * status words, then that it is ready (with its size) or that indexing failed (with why). The
 * words "indexing has started" never outlive the job.
 */
export function addedWords(r: RepoStatusView): string {
  if (r.status === "ready") {
    const size = r.index ? ` ${r.index.files.toLocaleString("en")} files, ${r.index.chunks.toLocaleString("en")} chunks.` : "";
    return `${r.id} is ready to search.${size}`;
  }
  if (r.status === "failed") return `Indexing ${r.id} failed${r.lastError ? `: ${errorWords(r.lastError)}` : "."}`;
  return `${r.id}: ${statusWords(r)}.`;
}

/** Share done, 0..1, or null when the total is not known yet. */
export function progressShare(r: RepoStatusView): number | null {
  const { filesTotal, filesDone } = r.progress;
  return filesTotal > 0 ? Math.min(1, filesDone / filesTotal) : null;
}

/** Skip reasons in words (indexer/filter/skip-reason.ts); unknown reasons are shown as they are. */
const SKIP_WORDS: Record<string, string> = {
  ignored: "ignored by .gitignore",
  too_large: "too large",
  binary: "binary",
  secret: "may hold secrets",
  vendored: "dependencies or build output",
  generated: "generated",
  lockfile: "lock files",
  minified: "minified",
  symlink: "symbolic links",
  submodule: "submodules",
  unsupported: "unsupported entries",
};

/** "3 too large, 2 binary" (largest first); "" when nothing was skipped. */
export function skippedWords(skipped: Record<string, number>): { reason: string; words: string; count: number }[] {
  return Object.entries(skipped)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => ({ reason, count, words: SKIP_WORDS[reason] ?? reason.replace(/_/g, " ") }));
}

/**
 * The last error for people. The server's message is kept (it says what failed), but
 * mentions of API routes or MCP tools are replaced by what to do on this page.
 */
export function errorWords(message: string | null): string | null {
  if (!message) return null;
  return message
    .replace(/\b(?:call |check |poll )?(?:get_index_status|refresh_index|list_repos|repo_status)\b/gi, "the Refresh button on this page")
    .replace(/\b(?:to |use )?(?:GET|POST|DELETE) \/api\/[^\s,;)]*/g, "on the Repositories page");
}
