/**
 * @module worker/api/routes/webhooks-pull-request
 *
 *   POST /api/webhooks/github/pull-request?repo={id}   X-GitHub-Event, X-Hub-Signature-256
 *     -> 202 {accepted} | 202 {ignored} | 200 {duplicate} | 200 {ok, event: "ping"}
 *     -> 400 no ?repo=, 401 bad signature, 404 unknown repo, 413 too large, 503 not configured
 *
 * Authenticated by the delivery's signature (worker/webhooks/pull-request.ts), not by a bearer
 * token: mounted by worker/api/app.ts before the auth middleware. A separate path from the push
 * webhooks (POST /api/webhooks/github, another branch) so the two can be reconciled into one
 * handler that dispatches on X-GitHub-Event.
 */
import { Hono } from "hono";
import { handlePullRequestWebhook } from "../../webhooks/pull-request";
import type { ApiEnv } from "../app";

/** The pull-request delivery route. */
export function pullRequestWebhookRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post("/", async (c) => {
    const r = await handlePullRequestWebhook(c.env, c.req.raw, c.req.query("repo") ?? null, c.executionCtx);
    return c.json(r.body, r.status);
  });
  return app;
}
