/**
 * @module worker/services/search
 *
 * `search(ctx, input)`: hybrid code search over one repo, a list of repos, or every repo the
 * caller may see. The zod schema `searchInput` is shared by REST (worker/api/routes/search.ts)
 * and MCP. Errors: `repo_not_found` (unknown or invisible repo), `index_not_ready` (no
 * snapshot yet), `invalid_input`, `ref_not_found` (a named repo without `ref`, or no repo in
 * scope with it; over several repos, those without it are reported in `stats.failedRepos`).
 */
import { LRUCache } from "lru-cache";
import { KNOWN_LANGUAGES } from "../../indexer/chunk/languages";
import { z } from "zod";
import { createEmbeddingProvider } from "../../indexer/embed";
import type { RepoPackage } from "../../indexer/store/contract";
import { CodeSearchError } from "../../kernel/errors";
import { searchModeSchema } from "../../kernel/search-options";
import { createGenerationProvider } from "../generation";
import { coalescingD1 } from "../search/d1-coalesce";
import { describeReading, readQuery } from "../search/language";
import { normalizePathFilter } from "../search/path-filter";
import { DEFAULT_FILE_CAP } from "../search/ranking/weights";
import { runSearch, type RepoTarget } from "../search/searcher";
import { packageReads, shardHandles } from "./search-shards";
import type { SearchResponse, StaleInfo } from "../search/types";
import { callerAllows, canSee, requireScope, type ServiceContext } from "./context";
import { activeRepo, repoIdSchema, visibleRepoIds } from "./files";
import { noRepoHasRef, refColumns, refSchema, resolveRefs, type RefMissing, type RefRepoRow, type RefSnapshot } from "./refs";

/** Longest query accepted, characters: room for a pasted bug report with a stack trace. */
export const SEARCH_MAX_QUERY_CHARS = 32_000;
/** Most results per search. */
export const SEARCH_MAX_K = 50;
/** Most repos named in one search. */
export const SEARCH_MAX_REPOS = 50;

/** The message for a missing or blank `q`, the one mistake every new client makes. */
const Q_REQUIRED = 'q (the query text) is required, e.g. {"q": "where are tokens refreshed"}; query is accepted as an alias.';

/** The message for a `q` over SEARCH_MAX_QUERY_CHARS. */
const Q_TOO_LONG = `q (the query text) is too long: at most ${SEARCH_MAX_QUERY_CHARS} characters; keep the part of a log or bug report that names the failure.`;

/** Input of `search` (REST query/body and MCP tool arguments). */
export const searchInput = z.object({
  q: z
    .string({ error: Q_REQUIRED })
    .trim()
    .min(1, { error: Q_REQUIRED })
    // Its own message: the schema-level one above would otherwise answer "required" for a too long q.
    .max(SEARCH_MAX_QUERY_CHARS, { error: Q_TOO_LONG })
    .describe(
      "What to find: a question, identifiers, an error message or a whole bug report. Paste stack traces whole (the file where one ends ranks higher) and write command-line options as --name (the file declaring one ranks higher).",
    ),
  repo: repoIdSchema.optional().describe("Search only this repo."),
  repos: z.array(repoIdSchema).min(1).max(SEARCH_MAX_REPOS).optional().describe("Search these repos. Without repo and repos, every repo you can see."),
  ref: refSchema.optional().describe("Branch or tag to search in each repo; repos without it are listed in stats.failedRepos."),
  k: z.number().int().min(1).max(SEARCH_MAX_K).default(10).describe("Results to return (default 10)."),
  mode: searchModeSchema,
  language: z
    .string()
    .trim()
    .toLowerCase()
    .refine((l) => KNOWN_LANGUAGES.includes(l), { message: `unknown language; use one of ${KNOWN_LANGUAGES.join(", ")}` })
    .optional()
    .describe('Only chunks of this language, e.g. "typescript".'),
  path_prefix: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe(
      'Only paths starting with this, e.g. "src/router/" (./src/, /src/ and src\\ mean the same), or matching a glob, e.g. "src/**/*.ts", "*.{ts,tsx}".',
    ),
  include_tests: z.boolean().optional().describe("Include test files. Default: only when the query mentions tests."),
  per_file_cap: z
    .number()
    .int()
    .min(0)
    .max(SEARCH_MAX_K)
    .default(DEFAULT_FILE_CAP)
    .describe("Most results per file before other files (default 2; a file's further results only fill a page the other files cannot; 0 = no cap)."),
  explain: z
    .boolean()
    .optional()
    .describe("Explain each result's rank: its rank in each channel, the fused score and each ranking stage's factor (docs/ranking.md)."),
  channels: z
    .array(z.enum(["bm25", "vector", "symbol", "path"]))
    .min(1)
    .max(4)
    .optional()
    .describe("Run exactly these channels (overrides mode; for evaluations)."),
});
/** What callers pass (defaults not yet applied). */
export type SearchInput = z.input<typeof searchInput>;
/** What `search` takes: `searchInput` parsed, defaults applied. */
export type SearchParams = z.output<typeof searchInput>;

