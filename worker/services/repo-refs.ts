/**
 * @module worker/services/repo-refs
 *
 * Which refs a git repo tracks (docs/refs.md), shared by REST (`PATCH /api/repos/{id}` with
 * `refs`, `POST /api/repos` with `refs`) and the CLI: the zod schemas, and `trackRefs`, which
 * hands the patterns to the repo's coordinator. The coordinator checks them against the remote
 * (it holds the token), stores them, and queues a job per new or moved ref. Archives have no refs.
 * (The read side, resolving a `ref` argument to a snapshot, is worker/services/refs.ts.)
 */
import { z } from "zod";
import type { RefSyncResult } from "../../kernel/coordinator";
import { CodeSearchError } from "../../kernel/errors";
import { parseOrThrow } from "../../kernel/validation";
import { REF_PATTERN_MAX } from "../../indexer/source/ref-patterns";
import { repoAccessInput, repoAccessSchema, setRepoAccess, type RepoAccess } from "./repo-access";
import { ARCHIVE_REFS_NOTE } from "./repo-status";
import { callerAllows, canSee, requireScope, type ServiceContext } from "./context";

/**
 * Most entries in one `refs` list. The refs they match are bounded by MAX_REFS_PER_REPO (default
 * 10, the default branch included); this bounds the request itself.
 */
export const REFS_INPUT_MAX = 50;

/** The `refs` field of `POST /api/repos` and `PATCH /api/repos/{id}`. */
export const refsInput = z
  .array(z.string().min(1).max(REF_PATTERN_MAX))
  .max(REFS_INPUT_MAX)
  .describe(
    "Refs to track besides the default branch: names or globs (`feature`, `release/*`, `v2.*`, or full `refs/heads/...`, `refs/tags/...`). " +
      "Short names resolve as git does (a branch first, then a tag); `*` stops at `/`. At most MAX_REFS_PER_REPO refs in all (default 10, the default branch included). " +
      "Replaces the tracked list; [] tracks the default branch only. Not for archive uploads.",
  );

/** One tracked ref as `trackRefs` answers it. */
const syncedRefSchema = z.object({
  name: z.string(),
  pattern: z.string(),
  commit: z.string().describe("Its commit on the remote."),
  action: z.enum(["queued", "unchanged"]).describe("queued: a job was started or queued for it; unchanged: its snapshot is at that commit."),
});

/** What tracking changed (`PATCH /api/repos/{id}` with `refs`). */
export const refSyncSchema = z
  .object({
    patterns: z.array(z.string()).describe("The stored patterns, normalised to full names or globs."),
    defaultRef: z.string().describe("The default ref's full name on the remote (tracked anyway)."),
    refs: z.array(syncedRefSchema),
    removed: z.array(z.string()).describe("Refs no longer tracked: their snapshots and the files only they used are deleted."),
    overLimit: z.array(z.string()),
  })
  .meta({ id: "RefSync" });

/** Body of `PATCH /api/repos/{id}`: `access` (admin), `refs` (index scope), or both. */
export const repoPatchInput = z
  .object({ access: repoAccessInput.shape.access.optional(), refs: refsInput.optional() })
  .refine((b) => b.access !== undefined || b.refs !== undefined, { message: 'give "access" or "refs"' });

/** What `PATCH /api/repos/{id}` answers: the access and/or the tracking it set. */
export const repoPatchSchema = z
  .object({
    repo: z.string(),
    visibility: z.string().optional(),
    access: repoAccessSchema.shape.access.optional(),
    refs: refSyncSchema.optional(),
  })
  .meta({ id: "RepoPatch" });
export type RepoPatch = z.infer<typeof repoPatchSchema>;

/** The repo's row when the caller may see it; throws `repo_not_found` otherwise. */
async function visibleGitOrArchive(ctx: ServiceContext, repo: string): Promise<{ id: string; source_kind: string }> {
  const row = callerAllows(ctx.caller, repo)
    ? await ctx.env.DB.prepare("SELECT id, source_kind, visibility, withdrawn_at FROM repos WHERE id = ?")
        .bind(repo)
        .first<{ id: string; source_kind: string; visibility: string; withdrawn_at: number | null }>()
    : null;
  if (!row || !canSee(ctx.caller, row)) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  return row;
}

/**
 * Sets the extra refs git repo `repo` tracks (needs `index`). Throws `repo_not_found`,
 * `forbidden`, `invalid_input` (an archive: "archive: no refs"; a pattern that matches nothing;
 * more refs than MAX_REFS_PER_REPO), and the ls-remote's `source_unreachable`.
 */
export async function trackRefs(ctx: ServiceContext, repo: string, refs: string[]): Promise<RefSyncResult> {
  requireScope(ctx.caller, "index");
  const row = await visibleGitOrArchive(ctx, repo);
  if (row.source_kind !== "git") throw new CodeSearchError("invalid_input", `refs: ${ARCHIVE_REFS_NOTE}.`);
  const result = await ctx.env.REPO_COORDINATOR.get(ctx.env.REPO_COORDINATOR.idFromName(repo)).syncRefs(refs);
  if ("error" in result) throw new CodeSearchError(result.error.code, result.error.message);
  return result;
}

/** `PATCH /api/repos/{id}`: who may read the repo (`access`, admin) and which refs it tracks (`refs`). */
export async function patchRepo(ctx: ServiceContext, repo: string, body: unknown): Promise<RepoPatch> {
  // Who may change the repo first (403 / 404), so that a body never tells about a repo one cannot see.
  requireScope(ctx.caller, "index");
  await visibleGitOrArchive(ctx, repo);
  const input = parseOrThrow(repoPatchInput, body, {}, "body");
  // Both checked before either is written: an access change needs admin, refs the remote.
  if (input.access !== undefined) requireScope(ctx.caller, "admin");
  const refs = input.refs !== undefined ? await trackRefs(ctx, repo, input.refs) : undefined;
  let access: RepoAccess | null = null;
  if (input.access !== undefined) access = await setRepoAccess(ctx, repo, { access: input.access });
  return { repo, ...(access ? { visibility: access.visibility, access: access.access } : {}), ...(refs ? { refs } : {}) };
}
