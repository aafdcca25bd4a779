/**
 * @module worker/services/repo-row
 *
 * What the repo management services (repos.ts, repo-archive.ts, repo-delete.ts) share: the repo
 * id rule, a repo's coordinator, and its `repos` row as the caller may see it.
 */
import { z } from "zod";
import { CodeSearchError } from "../../kernel/errors";
import type { RepoRow } from "./repo-status";
import { canSee, type ServiceContext } from "./context";

/** Repo ids: lowercase letters, digits, `.`, `_`, `-`; 1-64 chars, starting with a letter or digit. */
export const REPO_ID_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** REPO_ID_RE in words, for error messages (the CLI's bin/lib/repo-id.ts states the same rule). */
export const REPO_ID_RULE = "1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit (e.g. \"my-repo\")";

/** The repo's RepoCoordinator stub. */
export function coordinator(ctx: ServiceContext, repo: string) {
  return ctx.env.REPO_COORDINATOR.get(ctx.env.REPO_COORDINATOR.idFromName(repo));
}

/** The repo's `repos` row when the caller may see it; throws `repo_not_found` otherwise. */
export async function getRow(ctx: ServiceContext, repo: string): Promise<RepoRow> {
  const row = await ctx.env.DB.prepare("SELECT * FROM repos WHERE id = ?").bind(repo).first<RepoRow>();
  if (!row || !canSee(ctx.caller, row)) throw new CodeSearchError("repo_not_found", `No repo "${repo}"; GET /api/repos lists the repos you can see.`);
  return row;
}

/** Input naming one repo. */
export const repoIdInput = z.object({ repo: z.string().min(1).max(64).describe('Repo id, e.g. "hono".') });
export type RepoIdInput = z.infer<typeof repoIdInput>;
