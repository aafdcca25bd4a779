/**
 * @module worker/api/routes/review
 *
 *   POST /api/review  {repo, diff} | {repo, paths}
 *
 * Answers `ReviewOutput` (worker/services/review-schema.ts) as JSON: status, summary, grounded
 * findings, rejected findings with reasons, the tool-call log, usage and cost, model and prompt
 * versions. Needs the `index` scope (the auth floor of a POST outside the search routes). Spends
 * model tokens from the caller's daily budget.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { serviceContext } from "../../services/context";
import { review, type ReviewDeps } from "../../services/review";
import { reviewInput, reviewOutput, type ReviewInput } from "../../services/review-schema";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";
import { jsonBody } from "../validation";

const reviewRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["review"],
  summary: "Review a diff or whole files with a model over the index; findings pinned to real lines (spends model tokens)",
  middleware: [jsonBody('{"repo": "hono", "diff": "<git diff output>"} or {"repo": "hono", "paths": ["src/a.ts"]}')] as const,
  request: { body: { content: { "application/json": { schema: reviewInput } }, required: true } },
  responses: {
    200: jsonResponse(reviewOutput, "The review: status, summary, grounded and rejected findings, tool calls, usage"),
    404: errorDoc("No such repo (or not one you can see), or a ref it does not track", "repo_not_found", "ref_not_found"),
    429: errorDoc("The daily token budget is spent; see Retry-After", "budget_exhausted"),
    502: errorDoc("The model API failed", "generation_failed"),
    503: errorDoc("No generation provider is configured", "generation_unavailable"),
  },
});

/** The /api/review route. `deps` is a test seam (a scripted provider). */
export function reviewRoutes(deps: ReviewDeps = {}): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  // The service validates again (its own error messages); the route's schema documents and gates.
  app.openapi(reviewRoute, async (c) =>
    c.json(await review(serviceContext(c.env, c.var.caller), c.req.valid("json") as ReviewInput, { origin: new URL(c.req.url).origin, ...deps }), 200),
  );
  return app;
}
