/**
 * @module worker/api/routes/webhooks-pull-request
 *
 *   POST /api/webhooks/github/pull-request?repo={id}   X-GitHub-Event, X-Hub-Signature-256
 *     -> 202 {accepted} | 202 {ignored} | 200 {duplicate} | 200 {ok, event: "ping"}
 *     -> 400 no ?repo=, 401 bad signature, 404 unknown repo, 413 too large, 503 not configured
 *
 * Authenticated by the delivery's signature (worker/webhooks/pull-request.ts), not by a bearer
 * token: mounted by worker/api/app.ts before the auth middleware. Kept for existing installs:
 * POST /api/webhooks/github takes pull_request deliveries too, under the same per-repo or
 * per-connection secret as pushes.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { handlePullRequestWebhook } from "../../webhooks/pull-request";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";

const deliveryAnswer = z.record(z.string(), z.unknown()).describe('{ok, event: "ping"} | {accepted} | {ignored: reason} | {duplicate}');

const pullRequestRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["webhooks"],
  summary: "GitHub pull_request delivery (opened, synchronize), verified by X-Hub-Signature-256: reviews the PR and posts one review",
  // No declared body: the raw bytes are what the signature covers.
  request: {
    query: z.object({
      repo: z.string().optional().describe("Repo id the pull request belongs to"),
      connection: z.string().optional().describe("Connection id: the repo is the one of its repos the payload's repository URL names"),
    }),
  },
  responses: {
    200: jsonResponse(deliveryAnswer, "ping, or a head commit already reviewed"),
    202: jsonResponse(deliveryAnswer, "Accepted: the review runs after the answer, or ignored with the reason"),
    401: errorDoc("Bad signature: nothing happened", "unauthorized"),
    403: errorDoc("The payload names another GitHub repository than the one the repo was registered from", "forbidden"),
    413: errorDoc("Body over 1 MiB", "payload_too_large"),
  },
});

/** The pull-request delivery route. */
export function pullRequestWebhookRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(pullRequestRoute, async (c) => {
    const r = await handlePullRequestWebhook(c.env, c.req.raw, c.req.query("repo") ?? null, c.executionCtx, c.req.query("connection") ?? null);
    return c.json(r.body, r.status as 200);
  });
  return app;
}
