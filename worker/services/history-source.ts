/**
 * @module worker/services/history-source
 *
 * The history a read may use: a visible repo's active snapshot, its tracked ref checked
 * against the asked one, and the stored commit graph (indexer/store/d1/history.ts), or a
 * `history_unavailable` error that says why and what to do (archives carry no commits; a
 * depth-0 fetch keeps none; a snapshot indexed before history was kept needs a refresh).
 */
import { CodeSearchError } from "../../kernel/errors";
import { changesOfPath, commitGraph, historyMeta, type ChangeRecord, type CommitGraph } from "../../indexer/store/d1/history";
import { BudgetSpentError, type WalkSource } from "../history/walk";
import type { ServiceContext } from "./context";
import { activeRepo } from "./files";
import { HISTORY_TIME_BUDGET_MS } from "./history-schema";

/** A repo's history, ready to walk from `commit`. */
export interface RepoHistory {
  repo: string;
  commit: string;
  /** Short ref name (`main`), or the commit when the repo tracks a SHA. */
  ref: string;
  depth: string;
  /** Why history is shorter than `depth` (HistoryMeta.limit), or null. */
  limit: string | null;
  graph: CommitGraph;
}

const shortRef = (r: string) => r.replace(/^refs\/(heads|tags)\//, "");

/**
 * Loads the history of a repo the caller may see (`repo_not_found`, `index_not_ready` as every
 * read). `ref`, when given, must be the tracked ref or the snapshot's commit (`ref_not_found`
 * otherwise, naming the tracked one).
 */
export async function repoHistory(ctx: ServiceContext, repo: string, ref: string | undefined): Promise<RepoHistory> {
  const snap = await activeRepo(ctx, repo);
  const row = await ctx.env.DB.prepare("SELECT source_kind, ref FROM repos WHERE id = ?").bind(snap.id).first<{ source_kind: string; ref: string | null }>();
  if (row?.source_kind !== "git") {
    throw new CodeSearchError(
      "history_unavailable",
      `History is not available for this source: repo "${repo}" was uploaded as an archive, which carries no commits. Register its git URL instead (POST /api/repos {"url": ...}) to get history, blame and commit search.`,
    );
  }
  const meta = await historyMeta(ctx.env.DB, snap.id);
  if (!meta) {
    throw new CodeSearchError(
      "history_unavailable",
      `History is not available for this source: repo "${repo}" was fetched shallow (HISTORY_DEPTH=0, or indexed before history was kept). Set HISTORY_DEPTH (e.g. 500 commits or 365d) and refresh it (POST /api/repos/${repo}/refresh).`,
    );
  }
  const tracked = shortRef(meta.ref);
  if (ref !== undefined) {
    const asked = shortRef(ref.trim());
    const ok =
      asked === tracked || asked === "HEAD" || (asked.length >= 7 && snap.commit.startsWith(asked)) || (row.ref !== null && asked === shortRef(row.ref));
    if (!ok)
      throw new CodeSearchError(
        "ref_not_found",
        `Repo "${repo}" tracks "${tracked}" (commit ${snap.commit.slice(0, 12)}) only; omit ref or pass "${tracked}".`,
      );
  }
  const graph = await commitGraph(ctx.env.DB, snap.id);
  if (!graph.has(snap.commit)) {
    throw new CodeSearchError(
      "history_unavailable",
      meta.limit && meta.head === snap.commit
        ? `The history of repo "${repo}" at ${snap.commit.slice(0, 12)} was not recorded: ${meta.limit}. A smaller HISTORY_DEPTH may fit (docs/history.md); search and reads are not affected.`
        : `The history of repo "${repo}" at ${snap.commit.slice(0, 12)} is not recorded yet (it is recorded after the snapshot is indexed, or it was indexed before history was kept, or recording failed). Retry in a minute, or refresh it (POST /api/repos/${repo}/refresh).`,
    );
  }
  return { repo: snap.id, commit: snap.commit, ref: tracked, depth: meta.depth, limit: meta.limit, graph };
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
