/**
 * @module worker/api/routes/suggest-tests
 *
 *   POST /api/suggest-tests  {repo, path, symbol, framework?, ref?, fill?}
 *
 * A thin adapter over `suggestTests` (worker/services/suggest-tests) with the MCP tool's
 * schemas. Needs the `search` scope (it only reads the index; worker/auth/route-scopes.ts).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { serviceContext } from "../../services/context";
import { suggestTests } from "../../services/suggest-tests";
import { suggestTestsInput, suggestTestsOutput, type SuggestTestsInput } from "../../services/suggest-tests-schema";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";
import { jsonBody } from "../validation";

const suggestRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["symbols"],
  summary: "A test skeleton for one function or method, grounded in the index (signature, collaborators, errors, the repo's test framework)",
  middleware: [jsonBody('{"repo": "hono", "path": "src/pricing/discount.ts", "symbol": "applyDiscount"}')] as const,
  request: { body: { content: { "application/json": { schema: suggestTestsInput } }, required: true } },
  responses: {
    200: jsonResponse(suggestTestsOutput, "The test path, the skeleton and the facts it was built from"),
    400: errorDoc("The symbol is not a function or method, the language has no renderer, or a ref on an archive upload", "invalid_input"),
    404: errorDoc("Unknown repo, ref, file or symbol (with suggestions)", "repo_not_found", "ref_not_found", "file_not_found", "not_found"),
    409: errorDoc("No completed index yet", "index_not_ready"),
    429: errorDoc("fill: the daily token budget is spent; see Retry-After", "budget_exhausted"),
    502: errorDoc("fill: the model API failed", "generation_failed"),
    503: errorDoc("fill: no generation provider is configured", "generation_unavailable"),
  },
});

/** The /api/suggest-tests route. */
export function suggestTestsRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  // The service validates again (its own error messages); the route's schema documents and gates.
  app.openapi(suggestRoute, async (c) =>
    c.json(await suggestTests(serviceContext(c.env, c.var.caller), c.req.valid("json") as SuggestTestsInput, "rest"), 200),
  );
  return app;
}
