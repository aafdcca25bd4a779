/**
 * @module worker/api/routes/webhooks
 *
 *   POST /api/webhooks/github[?repo={id}]   X-GitHub-Event, X-Hub-Signature-256, X-GitHub-Delivery
 *   POST /api/webhooks/gitlab[?repo={id}]   X-Gitlab-Event, X-Gitlab-Token, X-Gitlab-Event-UUID
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
import { Hono } from "hono";
import { serviceContext } from "../../services/context";
import { handleWebhook, type Provider } from "../../webhooks/handle";
import { createWebhook, deleteWebhook, getWebhook } from "../../webhooks/secrets";
import type { ApiEnv } from "../app";

/** The delivery routes (no bearer auth). */
export function webhookRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  for (const provider of ["github", "gitlab"] as Provider[]) {
    app.post(`/${provider}`, async (c) => {
      const r = await handleWebhook(c.env, provider, c.req.raw, c.req.query("repo") ?? null);
      return c.json(r.body, r.status);
    });
  }
  return app;
}

/** The secret management routes under /api/repos (after the auth middleware). */
export function repoWebhookRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post("/:id/webhook", async (c) => c.json(await createWebhook(serviceContext(c.env, c.var.caller), c.req.param("id"), new URL(c.req.url).origin), 201));
  app.get("/:id/webhook", async (c) => c.json(await getWebhook(serviceContext(c.env, c.var.caller), c.req.param("id"))));
  app.delete("/:id/webhook", async (c) => c.json(await deleteWebhook(serviceContext(c.env, c.var.caller), c.req.param("id"))));
  return app;
}
