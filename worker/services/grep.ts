/**
 * @module worker/services/grep
 *
 * `grep(ctx, input)`: exact (literal) and regex search over the active snapshots of one repo, a
 * list of repos, or every repo the caller may see, with complete, ordered results (repo, path,
 * line), unlike the ranked `search`. The zod schemas `grepInput` / `grepOutput` are shared by
 * REST (worker/api/routes/grep.ts) and MCP (worker/mcp/tools/grep.ts). Visibility is per repo
 * as everywhere: a repo the caller may not see answers like a missing one and never counts.
 *
 * Bounded: a regex's program is capped (worker/search/grep/pattern-cost.ts), a path glob's
 * wildcards are capped (worker/search/path-glob.ts), and each call stops at its wall-clock budget
 * (`config.grepTimeBudgetMs`) with a truncated page and a cursor; its rate-limit units grow with
 * the work it did (`grepWorkUnits`), docs/grep.md.
 *
 * Errors: `invalid_input` (bad fields, a regex syntax error naming its position, a too costly
 * pattern or glob naming the limit, a bad cursor or one of another query: worker/services/grep-cursor.ts),
 * `repo_not_found`, `index_not_ready` (a named repo without a snapshot), `forbidden`,
 * `ref_not_found` (a named repo without `ref`, or no repo in scope with it; worker/services/refs.ts).
 */
import { z } from "zod";
import { KNOWN_LANGUAGES } from "../../indexer/chunk/languages";
import { shardDb } from "../../indexer/store/shards";
import { CodeSearchError } from "../../kernel/errors";
import { chargeExtraWork, grepWorkUnits } from "../auth/rate-limit";
import { compilePattern } from "../search/grep/matcher";
import { GREP_LINE_MAX_CHARS, runGrep } from "../search/grep/run";
import { canSee, requireScope, type RepoVisibility, type ServiceContext } from "./context";
import { activeRepo, repoIdSchema } from "./files";
import { decodeGrepCursor, encodeGrepCursor, grepQueryKey } from "./grep-cursor";
import { noRepoHasRef, refColumns, refSchema, resolveRefs, snapshotRefField, withoutRefField, type RefRepoRow, type RefSnapshot } from "./refs";

/** Longest pattern accepted, characters (re2js compiles it; RE2's own repeat limit is 1000). */
export const GREP_MAX_PATTERN_CHARS = 1_000;
/** Most matching lines per page. */
export const GREP_MAX_LIMIT = 500;
/** Default matching lines per page. */
export const GREP_DEFAULT_LIMIT = 50;
/** Largest `offset`; deeper pages use `cursor`, which resumes without re-verifying earlier files. */
export const GREP_MAX_OFFSET = 100_000;
/** Most repos named in one grep. */
export const GREP_MAX_REPOS = 50;

/** Input of `grep`. */
export const grepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .max(GREP_MAX_PATTERN_CHARS)
    .describe(
      "Text to find: a literal string (default) or, with regex: true, an RE2 regular expression (no backreferences or lookaround). Matches never span lines.",
    ),
  regex: z.boolean().default(false).describe("Treat pattern as a regular expression (RE2 syntax, linear time). Default false: literal text."),
  case_sensitive: z.boolean().default(true).describe("Match case exactly (default true, as grep and ripgrep)."),
  whole_word: z.boolean().default(false).describe("Only matches with a word boundary (\\b) on both sides."),
  repo: repoIdSchema.optional().describe("Grep only this repo."),
  repos: z.array(repoIdSchema).min(1).max(GREP_MAX_REPOS).optional().describe("Grep these repos. Without repo and repos, every repo you can see."),
  ref: refSchema.optional().describe("Branch or tag to grep in each repo; repos without it are listed in withoutRef."),
  path: z.string().min(1).max(1024).optional().describe('Only these paths: a prefix ("src/router/") or a glob ("**/*.proto", "src/**/*.{ts,tsx}").'),
  language: z
    .string()
    .trim()
    .toLowerCase()
    .refine((l) => KNOWN_LANGUAGES.includes(l), { message: `unknown language; use one of ${KNOWN_LANGUAGES.join(", ")}` })
    .optional()
    .describe('Only files of this language, e.g. "python".'),
  include_tests: z.boolean().default(true).describe("Include test files (default true: grep is complete)."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(GREP_MAX_LIMIT)
    .default(GREP_DEFAULT_LIMIT)
    .describe(`Matching lines per page, 1-${GREP_MAX_LIMIT} (default ${GREP_DEFAULT_LIMIT}).`),
  offset: z.number().int().min(0).max(GREP_MAX_OFFSET).default(0).describe("Matching lines to skip (from next_offset). For deep pages prefer cursor."),
  cursor: z.string().min(1).max(2048).optional().describe("next_cursor of the previous page: resumes exactly there (offset is then ignored)."),
});
export type GrepInput = z.input<typeof grepInput>;

