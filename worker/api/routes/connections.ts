/**
 * @module worker/api/routes/connections
 *
 *   POST   /api/connections         {provider, owner, token?, include?, exclude?, forks?, archived?, baseUrl?, gracePeriodHours?}
 *                                   -> 201 {connection, webhook: {secret (once), github | gitlab}, sync}
 *   GET    /api/connections         -> {connections: [connection]}
 *   GET    /api/connections/{id}    -> connection + repoList (each repo's state)
 *   POST   /api/connections/{id}/sync -> {connection, sync} (what the Cron Trigger does, now)
 *   DELETE /api/connections/{id}[?keepRepos=true] -> {deleted, removedRepos, keptRepos}
 *
 * Thin adapters over worker/services/connections.ts; every route needs `admin`
 * (worker/auth/route-scopes.ts).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import {
  connectionCreatedSchema,
  connectionDetailSchema,
  connectionSchema,
  createConnection,
  createConnectionInput,
  deleteConnection,
  deleteConnectionResultSchema,
  getConnection,
  listConnections,
  syncConnectionNow,
  syncResultSchema,
} from "../../services/connections";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse } from "../openapi/route-kit";
import { jsonBody } from "../validation";

const idParams = z.object({ id: z.string().min(1).max(128).describe('Connection id, e.g. "github-acme" (GET /api/connections lists them).') });
const unknown = errorDoc("No such connection", "not_found");
const hostErrors = {
  400: errorDoc("Invalid input, a base URL the server may not call, or an owner the code host does not know", "invalid_input"),
  422: errorDoc("The code host rejected the token or could not be reached", "source_unreachable"),
  429: errorDoc("The code host rate-limited this server for longer than a request may wait (Retry-After says when to try)", "rate_limited"),
};

const createDef = createRoute({
  method: "post",
  path: "/",
  tags: ["connections"],
  summary: "Connect a GitHub organisation or user, or a GitLab group or user: registers every repository and keeps the list in sync",
  middleware: [jsonBody('{"provider": "github", "owner": "acme", "token": "ghp_..."}')] as const,
  request: { body: { content: { "application/json": { schema: createConnectionInput } }, required: true } },
  responses: {
    201: jsonResponse(connectionCreatedSchema, "Created; the webhook secret is shown only now"),
    409: errorDoc("A connection for this owner exists", "connection_exists"),
    ...hostErrors,
  },
});
const listDef = createRoute({
  method: "get",
  path: "/",
  tags: ["connections"],
  summary: "List connections",
  responses: { 200: jsonResponse(z.object({ connections: z.array(connectionSchema) }), "Every connection") },
});
const getDef = createRoute({
  method: "get",
  path: "/{id}",
  tags: ["connections"],
  summary: "A connection and the state of each of its repos",
  request: { params: idParams },
  responses: { 200: jsonResponse(connectionDetailSchema, "The connection"), 404: unknown },
});
const syncDef = createRoute({
  method: "post",
  path: "/{id}/sync",
  tags: ["connections"],
  summary: "Sync a connection now (the Cron Trigger does it on its schedule)",
  request: { params: idParams },
  responses: { 200: jsonResponse(syncResultSchema, "What the sync did"), 404: unknown, ...hostErrors },
});
const deleteDef = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["connections"],
  summary: "Delete a connection and (unless keepRepos=true) the repos it registered",
  request: {
    params: idParams,
    query: z.object({ keepRepos: z.enum(["true", "false"]).optional().describe("true: keep its repos as ordinary repos (default false: delete them)") }),
  },
  responses: {
    200: jsonResponse(deleteConnectionResultSchema, "Deleted"),
    404: unknown,
  },
});

/** The /api/connections routes (after the auth middleware). */
export function connectionRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(createDef, async (c) => c.json(await createConnection(serviceContext(c.env, c.var.caller), c.req.valid("json"), new URL(c.req.url).origin), 201));
  app.openapi(listDef, async (c) => c.json(await listConnections(serviceContext(c.env, c.var.caller)), 200));
  app.openapi(getDef, async (c) => c.json(await getConnection(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  app.openapi(syncDef, async (c) => c.json(await syncConnectionNow(serviceContext(c.env, c.var.caller), c.req.valid("param").id), 200));
  app.openapi(deleteDef, async (c) =>
    c.json(await deleteConnection(serviceContext(c.env, c.var.caller), c.req.valid("param").id, c.req.valid("query").keepRepos === "true"), 200),
  );
  return app;
}
