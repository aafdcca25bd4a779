/**
 * @module worker/services/repos
 *
 * Repo management shared by REST (worker/api/routes/repos.ts) and MCP tools: register a git
 * repo, upload an archive (repo-archive.ts), list, status, refresh, delete (repo-delete.ts). Each function takes a
 * `ServiceContext`, checks scopes (`index` to change, `search` to read) and visibility, and
 * validates input with the zod schemas exported here.
 *
 * A git URL is checked synchronously (an ls-remote: reachable, a git repository, the ref
 * exists) so that those mistakes come back as 4xx at once; the fetch and indexing then run in
 * the repo's RepoCoordinator. The D1 `repos` row is created before the job starts and its
 * `status` mirrors the coordinator's; no snapshot is visible until a job completes.
 */
import { z } from "zod";
import type { JobView, RepoSettings } from "../../kernel/coordinator";
import { listRemoteRefs, parseGitUrl, resolveRef } from "../../indexer/source/git";
import { checkPatterns } from "../../indexer/source/ref-patterns";
import { refsInput } from "./repo-refs";
import { placeRepo } from "../../indexer/store/shard-placement";
import { loadConfig, type Env } from "../../kernel/env";
import { CodeSearchError } from "../../kernel/errors";
import { visibleRepoIds } from "./files";
import { repoStatusSchema, type RepoStatus } from "./repo-status-schema";
import { fullStatus, indexTotals, statusOf, type RepoRow } from "./repo-status";
import { listRefsOfRepos } from "../../indexer/store/d1/repo-refs";
import { callerAllows, requireScope, type ServiceContext } from "./context";
import { coordinator, getRow, REPO_ID_RE, REPO_ID_RULE, repoIdInput, type RepoIdInput } from "./repo-row";

export { REPO_ID_RE, REPO_ID_RULE, repoIdInput, type RepoIdInput } from "./repo-row";
export { ARCHIVE_MAX_UPLOAD_BYTES, uploadArchive, uploadArchiveInput, type UploadArchiveInput } from "./repo-archive";
export { deleteRepo, removeRepo } from "./repo-delete";

/** Input of `registerRepo` (`POST /api/repos`; there is no MCP tool that adds a repo). */
export const registerRepoInput = z.object({
  url: z.string().min(1).max(2048).describe("http(s) git URL, e.g. https://github.com/honojs/hono.git"),
  ref: z.string().min(1).max(255).optional().describe("Branch, tag or commit SHA; default: the remote's HEAD."),
  name: z.string().min(1).max(64).optional().describe("Repo id to use; default: derived from the URL (its last path segment)."),
  token: z.string().min(1).max(1024).optional().describe("Access token for a private repository (stored encrypted in the repo's coordinator, never returned)."),
  username: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'User name sent with the token over HTTP basic auth; default "x-access-token" (GitHub, GitLab, Bitbucket Cloud accept any). Also taken from a URL of the form https://alice:token@host/repo.git.',
    ),
  authScheme: z.enum(["basic", "bearer"]).optional().describe('"basic" (default) or "bearer" for hosts that only take `Authorization: Bearer <token>`.'),
  refs: refsInput.optional(),
});
type RegisterRepoInput = z.infer<typeof registerRepoInput>;

/** Input of `refreshRepo`: optionally switch to another ref (and give a token for it). */
export const refreshRepoInput = repoIdInput.extend({
  ref: z.string().min(1).max(255).optional().describe("Index this ref from now on instead of the current one."),
  token: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("Replaces the stored access token, once an ls-remote with it succeeded (a wrong token is refused and the stored one kept)."),
  username: registerRepoInput.shape.username,
  authScheme: registerRepoInput.shape.authScheme,
});
type RefreshRepoInput = z.infer<typeof refreshRepoInput>;

export { repoStatusSchema, type RepoStatus };

/** Derives a repo id from a git URL's last path segment: `https://h/o/My_Repo.git` -> `my_repo`. */
export function repoIdFromUrl(url: string): string {
  const last = new URL(url).pathname.split("/").filter(Boolean).pop() ?? "";
  return slugRepoId(last.replace(/\.git$/i, "")) || slugRepoId(new URL(url).hostname);
}

/** Lowercases and replaces characters outside `[a-z0-9._-]`; "" when nothing usable is left. */
export function slugRepoId(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/[-.]+$/, "");
}

