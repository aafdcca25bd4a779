/**
 * @module worker/api/routes/grants
 *
 *   GET    /api/grants?user=        -> {grants}      a person's sign-ins (OAuth grants)
 *   DELETE /api/grants/{id}?user=   -> {revoked}     revoke one
 *   DELETE /api/grants?user=        -> {revoked}     revoke all of the person's
 * Admin only (worker/auth/route-scopes.ts). Thin adapters over worker/services/grants.ts.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { oauthHelpersFor } from "../../auth/provider";
import { serviceContext } from "../../services/context";
import { grantSchema, grantUserInput, listGrants, requireGrantAdmin, revokeAllGrants, revokeGrant } from "../../services/grants";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";

const revoked = jsonResponse(z.object({ revoked: z.array(z.string()).describe("Ids of the grants revoked") }), "The grants revoked");

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["tokens"],
  summary: "A person's sign-ins (OAuth grants), never their tokens",
  request: { query: grantUserInput },
  responses: { 200: jsonResponse(z.object({ grants: z.array(grantSchema) }), "The person's grants"), 400: errorDoc("No user", "invalid_input") },
});

const revokeOneRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["tokens"],
  summary: "Revoke one sign-in: its refresh and access tokens stop working at once",
  request: { params: z.object({ id: z.string().min(1).max(200) }), query: grantUserInput },
  responses: { 200: revoked, 403: errorDoc("Not an unrestricted admin", "forbidden"), 404: errorDoc("The person holds no such grant", "not_found") },
});

const revokeAllRoute = createRoute({
  method: "delete",
  path: "/",
  tags: ["tokens"],
  summary: "Revoke every sign-in of a person",
  request: { query: grantUserInput },
  responses: { 200: revoked, 400: errorDoc("No user", "invalid_input") },
});

/** The /api/grants routes. Mounted by worker/api/app.ts after the auth middleware. */
export function grantRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  // Before the query is validated, so a caller who may not manage sign-ins learns nothing more.
  app.use("*", async (c, next) => {
    requireGrantAdmin(c.var.caller);
    await next();
  });
  const ctx = (c: { env: ApiEnv["Bindings"]; var: ApiEnv["Variables"] }) => serviceContext(c.env, c.var.caller);
  app.openapi(listRoute, async (c) => c.json(await listGrants(ctx(c), oauthHelpersFor(c.req.raw, c.env), c.req.query()), 200, { "cache-control": "no-store" }));
  app.openapi(revokeOneRoute, async (c) => c.json(await revokeGrant(ctx(c), oauthHelpersFor(c.req.raw, c.env), c.req.valid("param").id, c.req.query()), 200));
  app.openapi(revokeAllRoute, async (c) => c.json(await revokeAllGrants(ctx(c), oauthHelpersFor(c.req.raw, c.env), c.req.query()), 200));
  return app;
}
