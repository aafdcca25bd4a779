/**
 * @module worker/api/routes/repos
 *
 *   POST   /api/repos                {url, ref?, name?, token?}  -> 202 {repo, job}
 *   GET    /api/repos                                            -> {repos: [status]}
 *   GET    /api/repos/{id}                                       -> status (progress, skipped, snapshot, lastError, job)
 *   POST   /api/repos/{id}/refresh   {ref?, token?} (optional)   -> 202 {repo, job}
 *   DELETE /api/repos/{id}                                       -> {deleted}
 *   PATCH  /api/repos/{id}           {access?: "everyone" | {users, teams}, refs?: [name | glob]} -> {repo, visibility?, access?, refs?}
 *                                    (access: admin; refs: index scope, git repos only; docs/refs.md)
 *   GET    /api/repos/{id}/access                               -> {repo, visibility, access, followsCodeHost} (admin)
 *   GET    /api/repos/{id}/schedule                              -> {intervalSeconds, effectiveSeconds, lastCheckedAt}
 *   PUT    /api/repos/{id}/schedule  {intervalSeconds: n | 0 | null} -> same (0: off, null: default)
 *   GET    /api/repos/{id}/skipped   ?reason=&offset=&limit=     -> {files: [{path, reason, rule}], total, nextOffset}
 *   POST   /api/repos/{id}/archive   body: tar.gz | tar | zip    -> 202 {repo, job}
 *          ?strip=auto|0..8 (alias strip_components): top folders to remove (default auto:
 *          only a recognisable wrapper, see indexer/source/archive-paths.ts)
 *          ?gitignore=apply|applied: "applied" when the client listed the files with git
 *          (tracked files are kept even when a .gitignore matches them)
 *
 * Thin adapters over worker/services/repos.ts. Status is polled: a job is done when `status`
 * is `ready` or `failed`.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { parseOrThrow } from "../../../kernel/validation";
import { CodeSearchError } from "../../../kernel/errors";
import { ARCHIVE_REFS_NOTE } from "../../services/repo-status";
import { serviceContext } from "../../services/context";
import {
  deleteRepo,
  getRepoStatus,
  listRepos,
  refreshRepo,
  refreshRepoInput,
  registerRepo,
  registerRepoInput,
  repoStatusSchema,
  uploadArchive,
  uploadArchiveInput,
  type RepoStatus,
} from "../../services/repos";
import { listSkippedFiles, listSkippedInput, skippedPageSchema } from "../../services/skipped";
import { getRepoSchedule, repoScheduleInput, repoScheduleSchema, setRepoSchedule } from "../../services/schedule";
import { patchRepo, repoPatchInput, repoPatchSchema } from "../../services/repo-refs";
import { getRepoAccess, repoAccessReadSchema } from "../../services/repo-access";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoIdParams } from "../openapi/route-kit";
import { jsonBody, queryOptional } from "../validation";

const accepted = (status: RepoStatus) => ({ repo: status, job: status.job });
const acceptedSchema = z.object({ repo: repoStatusSchema, job: repoStatusSchema.shape.job });
const unknownRepo = errorDoc("No such repo, or not one you can see", "repo_not_found");
const sourceErrors = {
  400: errorDoc("Invalid input, or the source is not a usable git repository", "invalid_input", "not_a_repository"),
  404: errorDoc("The ref asked for does not exist at the remote; the message names its branches", "ref_not_found"),
  422: errorDoc("The git remote could not be reached", "source_unreachable"),
};

const registerRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["repos"],
  summary: "Register a git repository and start indexing it",
  middleware: [jsonBody('{"url": "https://github.com/owner/repo.git"}')] as const,
  request: { body: { content: { "application/json": { schema: registerRepoInput } }, required: true } },
  responses: {
    202: jsonResponse(acceptedSchema, "Registered; poll GET /api/repos/{id} until ready or failed"),
    409: errorDoc("The repo id is taken", "repo_exists"),
    ...sourceErrors,
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["repos"],
  summary: "List the repos you can see, with their status",
  responses: { 200: jsonResponse(z.object({ repos: z.array(repoStatusSchema) }), "Every visible repo") },
});

const statusRoute = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["repos"],
  summary: "A repo's status: progress, skipped files, snapshot, last error, job",
  request: { params: repoIdParams },
  responses: { 200: jsonResponse(repoStatusSchema, "The repo's status"), 404: unknownRepo },
});

const refreshRoute = createRoute({
  method: "post",
  path: "/{id}/refresh",
  tags: ["repos"],
  summary: "Re-index a git repo (optionally at another ref)",
  middleware: [jsonBody('{"ref": "main"}')] as const,
  request: { params: repoIdParams, body: { content: { "application/json": { schema: refreshRepoInput.omit({ repo: true }) } }, required: false } },
  responses: {
    202: jsonResponse(acceptedSchema, "Re-indexing (or the running job)"),
    ...sourceErrors,
    404: errorDoc("No such repo (or not one you can see), or the ref does not exist at the remote", "repo_not_found", "ref_not_found"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["repos"],
  summary: "Delete a repo and its whole index",
  request: { params: repoIdParams },
  responses: { 200: jsonResponse(z.object({ deleted: z.string() }), "Deleted"), 404: unknownRepo },
});

const strip = uploadArchiveInput.shape.strip;
const archiveRoute = createRoute({
  method: "post",
  path: "/{id}/archive",
  tags: ["repos"],
  summary: "Index an uploaded archive (tar.gz, tar or zip) as repo {id}",
  request: {
    params: repoIdParams,
    query: z.object({
      strip: queryOptional(strip),
      strip_components: z.string().optional().describe("Alias of strip."),
      gitignore: queryOptional(uploadArchiveInput.shape.gitignore),
      refs: z.string().optional().describe("Refused: an archive is one snapshot and has no refs."),
      ref: z.string().optional().describe("Refused: an archive is one snapshot and has no refs."),
    }),
    body: {
      content: { "application/octet-stream": { schema: z.string().meta({ format: "binary" }).describe("The archive's bytes: tar.gz, tar or zip") } },
      required: true,
    },
  },
  responses: {
    202: jsonResponse(acceptedSchema, "Accepted; poll GET /api/repos/{id}"),
    400: errorDoc("Invalid id, strip or archive", "invalid_input", "archive_invalid"),
    409: errorDoc("A job is running or another upload is being read", "index_not_ready"),
    413: errorDoc("The archive is too large", "payload_too_large"),
  },
});

const getScheduleRoute = createRoute({
  method: "get",
  path: "/{id}/schedule",
  tags: ["repos"],
  summary: "The repo's scheduled remote check: its interval and the last check",
  request: { params: repoIdParams },
  responses: { 200: jsonResponse(repoScheduleSchema, "The schedule"), 404: unknownRepo },
});

const putScheduleRoute = createRoute({
  method: "put",
  path: "/{id}/schedule",
  tags: ["repos"],
  summary: "Set the repo's check interval (0 off, null default)",
  middleware: [jsonBody('{"intervalSeconds": 3600}')] as const,
  request: { params: repoIdParams, body: { content: { "application/json": { schema: repoScheduleInput } }, required: true } },
  responses: { 200: jsonResponse(repoScheduleSchema, "The new schedule"), 404: unknownRepo },
});

const patchRoute = createRoute({
  method: "patch",
  path: "/{id}",
  tags: ["repos"],
  summary: "Set who may read a repo (access, admin) and which refs it tracks besides its default branch (refs)",
  middleware: [jsonBody('{"refs": ["release/*", "v2.*"]}')] as const,
  request: { params: repoIdParams, body: { content: { "application/json": { schema: repoPatchInput } }, required: true } },
  responses: {
    200: jsonResponse(repoPatchSchema, "The repo's access and/or tracked refs"),
    400: errorDoc(
      "Invalid access list, a repo whose readers follow its code host, a ref pattern that matches nothing, more refs than MAX_REFS_PER_REPO, or refs on an archive",
      "invalid_input",
    ),
    404: unknownRepo,
    422: errorDoc("The git remote could not be reached", "source_unreachable"),
  },
});

const accessRoute = createRoute({
  method: "get",
  path: "/{id}/access",
  tags: ["repos"],
  summary: "Who may read a repo: the access list PATCH /api/repos/{id} sets (admin)",
  request: { params: repoIdParams },
  responses: {
    200: jsonResponse(repoAccessReadSchema, "The repo's access"),
    403: errorDoc("Not an admin, or a token limited to other repos", "forbidden"),
    404: unknownRepo,
  },
});

const skippedRoute = createRoute({
  method: "get",
  path: "/{id}/skipped",
  tags: ["repos"],
  summary: "Files the served snapshot left out, with reason and rule (paginated)",
  request: { params: repoIdParams, query: listSkippedInput.omit({ repo: true }).partial() },
  responses: {
    200: jsonResponse(skippedPageSchema, "One page of skipped files"),
    400: errorDoc("Invalid parameter, or a ref on an archive upload (archives have no refs)", "invalid_input"),
    404: errorDoc("No such repo (or not one you can see), or a ref it does not track", "repo_not_found", "ref_not_found"),
  },
});

/** The /api/repos routes. Mounted by worker/api/app.ts after the auth middleware. */
export function repoRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(registerRoute, async (c) => c.json(accepted(await registerRepo(serviceContext(c.env, c.var.caller), c.req.valid("json"))), 202));
  app.openapi(listRoute, async (c) => c.json(await listRepos(serviceContext(c.env, c.var.caller)), 200));
  app.openapi(statusRoute, async (c) => c.json(await getRepoStatus(serviceContext(c.env, c.var.caller), { repo: c.req.valid("param").id }), 200));
  app.openapi(refreshRoute, async (c) => {
    const input = { ...c.req.valid("json"), repo: c.req.valid("param").id };
    return c.json(accepted(await refreshRepo(serviceContext(c.env, c.var.caller), input)), 202);
  });
  app.openapi(getScheduleRoute, async (c) => c.json(await getRepoSchedule(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  app.openapi(putScheduleRoute, async (c) =>
    c.json(await setRepoSchedule(serviceContext(c.env, c.var.caller), c.req.valid("param").id, c.req.valid("json")), 200),
  );
  app.openapi(skippedRoute, async (c) =>
    c.json(await listSkippedFiles(serviceContext(c.env, c.var.caller), { ...c.req.valid("query"), repo: c.req.valid("param").id }), 200),
  );
  // Validated by the service (one message for REST, the web page and tests).
  app.openapi(patchRoute, async (c) => c.json(await patchRepo(serviceContext(c.env, c.var.caller), c.req.valid("param").id, await c.req.json()), 200));
  app.openapi(accessRoute, async (c) => c.json(await getRepoAccess(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  app.openapi(deleteRoute, async (c) => c.json(await deleteRepo(serviceContext(c.env, c.var.caller), { repo: c.req.valid("param").id }), 200));
  app.openapi(archiveRoute, async (c) => {
    const length = c.req.header("content-length");
    const q = c.req.valid("query");
    // The alias is checked as `strip`, the name the message should use.
    if (q.refs !== undefined || q.ref !== undefined) throw new CodeSearchError("invalid_input", `refs: ${ARCHIVE_REFS_NOTE}.`);
    const input = {
      repo: c.req.valid("param").id,
      strip: q.strip ?? parseOrThrow(queryOptional(strip), q.strip_components, {}, "strip"),
      gitignore: q.gitignore,
    };
    const status = await uploadArchive(serviceContext(c.env, c.var.caller), input, c.req.raw.body, length ? Number(length) : undefined);
    return c.json(accepted(status), 202);
  });
  return app;
}