/**
 * Registers a git repo and starts its first index job. Throws `invalid_input` (URL, id),
 * `forbidden`, `repo_exists`, and from the remote check `source_unreachable` (one neutral
 * message for unreachable, slow and non-git hosts), `ref_not_found`. Returns the repo's status (status `queued`).
 */
export async function registerRepo(ctx: ServiceContext, input: RegisterRepoInput): Promise<RepoStatus> {
  requireScope(ctx.caller, "index");
  const policy = { allowLoopback: loadConfig(ctx.env).allowLoopbackGitUrls };
  const { url, token: urlToken, username: urlUsername } = parseGitUrl(input.url, policy);
  // An explicit name is the id as given (the rule of the archive route and the CLI); only an id
  // derived from the URL is normalised, since a URL's last segment is often "My_Repo.git".
  if (input.name !== undefined && !REPO_ID_RE.test(input.name)) {
    throw new CodeSearchError("invalid_input", `name: "${input.name}" is not a valid repo id: ${REPO_ID_RULE}.`);
  }
  const id = input.name ?? repoIdFromUrl(url);
  if (!REPO_ID_RE.test(id)) throw new CodeSearchError("invalid_input", `name: the URL ${url} does not give a usable repo id; pass a "name": ${REPO_ID_RULE}.`);
  if (!callerAllows(ctx.caller, id)) throw new CodeSearchError("forbidden", `Your token is limited to other repos than "${id}".`);
  const exists = await ctx.env.DB.prepare("SELECT 1 AS x FROM repos WHERE id = ?").bind(id).first();
  if (exists) throw new CodeSearchError("repo_exists", `Repo "${id}" already exists; POST /api/repos/${id}/refresh re-indexes it, or pass another "name".`);
  const token = input.token ?? urlToken;
  const username = input.username ?? urlUsername;
  // One ls-remote checks the ref and the refs to track before anything is written.
  const listing = await listRemoteRefs({ url, token, username, authScheme: input.authScheme, limits: policy });
  const resolved = resolveRef(listing, input.ref, url);
  const refPatterns = input.refs?.length ? checkPatterns(input.refs, listing.refs, resolved.ref, loadConfig(ctx.env).maxRefsPerRepo) : [];
  const job = await startGitRepo(ctx.env, {
    id,
    name: input.name ?? id,
    url,
    ref: input.ref ?? null,
    token,
    username,
    authScheme: input.authScheme,
    refPatterns,
  });
  if (!job) throw new CodeSearchError("repo_exists", `Repo "${id}" was just registered by another request.`);
  return fullStatus(ctx, await getRow(ctx, id), job);
}

/** What `startGitRepo` registers. `url` must already have passed `parseGitUrl`. */
export interface NewGitRepo {
  id: string;
  name: string;
  url: string;
  ref: string | null;
  token?: string;
  username?: string;
  authScheme?: "basic" | "bearer";
  /** Initial `last_checked_at` (ms): the first job is the check, so the next tick need not ask again. */
  checkedAt?: number;
  /** `repos.visibility` (migration 0027): the code host's for a connection's repo; default `everyone`. */
  visibility?: string;
  /** Extra refs to track, normalised (`checkPatterns`; docs/refs.md); their jobs queue behind the first one. */
  refPatterns?: string[];
}

/**
 * Inserts the `repos` row (status `queued`) and asks the repo's coordinator for its first job.
 * Returns null, and does nothing, when the id is taken. No access checks: callers check scopes
 * (registerRepo; connection syncs run as the connection, worker/connections/sync.ts).
 */
export async function startGitRepo(env: Env, r: NewGitRepo): Promise<JobView | null> {
  const now = Date.now();
  const inserted = await env.DB.prepare(
    "INSERT INTO repos (id, name, source_kind, url, ref, status, created_at, updated_at, last_checked_at, visibility, ref_patterns) VALUES (?, ?, 'git', ?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
  )
    .bind(r.id, r.name, r.url, r.ref, now, now, r.checkedAt ?? null, r.visibility ?? "everyone", JSON.stringify(r.refPatterns ?? []))
    .run();
  if (!inserted.meta.changes) return null;
  await placeRepo(env, r.id);
  const settings: RepoSettings = {
    repo: r.id,
    sourceKind: "git",
    url: r.url,
    ref: r.ref,
    ...(r.token ? { token: r.token } : {}),
    ...(r.username ? { username: r.username } : {}),
    ...(r.authScheme ? { authScheme: r.authScheme } : {}),
  };
  const coordinator = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName(r.id));
  const job = await coordinator.requestIndex(settings);
  if (r.refPatterns?.length) {
    // Queued behind the first job; a failing ls-remote here leaves them to the next scheduled check.
    const synced = await coordinator.syncRefs(null);
    if ("error" in synced) console.warn(`repo ${r.id}: tracking refs failed: ${synced.error.message}`);
  }
  return job;
}

