/**
 * @module worker/api/routes/repos
 *
 *   POST   /api/repos                {url, ref?, name?, token?}  -> 202 {repo, job}
 *   GET    /api/repos                                            -> {repos: [status]}
 *   GET    /api/repos/{id}                                       -> status (progress, skipped, snapshot, lastError, job)
 *   POST   /api/repos/{id}/refresh   {ref?, token?} (optional)   -> 202 {repo, job}
 *   DELETE /api/repos/{id}                                       -> {deleted}
 *   GET    /api/repos/{id}/schedule                              -> {intervalSeconds, effectiveSeconds, lastCheckedAt}
 *   PUT    /api/repos/{id}/schedule  {intervalSeconds: n | 0 | null} -> same (0: off, null: default)
 *   POST   /api/repos/{id}/archive   body: tar.gz | tar | zip    -> 202 {repo, job}
 *          ?strip=auto|0..8 (alias strip_components): top folders to remove (default auto:
 *          only a recognisable wrapper, see indexer/source/archive-paths.ts)
 *
 * Thin adapters over worker/services/repos.ts. Status is polled: a job is done when `status`
 * is `ready` or `failed`.
 */
import { Hono } from "hono";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { deleteRepo, getRepoStatus, listRepos, refreshRepo, registerRepo, uploadArchive, type RepoStatus } from "../../services/repos";
import { getRepoSchedule, setRepoSchedule } from "../../services/schedule";
import type { ApiEnv } from "../app";

/** Reads an optional JSON object body; an empty body is `{}`. */
async function jsonObject(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CodeSearchError("invalid_input", 'body: expected a JSON object such as {"url": "https://github.com/owner/repo.git"}');
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new CodeSearchError("invalid_input", "body: expected a JSON object");
  return body as Record<string, unknown>;
}

const accepted = (status: RepoStatus) => ({ repo: status, job: status.job });

/** The /api/repos routes. Mounted by worker/api/app.ts after the auth middleware. */
export function repoRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post("/", async (c) => c.json(accepted(await registerRepo(serviceContext(c.env, c.var.caller), await jsonObject(c.req.raw))), 202));
  app.get("/", async (c) => c.json(await listRepos(serviceContext(c.env, c.var.caller))));
  app.get("/:id", async (c) => c.json(await getRepoStatus(serviceContext(c.env, c.var.caller), { repo: c.req.param("id") })));
  app.post("/:id/refresh", async (c) => {
    const body = await jsonObject(c.req.raw);
    return c.json(accepted(await refreshRepo(serviceContext(c.env, c.var.caller), { ...body, repo: c.req.param("id") })), 202);
  });
  app.get("/:id/schedule", async (c) => c.json(await getRepoSchedule(serviceContext(c.env, c.var.caller), c.req.param("id"))));
  app.put("/:id/schedule", async (c) => c.json(await setRepoSchedule(serviceContext(c.env, c.var.caller), c.req.param("id"), await jsonObject(c.req.raw))));
  app.delete("/:id", async (c) => c.json(await deleteRepo(serviceContext(c.env, c.var.caller), { repo: c.req.param("id") })));
  app.post("/:id/archive", async (c) => {
    const length = c.req.header("content-length");
    const strip = c.req.query("strip") ?? c.req.query("strip_components");
    const input = { repo: c.req.param("id"), ...(strip !== undefined ? { strip } : {}) };
    const status = await uploadArchive(serviceContext(c.env, c.var.caller), input, c.req.raw.body, length ? Number(length) : undefined);
    return c.json(accepted(status), 202);
  });
  return app;
}
