/**
 * @module worker/services/repo-archive
 *
 * `uploadArchive`: index an uploaded archive (tar.gz, tar or zip) as a repo, shared by REST
 * (`POST /api/repos/{id}/archive`) and the CLI; re-exported by worker/services/repos.ts.
 */
import { z } from "zod";
import type { RepoSettings } from "../../kernel/coordinator";
import { MAX_STRIP_COMPONENTS } from "../../indexer/source/archive-paths";
import { CodeSearchError } from "../../kernel/errors";
import { callerAllows, requireScope, type ServiceContext } from "./context";
import { fullStatus } from "./repo-status";
import type { RepoStatus } from "./repo-status-schema";
import { coordinator, getRow, REPO_ID_RE, REPO_ID_RULE, repoIdInput } from "./repo-row";

/** Largest archive upload (compressed bytes). The expanded size is capped by the archive reader. */
export const ARCHIVE_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/**
 * Input of `uploadArchive`: the repo id, the top-folder rule (`?strip=`, alias
 * `?strip_components=`) and who applied `.gitignore` (`?gitignore=`).
 */
export const uploadArchiveInput = repoIdInput.extend({
  gitignore: z
    .enum(["apply", "applied"])
    .optional()
    .describe(
      '"apply" (default): the server applies the tree\'s .gitignore files. "applied": the client listed the files with git (`git ls-files -co --exclude-standard`, as npm start does), so tracked files that a .gitignore matches are kept, as git keeps them.',
    ),
  strip: z
    .union([z.literal("auto"), z.coerce.number().int().min(0).max(MAX_STRIP_COMPONENTS)])
    .optional()
    .describe(`"auto" (default: strip only a recognisable wrapper folder), or 0-${MAX_STRIP_COMPONENTS} leading folders to strip from every path.`),
});
export type UploadArchiveInput = z.infer<typeof uploadArchiveInput>;

/**
 * Indexes an uploaded archive (tar.gz, tar or zip) as repo `repo`, creating it (source kind
 * `archive`) when absent. Throws `invalid_input` (bad id or strip, or a git repo of that id),
 * `payload_too_large`, `archive_invalid`, `index_not_ready` (a job is running or another upload
 * is being read). The coordinator checks the whole archive before it creates the repo row or
 * replaces a job, so a rejected upload leaves nothing behind and an existing index untouched.
 */
export async function uploadArchive(
  ctx: ServiceContext,
  { repo, strip, gitignore }: UploadArchiveInput,
  body: ReadableStream<Uint8Array> | null,
  declaredBytes?: number,
): Promise<RepoStatus> {
  requireScope(ctx.caller, "index");
  if (!REPO_ID_RE.test(repo)) throw new CodeSearchError("invalid_input", `repo: "${repo}" is not a valid repo id: ${REPO_ID_RULE}.`);
  if (!callerAllows(ctx.caller, repo)) throw new CodeSearchError("forbidden", `Your token is limited to other repos than "${repo}".`);
  if (!body) throw new CodeSearchError("archive_invalid", "The request has no body; send the tar.gz or zip bytes as the body.");
  if (declaredBytes !== undefined && declaredBytes > ARCHIVE_MAX_UPLOAD_BYTES) {
    await body.cancel();
    throw new CodeSearchError(
      "payload_too_large",
      `The archive is ${declaredBytes} bytes; the limit is ${ARCHIVE_MAX_UPLOAD_BYTES}. Leave build output and dependencies out.`,
    );
  }
  const existing = await ctx.env.DB.prepare("SELECT source_kind FROM repos WHERE id = ?").bind(repo).first<{ source_kind: string }>();
  if (existing && existing.source_kind !== "archive") {
    await body.cancel();
    throw new CodeSearchError("invalid_input", `Repo "${repo}" is a git repo; use POST /api/repos/${repo}/refresh, or upload under another id.`);
  }
  const settings: RepoSettings = { repo, sourceKind: "archive", url: null, ref: null };
  const result = await coordinator(ctx, repo).requestArchive(settings, body, ARCHIVE_MAX_UPLOAD_BYTES, strip ?? "auto", gitignore === "applied");
  if ("error" in result) throw new CodeSearchError(result.error.code, result.error.message);
  return fullStatus(ctx, await getRow(ctx, repo), result);
}
