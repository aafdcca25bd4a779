/**
 * @module worker/api/routes/shards
 *
 *   POST /api/repos/{id}/move  {shard}  -> 202 {repo, job}  (admin) re-index into shard, then flip
 *   GET  /api/health/shards             -> {highWaterBytes, shards: [{shard, binding, bytes, repos, full, vectorIndex, vectors}], vectorIndexWarnVectors, warnings} (admin)
 *
 * Thin adapters over worker/services/shards.ts (docs/storage.md, "Shards").
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import { repoStatusSchema } from "../../services/repos";
import { moveRepo, moveRepoInput, shardHealth, shardHealthSchema } from "../../services/shards";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoIdParams } from "../openapi/route-kit";
import { jsonBody } from "../validation";

const moveRoute = createRoute({
  method: "post",
  path: "/{id}/move",
  tags: ["repos"],
  summary: "Move a repo to another shard: re-index it there, flip, delete the old copy",
  description:
    "The current shard serves until the new copy's job completes; status `placement.movingTo` names the target meanwhile. Git repos only; refused while a job runs or when the target is past its high-water mark.",
  middleware: [jsonBody('{"shard": 1}')] as const,
  // Checked by the service after the access check: a caller who may not see the repo learns nothing from a 400.
  request: { params: repoIdParams, body: { content: { "application/json": { schema: moveRepoInput.omit({ repo: true }).partial() } }, required: false } },
  responses: {
    202: jsonResponse(
      z.object({ repo: repoStatusSchema, job: repoStatusSchema.shape.job }),
      "Moving; poll GET /api/repos/{id} until placement.movingTo is null",
    ),
    400: errorDoc("No such shard, the shard is full or already holds the repo, an archive repo, or a job is running", "invalid_input"),
    404: errorDoc("No such repo, or not one you can see", "repo_not_found"),
  },
});

const healthRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["health"],
  summary: "Each shard's size and repos, and which are past the high-water mark",
  responses: { 200: jsonResponse(shardHealthSchema, "The shards, in order") },
});

/** `POST /{id}/move`, mounted under /api/repos. */
export function moveRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(moveRoute, async (c) => {
    const status = await moveRepo(serviceContext(c.env, c.var.caller), { repo: c.req.valid("param").id, ...(c.req.valid("json") ?? {}) });
    return c.json({ repo: status, job: status.job }, 202);
  });
  return app;
}

/** `GET /`, mounted at /api/health/shards (behind authentication, unlike /api/health). */
export function shardHealthRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(healthRoute, async (c) => c.json(await shardHealth(serviceContext(c.env, c.var.caller)), 200));
  return app;
}
