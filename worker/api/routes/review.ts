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
import { Hono } from "hono";
import { CodeSearchError } from "../../../kernel/errors";
import { serviceContext } from "../../services/context";
import { review, type ReviewDeps } from "../../services/review";
import type { ReviewInput } from "../../services/review-schema";
import type { ApiEnv } from "../app";

const BODY_HINT = 'body: expected a JSON object such as {"repo": "hono", "diff": "<git diff output>"} or {"repo": "hono", "paths": ["src/a.ts"]}';

/** The /api/review route. `deps` is a test seam (a scripted provider). */
export function reviewRoutes(deps: ReviewDeps = {}): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new CodeSearchError("invalid_input", BODY_HINT);
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new CodeSearchError("invalid_input", BODY_HINT);
    return c.json(await review(serviceContext(c.env, c.var.caller), body as ReviewInput, { origin: new URL(c.req.url).origin, ...deps }));
  });
  return app;
}
