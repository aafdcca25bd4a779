/**
 * @module worker/services/history-schema
 *
 * Zod schemas of file history, blame and commit search (worker/services/history.ts,
 * history-commits.ts): the REST routes (worker/api/routes/history.ts) and the MCP tools
 * (`file_history`, `blame`, `search_commits`) share them. Lines are 1-based, inclusive.
 */
import { z } from "zod";
import { BLAME_MAX_LINES, COMMIT_SEARCH_MAX_LIMIT, HISTORY_MAX_LIMIT } from "../../kernel/history-limits";
import { repoIdSchema, repoPathSchema } from "./files";
import { refSchema } from "./refs";

// The limits live in kernel/ so the CLI checks the same numbers.
export { BLAME_MAX_LINES, COMMIT_SEARCH_MAX_LIMIT, HISTORY_MAX_LIMIT, HISTORY_TIME_BUDGET_MS } from "../../kernel/history-limits";

// Lines are 1-based everywhere (the first line is 1), so 0 is the likely mistake to explain.
const line = z.number().int("lines are whole numbers, 1-based (the first line is 1)").min(1, "lines are 1-based: the first line is 1, so give 1 or more");
const historyRef = refSchema
  .optional()
  .describe(
    'Branch or tag the repo tracks ("feature", "refs/tags/v2"), or its snapshot\'s commit SHA; default: the default branch. The walk starts at that ref\'s commit.',
  );
const answerRef = z.string().describe("The ref read (full name, `refs/heads/main`) and, in `commit`, the commit the walk started from.");

/**
 * `end` without `start` (it used to be dropped silently: the whole file's history came back).
 * Checked by `fileHistory`, not by a refinement here: the review agent shows this schema to the
 * model without its scope keys (`.omit`), which zod refuses on a refined object.
 */
export const END_NEEDS_START = "end needs start: give start too (start alone is one line), or neither for the whole file's history";

/** Input of `fileHistory`. */
export const fileHistoryInput = z.object({
  repo: repoIdSchema,
  path: repoPathSchema,
  start: line.optional().describe("First line of a range (1-based); with `end`. Without: the whole file's history."),
  end: line.optional().describe("Last line of the range (inclusive); default `start`."),
  ref: historyRef,
  limit: z
    .number()
    .int()
    .min(1, `give 1-${HISTORY_MAX_LIMIT} commits per page`)
    .max(HISTORY_MAX_LIMIT, `at most ${HISTORY_MAX_LIMIT} commits per page; pass next_cursor for the next page`)
    .default(20)
    .describe(`Commits per page (1-${HISTORY_MAX_LIMIT}, default 20).`),
  cursor: z
    .string()
    .regex(/^[0-9]{1,6}$/, "not a cursor this API gave: pass next_cursor from the previous page unchanged (or omit cursor for the first page)")
    .optional()
    .describe("`next_cursor` of the previous page."),
});
export type FileHistoryInput = z.input<typeof fileHistoryInput>;

/** Input of `blame`. */
export const blameInput = z.object({
  repo: repoIdSchema,
  path: repoPathSchema,
  start: line.optional().describe("First line (1-based); default 1."),
  end: line.optional().describe(`Last line (inclusive); default the file's last line. At most ${BLAME_MAX_LINES} lines per call.`),
  ref: historyRef,
});
export type BlameInput = z.input<typeof blameInput>;

/** A commit as history entries show it. `date`: the author date, ISO 8601 UTC. */
export const commitSummarySchema = z.object({
  sha: z.string(),
  author: z.object({ name: z.string(), email: z.string() }),
  date: z.string(),
  subject: z.string(),
});

/** A line range of a file at some commit. */
export const fileRangeSchema = z.object({ path: z.string(), start: z.number().int(), end: z.number().int() });

/** Why the recorded history is shorter than its depth (indexer/history/record.ts), or null. */
const historyLimitSchema = z
  .string()
  .nullable()
  .describe('why recorded history is shorter than `depth` ("history truncated at <sha>, because <budget>"), or null');

