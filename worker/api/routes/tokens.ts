/**
 * @module worker/api/routes/tokens
 *
 * Admin management of API tokens (`admin` scope), within the caller's reach
 * (worker/auth/token-policy.ts):
 *   POST   /api/tokens      {name, scopes, repos?, expiresInDays? | expiresAt?} -> 201 {token, ...info}
 *                          `token` is shown once; only its SHA-256 is stored. 403 beyond reach.
 *   GET    /api/tokens      -> {tokens: info[]} (never secrets; only the caller's own unless it
 *                          is an admin over every repo)
 *   DELETE /api/tokens/:id  -> {...info, revokedAt, alsoRevoked: ids of tokens minted from it}
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { apiTokenInfoSchema, createApiToken, listApiTokens, revokeApiToken } from "../../auth/api-tokens";
import { requireScope, scopeSchema } from "../../services/context";
import type { ApiEnv } from "../env";
import { errorDoc } from "../openapi/document";
import { jsonBody } from "../validation";

/** Longest allowed token lifetime via `expiresInDays`: about ten years. */
export const MAX_TOKEN_DAYS = 3650;

/** Body of POST /api/tokens. */
export const CreateTokenInput = z
  .object({
    name: z.string().trim().min(1).max(100).describe("What the token is for, e.g. 'ci nightly'"),
    scopes: z.array(scopeSchema).min(1),
    repos: z.array(z.string().min(1).max(200)).min(1).max(1000).optional().describe("Repo ids the token may see; omit for all"),
    expiresInDays: z.number().int().min(1).max(MAX_TOKEN_DAYS).optional(),
    expiresAt: z.number().int().positive().optional().describe("ms since epoch"),
  })
  .strict()
  .refine((v) => !(v.expiresInDays !== undefined && v.expiresAt !== undefined), { message: "give expiresInDays or expiresAt, not both" });

const json = <S extends z.ZodType>(schema: S, description: string) => ({ description, content: { "application/json": { schema } } });

const createToken = createRoute({
  method: "post",
  path: "/",
  tags: ["tokens"],
  summary: "Create an API token (shown once)",
  middleware: [jsonBody('{"name": "ci", "scopes": ["search"]}')] as const,
  request: { body: { content: { "application/json": { schema: CreateTokenInput } }, required: true } },
  responses: { 201: json(apiTokenInfoSchema.extend({ token: z.string().describe("The secret; only its SHA-256 is stored") }), "The new token and its info") },
});

const listTokens = createRoute({
  method: "get",
  path: "/",
  tags: ["tokens"],
  summary: "List API tokens (never their secrets)",
  responses: { 200: json(z.object({ tokens: z.array(apiTokenInfoSchema) }), "Every token, revoked ones included") },
});

const revokeToken = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["tokens"],
  summary: "Revoke an API token",
  request: { params: z.object({ id: z.string().min(1).describe("Token id from GET /api/tokens") }) },
  responses: { 200: json(apiTokenInfoSchema, "The token with revokedAt set"), 404: errorDoc("No such token that the caller manages", "not_found") },
});

/** The /api/tokens routes. Mounted by worker/api/app.ts after the auth middleware. */
export function tokenRoutes(): OpenAPIHono<ApiEnv> {
  const app = new OpenAPIHono<ApiEnv>();
  app.use("*", async (c, next) => {
    requireScope(c.var.caller, "admin");
    await next();
  });
  app.openapi(createToken, async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    const expiresAt = body.expiresAt ?? (body.expiresInDays !== undefined ? now + body.expiresInDays * 86_400_000 : undefined);
    const { token, info } = await createApiToken(c.env.DB, { name: body.name, scopes: body.scopes, repos: body.repos, expiresAt }, c.var.caller, now);
    return c.json({ token, ...info }, 201, { "cache-control": "no-store" });
  });
  app.openapi(listTokens, async (c) => c.json({ tokens: await listApiTokens(c.env.DB, c.var.caller) }, 200));
  app.openapi(revokeToken, async (c) => c.json(await revokeApiToken(c.env.DB, c.req.valid("param").id, Date.now(), c.var.caller), 200));
  return app;
}
