/**
 * `codebase-copilot history|blame|commits`: who changed a file or lines of it, and why (issue #49,
 * docs/history.md). Thin adapters over `GET /api/repos/{id}/history`, `GET /api/repos/{id}/blame`
 * and `GET /api/search/commits`, with the routes' parameter names and limits
 * (kernel/history-limits.ts). Exit codes (bin/lib/exit-codes.ts): 0 found, 1 no commit (history,
 * commits), 2 usage or a 400, 3 unknown repo, file or ref (404), 5 history not kept for the
 * source (409) or a walk past its time budget (413).
 */
import type { Command } from "commander";
import { BLAME_MAX_LINES, COMMIT_SEARCH_MAX_LIMIT, HISTORY_MAX_LIMIT, HISTORY_TIME_BUDGET_MS } from "../../kernel/history-limits.ts";
import { ApiError } from "./api-error.ts";
import type { CommitSearchQuery } from "./api-types.ts";
import { client, globals, positiveInt, print, UsageError } from "./cli-common.ts";
import { EXIT } from "./exit-codes.ts";
import { formatBlame, formatCommitSearch, formatHistory } from "./history-format.ts";

const REF_HELP = 'branch or tag the repo tracks ("feature", "v2.1"), or its snapshot\'s commit (default: the default branch)';

/** What to do next for the history errors, in CLI terms (the server's message speaks REST). */
const HINTS: Record<string, string> = {
  history_unavailable: "With the CLI: index the git URL (codebase-copilot index <git-url> --wait); running that again for an existing git repo refreshes it.",
  payload_too_large: `The walk stopped at its ${HISTORY_TIME_BUDGET_MS / 1000} s budget: narrow --start/--end (or a smaller --limit).`,
  ref_not_found: "With the CLI: track a ref with codebase-copilot index <git-url> --ref <ref> --wait.",
};

/** Runs `call`; an API error with a hint above gets the hint appended (same status, same code). */
async function withHint<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const hint = err instanceof ApiError ? HINTS[err.code] : undefined;
    if (!hint) throw err;
    const e = err as ApiError;
    throw new ApiError(e.status, e.code, `${e.message}\n${hint}`);
  }
}

/** A commander parser for `--limit` of at most `max` (the route's limit). */
function limitUpTo(max: number): (v: string) => number {
  const n = positiveInt("--limit");
  return (v) => {
    const limit = n(v);
    if (limit > max) throw new UsageError(`--limit must be at most ${max} (the route's limit); got ${limit}.`);
    return limit;
  };
}

/** Parsed line range flags. */
interface RangeFlags {
  start?: number;
  end?: number;
  ref?: string;
}

/** Checks `--start`/`--end` before asking the server: `end` not before `start`, and blame's line limit. */
function checkRange(o: RangeFlags, command: "history" | "blame"): void {
  if (o.end !== undefined && o.start !== undefined && o.end < o.start) throw new UsageError(`--end (${o.end}) is before --start (${o.start}).`);
  if (command === "history" && o.end !== undefined && o.start === undefined)
    throw new UsageError("--end needs --start: give --start N (and --end N) for a line range, or neither for the whole file.");
  if (command === "blame" && o.end !== undefined && o.end - (o.start ?? 1) + 1 > BLAME_MAX_LINES)
    throw new UsageError(`blame covers at most ${BLAME_MAX_LINES} lines per call; --start ${o.start ?? 1} --end ${o.end} are ${o.end - (o.start ?? 1) + 1}.`);
}

/** Adds `history`, `blame` and `commits` to `program`. */
export function addHistoryCommands(program: Command): void {
  program
    .command("history")
    .description("Commits that changed a file, or lines --start..--end of it, newest first (follows renames); exit 1 when none")
    .argument("<repo>", "the indexed repo id (a git source fetched with history)")
    .argument("<path>", "file path in the repo, e.g. src/router.ts")
    .option("--start <n>", "first line of a range (1-based); without: the whole file", positiveInt("--start"))
    .option("--end <n>", "last line of the range (inclusive; default --start)", positiveInt("--end"))
    .option("--ref <ref>", REF_HELP)
    .option("--limit <n>", `commits per page (at most ${HISTORY_MAX_LIMIT}; default 20)`, limitUpTo(HISTORY_MAX_LIMIT))
    .option("--cursor <c>", "next page: the cursor the previous page printed")
    .addHelpText("after", "\nExample:\n  codebase-copilot history hono src/hono-base.ts --start 120 --end 140 --limit 5")
    .action(async (repo: string, path: string, o: RangeFlags & { limit?: number; cursor?: string }, cmd: Command) => {
      checkRange(o, "history");
      const g = globals(cmd);
      const h = await withHint(() => client(g).fileHistory({ repo, path, start: o.start, end: o.end, ref: o.ref, limit: o.limit, cursor: o.cursor }));
      print(g, h, () => formatHistory(h));
      if (h.commits.length === 0) process.exitCode = EXIT.noMatch;
    });

  program
    .command("blame")
    .description(`The commit that last changed each line of --start..--end (at most ${BLAME_MAX_LINES} lines), consecutive lines of one commit grouped`)
    .argument("<repo>", "the indexed repo id (a git source fetched with history)")
    .argument("<path>", "file path in the repo")
    .option("--start <n>", "first line (1-based; default 1)", positiveInt("--start"))
    .option("--end <n>", `last line (inclusive; default --start, or the file's last line when neither is given)`, positiveInt("--end"))
    .option("--ref <ref>", REF_HELP)
    .addHelpText("after", "\nExample:\n  codebase-copilot blame hono src/hono-base.ts --start 120 --end 140")
    .action(async (repo: string, path: string, o: RangeFlags, cmd: Command) => {
      checkRange(o, "blame");
      const g = globals(cmd);
      const b = await withHint(() => client(g).blame({ repo, path, start: o.start, end: o.end, ref: o.ref }));
      print(g, b, () => formatBlame(b));
    });

  program
    .command("commits")
    .description("Search commit messages (BM25 over subjects, bodies and authors), with author and date filters; exit 1 when none")
    .argument("<query...>", "words to find in commit messages")
    .option("--repo <id>", "only this repo (default: every repo you may see that keeps history)")
    .option("--ref <ref>", "only commits reachable from this tracked ref of --repo (default: every tracked ref's commits)")
    .option("--author <text>", "author name or e-mail contains this (any case)")
    .option("--since <date>", "authored on or after (YYYY-MM-DD or ISO 8601 UTC time)")
    .option("--until <date>", "authored on or before (YYYY-MM-DD: through that day, UTC)")
    .option("--limit <n>", `commits to return (at most ${COMMIT_SEARCH_MAX_LIMIT}; default 10)`, limitUpTo(COMMIT_SEARCH_MAX_LIMIT))
    .addHelpText("after", '\nExample:\n  codebase-copilot commits "fix cookie parsing" --repo hono --since 2024-01-01 --author yusuke')
    .action(async (words: string[], o: CommitFlags, cmd: Command) => {
      if (o.ref && !o.repo)
        throw new UsageError("--ref needs --repo (the ref of which repo?): pass --repo <id> too, or leave out --ref to search every tracked ref.");
      const g = globals(cmd);
      const s = await withHint(() => client(g).searchCommits({ q: words.join(" "), ...o }));
      print(g, s, () => formatCommitSearch(s));
      if (s.commits.length === 0) process.exitCode = EXIT.noMatch;
    });
}

/** Parsed options of `commits` (the route's names). */
type CommitFlags = Omit<CommitSearchQuery, "q">;
