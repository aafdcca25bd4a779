/**
 * @module worker/services/history-source
 *
 * The history a read may use: a visible repo's snapshot at the asked ref (any tracked ref or its
 * commit, through the one resolver, worker/services/refs.ts) and the repo's stored commit graph
 * (indexer/store/d1/history.ts; one per repo, which every tracked ref's fetch adds to), or a
 * `history_unavailable` error that says why and what to do (archives carry no commits; a
 * depth-0 fetch keeps none; a snapshot indexed before history was kept needs a refresh).
 */
import { CodeSearchError } from "../../kernel/errors";
import { changesOfPath, commitGraph, historyMeta, type ChangeRecord, type CommitGraph } from "../../indexer/store/d1/history";
import { BudgetSpentError, type WalkSource } from "../history/walk";
import type { ServiceContext } from "./context";
import { visibleRepo } from "./files";
import { HISTORY_TIME_BUDGET_MS } from "./history-schema";
import { resolveRef, shortRefName, type RefSnapshot } from "./refs";

/** A repo's history, ready to walk from `commit`, the snapshot of `ref`. */
export interface RepoHistory {
  repo: string;
  commit: string;
  /** The ref read, full name (`refs/heads/main`), as every read names it; `HEAD` when unknown. */
  ref: string;
  depth: string;
  /** Why history is shorter than `depth` (HistoryMeta.limit), or null. */
  limit: string | null;
  graph: CommitGraph;
  /** The snapshot of `ref` (for the file's line count at that commit). */
  snapshot: RefSnapshot;
}

/**
 * Loads the history of a repo the caller may see at `ref` (default: the default ref). Throws
 * `repo_not_found`, `index_not_ready`, and `ref_not_found` (a ref the repo does not track,
 * naming those it does) as every read; `history_unavailable` when the source keeps none.
 */
export async function repoHistory(ctx: ServiceContext, repo: string, ref: string | undefined): Promise<RepoHistory> {
  const row = await visibleRepo(ctx, repo);
  if (row.source_kind !== "git") {
    throw new CodeSearchError(
      "history_unavailable",
      `History is not available for this source: repo "${repo}" was uploaded as an archive, which carries no commits. Register its git URL instead (POST /api/repos {"url": ...}) to get history, blame and commit search.`,
    );
  }
  const snap = await resolveRef(ctx, row, ref);
  const meta = await historyMeta(ctx.env.DB, snap.id);
  if (!meta) {
    throw new CodeSearchError(
      "history_unavailable",
      `History is not available for this source: repo "${repo}" was fetched shallow (HISTORY_DEPTH=0, or indexed before history was kept). Set HISTORY_DEPTH (e.g. 500 commits or 365d) and refresh it (POST /api/repos/${repo}/refresh).`,
    );
  }
  const graph = await commitGraph(ctx.env.DB, snap.id);
  const name = snap.ref ?? "HEAD";
  if (!graph.has(snap.commit)) {
    throw new CodeSearchError(
      "history_unavailable",
      meta.limit && meta.head === snap.commit
        ? `The history of repo "${repo}" at ${shortRefName(name)} (${snap.commit.slice(0, 12)}) was not recorded: ${meta.limit}. A smaller HISTORY_DEPTH may fit (docs/history.md); search and reads are not affected.`
        : `The history of repo "${repo}" at ${shortRefName(name)} (${snap.commit.slice(0, 12)}) is not recorded yet (it is recorded after the snapshot is indexed, or it was indexed before history was kept, or recording failed). Retry in a minute, or refresh it (POST /api/repos/${repo}/refresh).`,
    );
  }
  return { repo: snap.id, commit: snap.commit, ref: name, depth: meta.depth, limit: meta.limit, graph, snapshot: snap };
}

/** A walk source over `h` with HISTORY_TIME_BUDGET_MS from now; each path's rows are loaded once. */
export function walkSourceOf(ctx: ServiceContext, h: RepoHistory): WalkSource {
  const deadline = Date.now() + HISTORY_TIME_BUDGET_MS;
  const cache = new Map<string, Promise<Map<string, ChangeRecord[]>>>();
  return {
    graph: h.graph,
    spent: () => Date.now() > deadline,
    changes(path) {
      let rows = cache.get(path);
      if (!rows) cache.set(path, (rows = changesOfPath(ctx.env.DB, h.repo, path)));
      return rows;
    },
  };
}

/** Turns a spent budget into a clear error; rethrows anything else. */
export function budgetError(err: unknown, what: string): never {
  if (err instanceof BudgetSpentError) {
    throw new CodeSearchError(
      "payload_too_large",
      `${what} did not finish within ${HISTORY_TIME_BUDGET_MS} ms; ask for fewer lines (start and end) or a smaller limit.`,
    );
  }
  throw err;
}
