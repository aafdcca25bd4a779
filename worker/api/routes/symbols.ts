/**
 * @module worker/api/routes/symbols
 *
 *   GET /api/repos/{id}/symbols?name=&kind=&limit=&ref=          definitions: exact, then case-insensitive, then prefix
 *   GET /api/repos/{id}/references?symbol=&definition=&limit=&offset=&ref=   occurrences, classified, optionally one definition's
 *
 * Thin adapters over worker/services/symbols*.ts with the MCP tools' zod schemas.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { serviceContext } from "../../services/context";
import { findSymbol, findSymbolInput, findSymbolOutput } from "../../services/symbols";
import { findReferences, findReferencesInput, findReferencesOutput } from "../../services/symbols-references";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonResponse, repoIdParams } from "../openapi/route-kit";
import { queryNumber, queryOptional } from "../validation";

const notFound = errorDoc("Unknown repo, a ref it does not track, or no completed index yet", "repo_not_found", "ref_not_found", "index_not_ready");
const badInput = errorDoc("Invalid parameter, or a ref on an archive upload (archives have no refs)", "invalid_input");

const symbolsRoute = createRoute({
  method: "get",
  path: "/{id}/symbols",
  tags: ["symbols"],
  summary: "Find definitions by name",
  request: {
    params: repoIdParams,
    query: z.object({
      name: findSymbolInput.shape.name,
      kind: queryOptional(findSymbolInput.shape.kind),
      limit: queryNumber(findSymbolInput.shape.limit),
      ref: queryOptional(findSymbolInput.shape.ref),
    }),
  },
  responses: { 200: jsonResponse(findSymbolOutput, "Definitions, best match first"), 400: badInput, 404: notFound },
});

const referencesRoute = createRoute({
  method: "get",
  path: "/{id}/references",
  tags: ["symbols"],
  summary: "Find references to an identifier or to one definition",
  request: {
    params: repoIdParams,
    query: z.object({
      symbol: findReferencesInput.shape.symbol,
      definition: findReferencesInput.shape.definition,
      limit: queryNumber(findReferencesInput.shape.limit),
      offset: queryNumber(findReferencesInput.shape.offset),
      ref: queryOptional(findReferencesInput.shape.ref),
    }),
  },
  responses: { 200: jsonResponse(findReferencesOutput, "One page of occurrences"), 400: badInput, 404: notFound },
});

/** The symbol routes, mounted at /api/repos by worker/api/app.ts after the auth middleware. */
export function symbolRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.openapi(symbolsRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await findSymbol(serviceContext(c.env, c.var.caller), { ...q, repo: c.req.valid("param").id }), 200);
  });
  app.openapi(referencesRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await findReferences(serviceContext(c.env, c.var.caller), { ...q, repo: c.req.valid("param").id }), 200);
  });
  return app;
}