const rangeSchema = z.tuple([z.number().int(), z.number().int()]);

/** One matching line. */
export const grepMatchSchema = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  path: z.string(),
  line: z.number().int().describe("1-based line number."),
  column: z.number().int().describe("1-based column of the first match in the line (UTF-16 code units)."),
  text: z.string().describe(`The line, cut to ${GREP_LINE_MAX_CHARS} characters around the first match (… marks a cut).`),
  ranges: z.array(rangeSchema).describe("The matches within text: [start, end) offsets (0-based, UTF-16)."),
  symbol: z
    .object({ name: z.string(), kind: z.string(), container: z.string().nullable(), startLine: z.number().int(), endLine: z.number().int() })
    .nullable()
    .describe("The innermost indexed definition enclosing the line, if any."),
});
export type GrepMatchOut = z.infer<typeof grepMatchSchema>;

/** Output of `grep`. */
export const grepOutput = z.object({
  matches: z.array(grepMatchSchema),
  offset: z.number().int().describe("Index of this page's first match among all matching lines (0-based)."),
  total_count: z.number().int().describe("Matching lines in all (exact when total_exact; else a lower bound)."),
  total_exact: z.boolean(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  next_cursor: z.string().nullable().describe("Pass as cursor to get the next page."),
  index: z
    .enum(["trigram", "scan"])
    .describe("trigram: candidate files came from the trigram index; scan: the pattern has no literal of 3+ characters, so files were scanned."),
  scan_capped: z.boolean().describe("The scan (index: scan) stopped at its size budget: narrow with path or language, or add a literal to the pattern."),
  truncated: z.boolean().describe("The page may lack matches (the byte or wall-clock budget was reached first, docs/grep.md); continue with next_cursor."),
  filesScanned: z.number().int(),
  candidateFiles: z.number().int(),
  bytesScanned: z.number().int(),
  repos: z.array(z.string()),
  notReady: z.array(z.string()).describe("Repos in scope without a completed index yet (not searched)."),
  withoutRef: withoutRefField,
  tookMs: z.number(),
});
export type GrepOutput = z.infer<typeof grepOutput>;

/**
 * The repos to grep at `ref` (default: each one's default ref), visible to the caller, with
 * their snapshots; repos without a snapshot, or without `ref`, are listed apart (a named repo
 * throws instead, as `activeRepo`; `ref_not_found` when no repo has `ref`).
 */
async function scope(
  ctx: ServiceContext,
  repo: string | undefined,
  repos: string[] | undefined,
  ref: string | undefined,
): Promise<{ ready: RefSnapshot[]; notReady: string[]; withoutRef: string[] }> {
  if (repo !== undefined && repos !== undefined) throw new CodeSearchError("invalid_input", "repo, repos: pass repo (one repo) or repos (a list), not both.");
  if (repo !== undefined) {
    const snap = await activeRepo(ctx, repo, ref); // repo_not_found / index_not_ready / ref_not_found
    return { ready: [snap], notReady: [], withoutRef: [] };
  }
  // One read of every repo, filtered here: binding the visible ids in an IN list broke past
  // D1's 100 bound parameters (a caller seeing 100+ repos got an internal error).
  const { results: all } = await ctx.env.DB.prepare(
    `SELECT id, status, active_commit, active_indexed_at, withdrawn_at, visibility, shard, moving_to, ${refColumns()} FROM repos ORDER BY id`,
  ).all<RepoVisibility & RefRepoRow>();
  const visible = all.filter((r) => canSee(ctx.caller, r));
  const named = repos ? new Set(repos) : null;
  if (named) {
    const unknown = [...named].sort().find((r) => !visible.some((v) => v.id === r));
    if (unknown) await activeRepo(ctx, unknown); // throws repo_not_found naming the repos the caller may see
  }
  const results = named ? visible.filter((r) => named.has(r.id)) : visible;
  if (!results.length) throw new CodeSearchError("repo_not_found", "No repos are indexed yet; register one with POST /api/repos.");
  const { snapshots, missing, notReady } = await resolveRefs(ctx, results, ref);
  if (ref !== undefined && !snapshots.length && missing.length) throw noRepoHasRef(ref, missing);
  return { ready: snapshots, notReady: notReady.map((r) => r.id), withoutRef: missing.map((m) => m.repo) };
}

/**
 * Greps; see `grepInput` for the fields and `grepOutput` for the answer. Matching lines come in
 * (repo, path, line) order; each page holds at most `limit`. Throws as the module note says.
 */
export async function grep(ctx: ServiceContext, raw: GrepInput): Promise<GrepOutput> {
  requireScope(ctx.caller, "search");
  const started = Date.now();
  const parsed = grepInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CodeSearchError("invalid_input", `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`);
  }
  const input = parsed.data;
  // The pattern is checked before any repo is read: a syntax error answers the same everywhere.
  const pattern = compilePattern({ pattern: input.pattern, regex: input.regex, caseSensitive: input.case_sensitive, wholeWord: input.whole_word });
  // The cursor holds the query's key: one passed with another query (say, without its ref) is refused.
  const key = await grepQueryKey(input);
  const cursor = input.cursor === undefined ? undefined : decodeGrepCursor(input.cursor, key);
  const { ready, notReady, withoutRef } = await scope(ctx, input.repo, input.repos, input.ref);
  const snaps = new Map(ready.map((x) => [x.id, x]));
  const shards = new Map(ready.map((x) => [x.id, x.shard]));
  const r = await runGrep((id) => shardDb(ctx.env, shards.get(id) ?? 0), {
    pattern,
    caseSensitive: input.case_sensitive,
    repos: ready,
    path: input.path,
    language: input.language,
    includeTests: input.include_tests,
    limit: input.limit,
    offset: input.offset,
    cursor,
    deadline: started + ctx.config.grepTimeBudgetMs,
  });
  const tookMs = Date.now() - started;
  await chargeExtraWork(ctx.env, ctx.caller, grepWorkUnits(r.bytesScanned, tookMs));
  return {
    matches: r.matches.map((m) => ({ ...m, ref: snaps.get(m.repo)!.ref, commit: snaps.get(m.repo)!.commit })),
    offset: cursor ? cursor.n : input.offset,
    total_count: r.totalCount,
    total_exact: r.totalExact,
    has_more: r.hasMore,
    next_offset: r.nextOffset,
    next_cursor: r.nextCursor ? encodeGrepCursor(r.nextCursor, key) : null,
    index: r.index,
    scan_capped: r.scanCapped,
    truncated: r.truncated,
    filesScanned: r.filesScanned,
    candidateFiles: r.candidateFiles,
    bytesScanned: r.bytesScanned,
    repos: ready.map((x) => x.id),
    notReady,
    ...(withoutRef.length ? { withoutRef } : {}),
    tookMs,
  };
}