/** Output of `fileHistory`. */
export const fileHistoryOutput = z.object({
  repo: z.string(),
  path: z.string(),
  ref: answerRef,
  commit: z.string(),
  range: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
  commits: z.array(
    commitSummarySchema.extend({
      after: fileRangeSchema.nullable(),
      before: fileRangeSchema.nullable().describe("null: lines added"),
      path: z.string(),
    }),
  ),
  next_cursor: z.string().nullable(),
  truncated: z.boolean().describe("older history is beyond the kept depth"),
  depth: z.string(),
  history_limit: historyLimitSchema,
});
export type FileHistoryOutput = z.infer<typeof fileHistoryOutput>;

/** Output of `blame`: consecutive lines from the same commit are one range. */
export const blameOutput = z.object({
  repo: z.string(),
  path: z.string(),
  ref: answerRef,
  commit: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  ranges: z.array(
    commitSummarySchema.extend({
      start: z.number().int(),
      end: z.number().int(),
      origin: fileRangeSchema,
      boundary: z.boolean().describe("at least this old (depth limit)"),
    }),
  ),
  depth: z.string().describe("how deep history was fetched (HISTORY_DEPTH: commits, or days as `365d`)"),
  history_limit: historyLimitSchema,
});
export type BlameOutput = z.infer<typeof blameOutput>;

/**
 * Unix seconds of a `since`/`until` date (YYYY-MM-DD, read as UTC, or an ISO 8601 time); a bare
 * day as `until` means through its end. NaN when the text is no real date (month 13, Feb 30).
 */
export function unixOfDate(date: string, endOfDay: boolean): number {
  const day = date.length === 10;
  const ms = Date.parse(day ? `${date}T00:00:00Z` : date);
  // Date.parse takes any day up to 31 in any month (2026-02-30 is March 2): check it round-trips.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date.slice(0, 10)) return NaN;
  return Math.floor(ms / 1000) + (endOfDay && day ? 86_399 : 0);
}

const DATE_FORM = "use YYYY-MM-DD (e.g. 2026-01-31) or an ISO 8601 UTC time (2026-01-31T12:00:00Z)";
const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+Z?)?$/, `not a date; ${DATE_FORM}`)
  .refine((d) => !Number.isNaN(unixOfDate(d, false)), { error: (iss) => `${JSON.stringify(iss.input)} is not a real date; ${DATE_FORM}` })
  .optional();

/** Input of `searchCommits`. */
export const searchCommitsInput = z.object({
  q: z.string().min(1).max(500).describe("Words to find in commit subjects and bodies (BM25, subject weighted 3x)."),
  repo: repoIdSchema.optional().describe("Only this repo; default every repo you may see that keeps history."),
  author: z.string().min(1).max(200).optional().describe("Author name or e-mail contains this (any case)."),
  since: dateSchema.describe("Authored on or after (YYYY-MM-DD or ISO time, UTC)."),
  until: dateSchema.describe("Authored on or before (YYYY-MM-DD: through that day, UTC)."),
  ref: refSchema
    .optional()
    .describe(
      "Only commits reachable from this tracked ref (branch, tag, or its commit SHA) of `repo` (needs `repo`). Without: every stored commit of every tracked ref of the repos searched.",
    ),
  limit: z.number().int().min(1).max(COMMIT_SEARCH_MAX_LIMIT).default(10).describe(`Commits to return (1-${COMMIT_SEARCH_MAX_LIMIT}, default 10).`),
});
export type SearchCommitsInput = z.input<typeof searchCommitsInput>;

/** Output of `searchCommits`. */
export const searchCommitsOutput = z.object({
  commits: z.array(commitSummarySchema.extend({ repo: z.string(), body: z.string(), score: z.number() })),
  repos: z.array(z.string()),
  ref: z.string().nullable().describe("With `ref`: the ref searched (full name); null: every tracked ref's commits."),
  commit: z.string().nullable().describe("With `ref`: its commit, from which the searched commits are reachable; else null."),
});
export type SearchCommitsOutput = z.infer<typeof searchCommitsOutput>;
