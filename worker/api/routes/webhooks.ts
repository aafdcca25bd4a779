/**
 * @module worker/api/routes/webhooks
 *
 *   POST /api/webhooks/github[?repo={id} | ?connection={id}]   X-GitHub-Event, X-Hub-Signature-256, X-GitHub-Delivery
 *   POST /api/webhooks/gitlab[?repo={id} | ?connection={id}]   X-Gitlab-Event, X-Gitlab-Token, X-Gitlab-Event-UUID
 *     -> 200 {ok, event: "ping"} | 202 {accepted: [...]} | 202 {ignored: reason} | 200 {duplicate}
 *     -> 401 bad signature/token, 413 body over 1 MiB
 *
 * Authenticated by the delivery's signature (worker/webhooks/handle.ts), not by a bearer token:
 * mounted by worker/api/app.ts before the auth middleware.
 *
 *   POST   /api/repos/{id}/webhook   -> 201 {secret, github: {payloadUrl, ...}, gitlab: {url, ...}} (shown once; rotates)
 *   GET    /api/repos/{id}/webhook   -> {configured, createdAt}
 *   DELETE /api/repos/{id}/webhook   -> {deleted}
 *
 * Managing secrets needs `admin` (worker/auth/route-scopes.ts); mounted after the auth middleware.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import { handleWebhook, type Provider } from "../../webhooks/handle";
import { createWebhook, deleteWebhook, getWebhook, webhookCreatedSchema, webhookInfoSchema } from "../../webhooks/secrets";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoIdParams } from "../openapi/route-kit";

const deliveryAnswer = z.record(z.string(), z.unknown()).describe('{ok, event: "ping"} | {accepted: [...]} | {ignored: reason} | {duplicate}');

function deliveryRoute(provider: Provider) {
  return createRoute({
    method: "post",
    path: `/${provider}`,
    tags: ["webhooks"],
    summary: provider === "github" ? "GitHub push delivery, verified by X-Hub-Signature-256" : "GitLab push delivery, verified by X-Gitlab-Token",
    request: {
      // No declared body: the raw bytes are what the signature covers, read by handleWebhook.
      query: z.object({
        repo: z.string().optional().describe("Repo id; default: matched by the payload's repository URL"),
        connection: z.string().optional().describe("Connection id (an organisation or group webhook): its repos, matched by the payload's repository URL"),
      }),
    },
    responses: {
      200: jsonResponse(deliveryAnswer, "ping answered, or a delivery id already seen"),
      202: jsonResponse(deliveryAnswer, "A refresh started, or the event was ignored with the reason"),
      401: errorDoc("Bad signature or token: nothing happened", "unauthorized"),
      ...(provider === "github"
        ? { 403: errorDoc("A pull_request naming another GitHub repository than the one the repo was registered from", "forbidden") }
        : {}),
      413: errorDoc("Body over 1 MiB", "payload_too_large"),
    },
  });
}

/** The delivery routes (no bearer auth: the signature authenticates). */
export function webhookRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  for (const provider of ["github", "gitlab"] as Provider[]) {
    app.openapi(deliveryRoute(provider), async (c) => {
      // The raw body is what the signature covers: read it here, not through a JSON validator.
      const r = await handleWebhook(c.env, provider, c.req.raw, c.req.query("repo") ?? null, Date.now(), c.req.query("connection") ?? null, c.executionCtx);
      return c.json(r.body, r.status as 200);
    });
  }
  return app;
}

const unknownRepo = errorDoc("No such repo, or not one you can see", "repo_not_found");
const createRouteDef = createRoute({
  method: "post",
  path: "/{id}/webhook",
  tags: ["webhooks"],
  summary: "Create or rotate the repo's webhook secret (shown once) with the GitHub and GitLab settings",
  request: { params: repoIdParams },
  responses: { 201: jsonResponse(webhookCreatedSchema, "The secret, once, and where to paste it"), 404: unknownRepo },
});
const getRouteDef = createRoute({
  method: "get",
  path: "/{id}/webhook",
  tags: ["webhooks"],
  summary: "Whether the repo has a webhook secret (never the secret)",
  request: { params: repoIdParams },
  responses: { 200: jsonResponse(webhookInfoSchema, "Configured or not"), 404: unknownRepo },
});
const deleteRouteDef = createRoute({
  method: "delete",
  path: "/{id}/webhook",
  tags: ["webhooks"],
  summary: "Remove the repo's webhook secret",
  request: { params: repoIdParams },
  responses: { 200: jsonResponse(z.object({ deleted: z.string() }), "Removed"), 404: unknownRepo },
});

/** The secret management routes under /api/repos (after the auth middleware). */
export function repoWebhookRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(createRouteDef, async (c) =>
    c.json(await createWebhook(serviceContext(c.env, c.var.caller), c.req.valid("param").id, new URL(c.req.url).origin), 201),
  );
  app.openapi(getRouteDef, async (c) => c.json(await getWebhook(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  app.openapi(deleteRouteDef, async (c) => c.json(await deleteWebhook(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  return app;
}
