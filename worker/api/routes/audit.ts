/**
 * @module worker/api/routes/audit
 *
 *   GET /api/audit?actor=&event=&cursor=&limit=  -> {entries, nextCursor}   (scope admin)
 * A thin adapter over `listAudit` (worker/services/audit.ts).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { auditPageSchema, listAudit, listAuditInput } from "../../services/audit";
import { serviceContext } from "../../services/context";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";

const listRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["admin"],
  summary: "The audit log, newest first (filter by actor and event; page with nextCursor)",
  request: { query: listAuditInput.partial() },
  responses: { 200: jsonResponse(auditPageSchema, "One page of audit entries"), 400: errorDoc("Bad filter or cursor", "invalid_input") },
});

/** The /api/audit route. Mounted by worker/api/app.ts after the auth middleware. */
export function auditRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(listRoute, async (c) => c.json(await listAudit(serviceContext(c.env, c.var.caller), c.req.query()), 200, { "cache-control": "no-store" }));
  return app;
}
