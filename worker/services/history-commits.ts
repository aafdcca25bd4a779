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
import { searchCommitsInput, type SearchCommitsInput, type SearchCommitsOutput } from "./history-schema";
import { summaryOf } from "./history";
import { repoHistory } from "./history-source";

/** Unix seconds of a `since`/`until` date; a bare day as `until` means through its end. */
function unixOf(date: string | undefined, endOfDay: boolean): number | undefined {
  if (date === undefined) return undefined;
  const ms = Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(ms)) throw new CodeSearchError("invalid_input", `"${date}" is not a date; use YYYY-MM-DD.`);
  return Math.floor(ms / 1000) + (endOfDay && date.length === 10 ? 86_399 : 0);
}

/**
 * The commits whose messages best match `q`, best first. With `repo`: that repo only, and its
 * `history_unavailable` error when it keeps none; without: every visible repo with history.
 */
export async function searchCommits(ctx: ServiceContext, raw: SearchCommitsInput): Promise<SearchCommitsOutput> {
  const input = parseOrThrow(searchCommitsInput, raw, {}, "search_commits");
  let repos: string[];
  if (input.repo) {
    await visibleRepo(ctx, input.repo);
    repos = [(await repoHistory(ctx, input.repo, undefined)).repo];
  } else {
    const { results } = await ctx.env.DB.prepare(
      "SELECT r.id, r.withdrawn_at FROM repos r JOIN repo_history h ON h.repo = r.id ORDER BY r.id",
    ).all<RepoVisibility>();
    repos = results.filter((r) => canSee(ctx.caller, r)).map((r) => r.id);
  }
  const terms = tokenizeQuery(input.q);
  if (terms.length === 0) throw new CodeSearchError("invalid_input", `q: "${input.q}" has no searchable words.`);
  if (repos.length === 0) return { commits: [], repos };
  const match = [...new Set(terms)].map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ");
  const rows = await searchCommitRows(
    ctx.env.DB,
    repos,
    match,
    { author: input.author, since: unixOf(input.since, false), until: unixOf(input.until, true) },
    input.limit,
  );
  return {
    commits: rows.map((r) => ({ repo: r.repo, ...summaryOf(r, r.sha), body: r.body.slice(0, 1000), score: Math.round(r.score * 1000) / 1000 })),
    repos,
  };
}
