/**
 * @module worker/services/skipped
 *
 * The files of a repo's served snapshot that are not indexed, with reason and rule
 * (`skipped_files`, written when the snapshot was activated): the answer to "why is this file
 * not found?". Shared by `GET /api/repos/{id}/skipped` and the MCP `get_index_status` pointer;
 * request and response are the zod schemas below.
 */
import { z } from "zod";
import { shardDb } from "../../indexer/store/shards";
import { SKIP_REASONS } from "../../indexer/filter/skip-reason";
import { CodeSearchError } from "../../kernel/errors";
import { canSee, requireScope, type RepoVisibility, type ServiceContext } from "./context";
import { refColumns, refSchema, resolveRef, type RefRepoRow } from "./refs";

/** Rows per page (default and most). */
export const SKIPPED_PAGE_DEFAULT = 100;
export const SKIPPED_PAGE_MAX = 500;

/** Reasons the listing holds: the filter's (files the chunker failed on are counted in the status only). */
const reasons: [string, ...string[]] = [SKIP_REASONS[0], ...SKIP_REASONS.slice(1)];

/** Input of `listSkippedFiles` (`?reason=&offset=&limit=`). */
export const listSkippedInput = z.object({
  repo: z.string().min(1).max(64).describe('Repo id, e.g. "hono".'),
  ref: refSchema.optional(),
  reason: z
    .enum(reasons)
    .optional()
    .describe(`Only this reason: ${reasons.join(", ")}.`),
  offset: z.coerce.number().int().min(0).default(0).describe("Rows to skip (pagination; use nextOffset)."),
  limit: z.coerce.number().int().min(1).max(SKIPPED_PAGE_MAX).default(SKIPPED_PAGE_DEFAULT).describe(`Rows per page, at most ${SKIPPED_PAGE_MAX}.`),
});

/** One skipped file: repo-relative path, reason, and the rule id that decided (never file content). */
export const skippedFileSchema = z.object({ path: z.string(), reason: z.string(), rule: z.string() });

/** A page of skipped files of the served snapshot, sorted by path. */
export const skippedPageSchema = z.object({
  repo: z.string(),
  /** The ref the rows describe (full name); null for an archive upload, or before the first snapshot. */
  ref: z.string().nullable(),
  /** The snapshot the rows describe; null before the first snapshot. */
  commit: z.string().nullable(),
  reason: z.string().nullable(),
  /** Rows matching `reason` in the snapshot. */
  total: z.number(),
  offset: z.number(),
  /** Offset of the next page, or null on the last one. */
  nextOffset: z.number().nullable(),
  files: z.array(skippedFileSchema),
});
export type SkippedPage = z.infer<typeof skippedPageSchema>;

/** Path of the REST listing, for messages and the MCP pointer. */
export function skippedListPath(repo: string): string {
  return `/api/repos/${encodeURIComponent(repo)}/skipped`;
}

/**
 * Lists the served snapshot's skipped files. Needs the `index` scope (it names paths the
 * search side never shows, such as credential files). Throws `invalid_input`, `forbidden`,
 * `repo_not_found`, and as `resolveRef` (worker/services/refs.ts) for `ref`.
 */
export async function listSkippedFiles(ctx: ServiceContext, raw: unknown): Promise<SkippedPage> {
  requireScope(ctx.caller, "index");
  const parsed = listSkippedInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CodeSearchError("invalid_input", `${String(issue?.path[0] ?? "input")}: ${issue?.message}`);
  }
  const { repo, reason, offset, limit } = parsed.data;
  const row = await ctx.env.DB.prepare(`SELECT id, withdrawn_at, visibility, status, active_commit, shard, moving_to, ${refColumns()} FROM repos WHERE id = ?`)
    .bind(repo)
    .first<RepoVisibility & RefRepoRow>();
  if (!row || !canSee(ctx.caller, row)) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  if (!row.active_commit && parsed.data.ref === undefined)
    return { repo, ref: null, commit: null, reason: reason ?? null, total: 0, offset, nextOffset: null, files: [] };
  const snap = await resolveRef(ctx, row, parsed.data.ref);
  const commit = snap.commit;
  const where = `repo = ?1 AND commit_sha = ?2${reason ? " AND reason = ?3" : ""}`;
  const binds = reason ? [repo, commit, reason] : [repo, commit];
  const db = shardDb(ctx.env, snap.shard);
  const [count, page] = await db.batch<{ n?: number; path?: string; reason?: string; rule?: string }>([
    db.prepare(`SELECT count(*) AS n FROM skipped_files WHERE ${where}`).bind(...binds),
    db.prepare(`SELECT path, reason, rule FROM skipped_files WHERE ${where} ORDER BY path LIMIT ${limit} OFFSET ${offset}`).bind(...binds),
  ]);
  const total = count.results[0]?.n ?? 0;
  const files = page.results.map((r) => ({ path: r.path!, reason: r.reason!, rule: r.rule! }));
  return {
    repo,
    ref: snap.ref,
    commit,
    reason: reason ?? null,
    total,
    offset,
    nextOffset: offset + files.length < total ? offset + files.length : null,
    files,
  };
}
