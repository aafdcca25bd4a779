/**
 * @module worker/api/routes/symbols
 *
 *   GET /api/repos/{id}/symbols?name=&kind=&limit=          definitions: exact, then case-insensitive, then prefix
 *   GET /api/repos/{id}/references?symbol=&limit=&offset=   whole-word occurrences with enclosing symbols
 *
 * Thin adapters over worker/services/symbols*.ts with the MCP tools' zod schemas.
 */
import { Hono } from "hono";
import { serviceContext } from "../../services/context";
import { findSymbol, findSymbolInput } from "../../services/symbols";
import { findReferences, findReferencesInput } from "../../services/symbols-references";
import type { ApiEnv } from "../app";
import { numParam, parseInput } from "./files";

/** The symbol routes, mounted at /api/repos by worker/api/app.ts after the auth middleware. */
export function symbolRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/:id/symbols", async (c) => {
    const q = c.req.query();
    const input = parseInput(findSymbolInput, { name: q.name, kind: q.kind || undefined, repo: c.req.param("id"), limit: numParam(q.limit) });
    return c.json(await findSymbol(serviceContext(c.env, c.var.caller), input));
  });
  app.get("/:id/references", async (c) => {
    const q = c.req.query();
    const input = parseInput(findReferencesInput, { symbol: q.symbol, repo: c.req.param("id"), limit: numParam(q.limit), offset: numParam(q.offset) });
    return c.json(await findReferences(serviceContext(c.env, c.var.caller), input));
  });
  return app;
}