/**
 * Repo ids to search. One named repo is returned unchecked: `search` reads its row anyway and
 * checks it there (one D1 round trip instead of two); lists are checked against what the caller
 * may see.
 */
async function targets(ctx: ServiceContext, input: SearchParams): Promise<{ ids: string[]; notReady: string[]; unchecked?: true }> {
  const named = input.repos ? [...new Set([...(input.repo ? [input.repo] : []), ...input.repos])] : input.repo ? [input.repo] : null;
  if (named?.length === 1) return { ids: named, notReady: [], unchecked: true };
  const visible = await visibleRepoIds(ctx);
  if (named) {
    const unknown = named.filter((r) => !visible.includes(r));
    if (unknown.length) await activeRepo(ctx, unknown[0]); // throws repo_not_found with the available list
  }
  const ids = named ?? visible;
  if (!ids.length) throw new CodeSearchError("repo_not_found", "No repos are indexed yet; register one with POST /api/repos.");
  return { ids, notReady: [] };
}

/**
 * The `packages` column of the repos read (a JSON array of `{name, folder}`, built by SQLite's
 * json_group_array) as RepoPackage rows; anything else gives none, so a bad row costs only the
 * node_modules frames of that repo, never the search.
 */
function parsePackages(json: string | null): RepoPackage[] {
  if (!json) return [];
  try {
    const rows: unknown = JSON.parse(json);
    if (!Array.isArray(rows)) return [];
    return rows.filter((r): r is RepoPackage => !!r && typeof r === "object" && typeof r.name === "string" && typeof r.folder === "string");
  } catch {
    return [];
  }
}

/**
 * The targets the last search of the same repos (by their ids) found, per isolate: a search
 * expects them again and starts its channels' reads with them before its repos read has answered
 * (runSearch, `expected`). A few small rows; a stale entry costs only that head start.
 */
const lastTargets = new LRUCache<string, RepoTarget[]>({ max: 64 });

function rememberTargets(key: string, found: RepoTarget[]): void {
  lastTargets.set(key, found);
}

/**
 * Searches; see `searchInput` for the fields (validated by the caller's boundary: the REST
 * route or the MCP SDK) and worker/search/types.ts for the response. Throws `invalid_input`
 * when `repo` and `repos` are both given (which one was meant is unclear).
 */
/** `path_prefix` as the searcher's filters: a normalized prefix or a glob (worker/search/path-filter.ts). */
function pathFilters(raw: string | undefined): { pathPrefix?: string; pathGlob?: string } {
  const f = raw === undefined ? null : normalizePathFilter(raw);
  if (!f) return {};
  return f.kind === "prefix" ? { pathPrefix: f.prefix } : { pathGlob: f.glob };
}

/**
 * Debug switches of a search, for evaluations (REST only, never MCP): `disableRules` turns report
 * rules off by id (worker/search/rules.ts). Honoured only for admin callers and only with
 * `explain`; otherwise `search` throws `forbidden` or `invalid_input`.
 */
export interface SearchDebug {
  disableRules?: readonly string[];
}

