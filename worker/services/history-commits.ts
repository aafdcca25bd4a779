/**
 * @module worker/services/history-commits
 *
 * Commit message search (`searchCommits`): BM25 over the subjects, bodies and authors of the
 * stored commits (indexer/store/d1/history.ts, `commits_fts`), tokenized by the index's own
 * tokenizer, with author and date filters, across the repos the caller may see.
 */
import { CodeSearchError } from "../../kernel/errors";
import { parseOrThrow } from "../../kernel/validation";
import { searchCommitRows } from "../../indexer/store/d1/history";
import { tokenizeQuery } from "../../indexer/store/tokenize";
import type { ServiceContext } from "./context";
import { canSee, type RepoVisibility } from "./context";
import { visibleRepo } from "./files";
import { searchCommitsInput, unixOfDate, type SearchCommitsInput, type SearchCommitsOutput } from "./history-schema";
import { summaryOf } from "./history";
import { reachableFrom } from "../history/walk";
import { repoHistory, type RepoHistory } from "./history-source";

/**
 * The commits whose messages best match `q`, best first. With `repo`: that repo only, and its
 * `history_unavailable` error when it keeps none; without: every visible repo with history.
 * Every tracked ref's commits are searched, unless `ref` (with `repo`) keeps those reachable
 * from that ref's commit (`ref_not_found` for a ref the repo does not track).
 */
export async function searchCommits(ctx: ServiceContext, raw: SearchCommitsInput): Promise<SearchCommitsOutput> {
  const input = parseOrThrow(searchCommitsInput, raw, {}, "search_commits");
  const since = input.since === undefined ? undefined : unixOfDate(input.since, false);
  const until = input.until === undefined ? undefined : unixOfDate(input.until, true);
  if (since !== undefined && until !== undefined && since > until) {
    throw new CodeSearchError(
      "invalid_input",
      `since (${input.since}) is after until (${input.until}): no commit can match; swap them (since is the earlier date, until the later).`,
    );
  }
  if (input.ref !== undefined && !input.repo) {
    throw new CodeSearchError(
      "invalid_input",
      "ref: commit search at a ref needs repo (the ref of which repo?); pass repo too, or omit ref to search every tracked ref.",
    );
  }
  let repos: string[];
  let at: RepoHistory | null = null;
  if (input.repo) {
    await visibleRepo(ctx, input.repo);
    const h = await repoHistory(ctx, input.repo, input.ref);
    repos = [h.repo];
    if (input.ref !== undefined) at = h;
  } else {
    const { results } = await ctx.env.DB.prepare(
      "SELECT r.id, r.withdrawn_at FROM repos r JOIN repo_history h ON h.repo = r.id ORDER BY r.id",
    ).all<RepoVisibility>();
    repos = results.filter((r) => canSee(ctx.caller, r)).map((r) => r.id);
  }
  const terms = tokenizeQuery(input.q);
  if (terms.length === 0) throw new CodeSearchError("invalid_input", `q: "${input.q}" has no searchable words.`);
  const scope = { ref: at?.ref ?? null, commit: at?.commit ?? null };
  if (repos.length === 0) return { commits: [], repos, ...scope };
  const match = [...new Set(terms)].map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
  // At a ref: rank over all stored commits, then drop those not reachable from it. Asking for
  // `limit` more rows than there are unreachable commits keeps the page full whenever it can be.
  const reachable = at ? reachableFrom(at.graph, at.commit) : null;
  const extra = at && reachable ? at.graph.size - reachable.size : 0;
  const rows = await searchCommitRows(ctx.env.DB, repos, match, { author: input.author, since, until }, input.limit + extra);
  const kept = (reachable ? rows.filter((r) => reachable.has(r.sha)) : rows).slice(0, input.limit);
  return {
    commits: kept.map((r) => ({ repo: r.repo, ...summaryOf(r, r.sha), body: r.body.slice(0, 1000), score: Math.round(r.score * 1000) / 1000 })),
    repos,
    ...scope,
  };
}