/**
 * Lists the repos the caller can see, each with the same fields as `getRepoStatus` (the
 * coordinators are asked in parallel, one RPC per repo).
 */
export async function listRepos(ctx: ServiceContext): Promise<{ repos: RepoStatus[] }> {
  requireScope(ctx.caller, "search");
  const ids = await visibleRepoIds(ctx);
  // Jobs before rows, as in getRepoStatus: a job seen `ready` has flipped its row already.
  const jobs = await Promise.all(ids.map((id) => coordinator(ctx, id).status()));
  const rows = new Map<string, RepoRow>();
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const r = await ctx.env.DB.prepare(`SELECT * FROM repos WHERE id IN (${part.map(() => "?").join(", ")})`)
      .bind(...part)
      .all<RepoRow>();
    for (const row of r.results) rows.set(row.id, row);
  }
  const present = ids.flatMap((id, i) => (rows.has(id) ? [{ row: rows.get(id)!, job: jobs[i] }] : []));
  const [totals, refs] = await Promise.all([
    indexTotals(
      ctx,
      present.map((p) => p.row),
    ),
    listRefsOfRepos(
      ctx.env.DB,
      present.map((p) => p.row.id),
    ),
  ]);
  return { repos: present.map(({ row, job }) => statusOf(row, job, totals.get(row.id) ?? null, refs.get(row.id) ?? [])) };
}

/** Full status of one repo, with the coordinator's live progress. Throws `repo_not_found`. */
export async function getRepoStatus(ctx: ServiceContext, { repo }: RepoIdInput): Promise<RepoStatus> {
  requireScope(ctx.caller, "search");
  await getRow(ctx, repo); // visibility and existence first
  // The job before the row: a job seen `ready` has flipped the row already, never the reverse.
  const job = await coordinator(ctx, repo).status();
  return fullStatus(ctx, await getRow(ctx, repo), job);
}

/**
 * Re-indexes a git repo (its stored ref, or `ref` from now on). An unchanged commit completes
 * without processing a file. While a job runs, one follow-up is queued (`pending`). A new
 * `ref`, `token`, `username` or `authScheme` is first tried with an ls-remote in the repo's
 * coordinator (which holds the stored token) and only then stored, so a mistyped token never
 * replaces a good one. Throws `repo_not_found`, `invalid_input` for archive repos (upload
 * again instead), and the remote check's errors (`source_unreachable` says whether the token
 * was rejected or missing).
 */
export async function refreshRepo(ctx: ServiceContext, input: RefreshRepoInput): Promise<RepoStatus> {
  requireScope(ctx.caller, "index");
  const row = await getRow(ctx, input.repo);
  if (row.source_kind !== "git" || !row.url) {
    throw new CodeSearchError(
      "invalid_input",
      `Repo "${row.id}" was uploaded as an archive; upload a new archive to POST /api/repos/${row.id}/archive instead.`,
    );
  }
  const ref = input.ref ?? row.ref;
  const changesSource = input.ref !== undefined || input.token !== undefined || input.username !== undefined || input.authScheme !== undefined;
  if (changesSource) {
    const checked = await coordinator(ctx, row.id).checkSource({ ref, token: input.token, username: input.username, authScheme: input.authScheme });
    if ("error" in checked) throw new CodeSearchError(checked.error.code === "repo_not_found" ? "invalid_input" : checked.error.code, checked.error.message);
  }
  if (input.ref !== undefined && input.ref !== row.ref) {
    await ctx.env.DB.prepare("UPDATE repos SET ref = ?, updated_at = ? WHERE id = ?").bind(input.ref, Date.now(), row.id).run();
  }
  const settings: RepoSettings = {
    repo: row.id,
    sourceKind: "git",
    url: row.url,
    ref,
    ...(input.token ? { token: input.token } : {}),
    ...(input.username ? { username: input.username } : {}),
    ...(input.authScheme ? { authScheme: input.authScheme } : {}),
  };
  const job = await coordinator(ctx, row.id).requestIndex(settings);
  return fullStatus(ctx, await getRow(ctx, row.id), job);
}