export async function search(ctx: ServiceContext, input: SearchParams, debug?: SearchDebug): Promise<SearchResponse> {
  requireScope(ctx.caller, "search");
  if (debug?.disableRules?.length) {
    if (!input.explain) throw new CodeSearchError("invalid_input", "disable_rules: pass explain: true with it (it is a debugging switch; docs/ranking.md).");
    requireScope(ctx.caller, "admin");
  }
  if (input.repo !== undefined && input.repos !== undefined) {
    throw new CodeSearchError(
      "invalid_input",
      `repo, repos: pass repo (one repo) or repos (a list), not both; e.g. repos: ${JSON.stringify([...new Set([input.repo, ...input.repos])])}.`,
    );
  }
  const { ids, unchecked } = await targets(ctx, input);
  // Each shard's reads (the packages below, the query's term statistics read in runSearch
  // meanwhile, then the channels) share a D1 round trip per shard.
  const db = coalescingD1(ctx.env.DB);
  const shards = shardHandles(ctx);
  const targetsKey = `${input.ref ?? ""}\0${ids.join("\0")}`;
  // Only repos the caller may see are read before the repos read has answered.
  const expected = ids.every((id) => callerAllows(ctx.caller, id)) ? lastTargets.get(targetsKey) : undefined;
  type RepoRow = RefRepoRow & {
    withdrawn_at: number | null;
    visibility: string;
    active_indexed_at: number | null;
    embedding_model: string | null;
    embedding_dims: number | null;
    last_error: string | null;
    failing_since: number | null;
  };
  const notReady: RepoRow[] = [];
  const withoutRef: RefMissing[] = [];
  const snapshots = new Map<string, RefSnapshot>();
  const stale = new Map<string, StaleInfo>();
  const ready = (async (): Promise<RepoTarget[]> => {
    const parts: string[][] = [];
    for (let i = 0; i < ids.length; i += 90) parts.push(ids.slice(i, i + 90));
    const reads = parts.map((part) =>
      db
        .prepare(
          "SELECT id, withdrawn_at, visibility, active_commit, active_indexed_at, status, embedding_model, embedding_dims, last_error, failing_since, shard, " +
            `${refColumns()} FROM repos WHERE id IN (${part.map(() => "?").join(", ")})`,
        )
        .bind(...part)
        .all<RepoRow>(),
    );
    // The packages of the shards the last search found start meanwhile; others follow the rows.
    const packages = packageReads(shards, ids);
    for (const t of expected ?? []) packages.start(t.shard ?? 0);
    const rows = (await Promise.all(reads)).flatMap((r) => r.results);
    if (unchecked && !(rows[0]?.active_commit && canSee(ctx.caller, rows[0]))) {
      await activeRepo(ctx, ids[0], input.ref); // throws repo_not_found / index_not_ready
    }
    const resolved = await resolveRefs(
      ctx,
      rows.filter((r) => canSee(ctx.caller, r)),
      input.ref,
    );
    // One named repo without the ref is the caller's mistake: the same 404 as every read.
    if (unchecked && resolved.missing.length) throw new CodeSearchError("ref_not_found", resolved.missing[0].reason);
    if (input.ref !== undefined && !resolved.snapshots.length && resolved.missing.length) throw noRepoHasRef(input.ref, resolved.missing);
    // Without a ref, a repo before its first snapshot; with one, a repo whose ref is its default one before that.
    notReady.push(...(input.ref === undefined ? rows.filter((r) => !r.active_commit) : resolved.notReady));
    withoutRef.push(...resolved.missing);
    const now = Date.now();
    for (const r of rows) {
      // A failing refresh of the default ref says its snapshot is stale; other refs keep their own state.
      if (r.active_commit && r.last_error && r.failing_since !== null && input.ref === undefined) {
        stale.set(r.id, { reason: r.last_error, since: r.failing_since, snapshotAge: Math.max(0, now - (r.active_indexed_at ?? now)) });
      }
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const found = await Promise.all(
      resolved.snapshots.map(async (s) => {
        snapshots.set(s.id, s);
        const r = byId.get(s.id)!;
        return {
          id: s.id,
          commit: s.commit,
          indexedAt: s.indexedAt,
          embeddingModel: r.embedding_model,
          embeddingDims: r.embedding_dims,
          packages: parsePackages(await packages.of(s.shard, s.id, s.commit)),
          shard: s.shard,
        };
      }),
    );
    if (!found.length) {
      throw new CodeSearchError(
        "index_not_ready",
        `No searched repo has a completed index yet (${notReady.map((r) => `${r.id}: ${r.status}`).join(", ")}); retry when indexing is done.`,
      );
    }
    rememberTargets(targetsKey, found);
    return found;
  })();
  // Every target names its shard, whose handles carry its vector index; `vectors` is only the fallback.
  const deps = { db, embedder: createEmbeddingProvider(ctx.env, ctx.config), vectors: shards(0).vectors, shards };
  // The language reader: a query in another language searches as English code words
  // (worker/search/language). A failed repos read meanwhile is handled when runSearch awaits it.
  ready.catch(() => {});
  const reading = await readQuery(input.q, {
    provider: () => createGenerationProvider(ctx.env, ctx.config),
    db: ctx.env.DB,
    identity: ctx.caller.id,
    dailyTokenBudget: ctx.config.generation.dailyTokenBudget,
  });
  const response = await runSearch(
    deps,
    ready,
    reading.englishText,
    {
      k: input.k,
      mode: input.mode,
      filters: { language: input.language, ...pathFilters(input.path_prefix), includeTests: input.include_tests },
      fileCap: input.per_file_cap,
      channels: input.channels,
      explain: input.explain,
      disabledRules: debug?.disableRules?.length ? new Set(debug.disableRules) : undefined,
    },
    expected,
  );
  const queryLanguage = describeReading(input.q, reading);
  if (queryLanguage) response.stats.queryLanguage = queryLanguage;
  for (const r of notReady) response.stats.failedRepos.push({ repo: r.id, error: `index_not_ready: status ${r.status}` });
  for (const m of withoutRef) response.stats.failedRepos.push({ repo: m.repo, error: `ref_not_found: ${m.reason}` });
  const named = (h: SearchResponse["results"][number]) => ({ ...h, ref: snapshots.get(h.repo)?.ref ?? null, commit: snapshots.get(h.repo)?.commit });
  return { ...response, results: response.results.map((h) => (stale.has(h.repo) ? { ...named(h), stale: stale.get(h.repo) } : named(h))) };
}
