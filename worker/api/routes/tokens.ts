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
import { Hono } from "hono";
import { z } from "zod";
import { createApiToken, listApiTokens, revokeApiToken } from "../../auth/api-tokens";
import { CodeSearchError } from "../../../kernel/errors";
import { requireScope } from "../../services/context";
import type { ApiEnv } from "../app";

/** Longest allowed token lifetime via `expiresInDays`: about ten years. */
export const MAX_TOKEN_DAYS = 3650;

/** Body of POST /api/tokens. */
export const CreateTokenInput = z
  .object({
    name: z.string().trim().min(1).max(100).describe("What the token is for, e.g. 'ci nightly'"),
    scopes: z.array(z.enum(["search", "index", "admin"])).min(1),
    repos: z.array(z.string().min(1).max(200)).min(1).max(1000).optional().describe("Repo ids the token may see; omit for all"),
    expiresInDays: z.number().int().min(1).max(MAX_TOKEN_DAYS).optional(),
    expiresAt: z.number().int().positive().optional().describe("ms since epoch"),
  })
  .strict()
  .refine((v) => !(v.expiresInDays !== undefined && v.expiresAt !== undefined), { message: "give expiresInDays or expiresAt, not both" });

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.join(".") || "body";
  throw new CodeSearchError("invalid_input", `${field}: ${issue?.message ?? "invalid"}`);
}

/** The /api/tokens routes. Mounted by worker/api/app.ts after the auth middleware. */
export function tokenRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use("*", async (c, next) => {
    requireScope(c.var.caller, "admin");
    await next();
  });
  app.post("/", async (c) => {
    const body = parse(CreateTokenInput, await c.req.json().catch(() => undefined));
    const now = Date.now();
    const expiresAt = body.expiresAt ?? (body.expiresInDays !== undefined ? now + body.expiresInDays * 86_400_000 : undefined);
    const { token, info } = await createApiToken(c.env.DB, { name: body.name, scopes: body.scopes, repos: body.repos, expiresAt }, c.var.caller, now);
    return c.json({ token, ...info }, 201, { "cache-control": "no-store" });
  });
  app.get("/", async (c) => c.json({ tokens: await listApiTokens(c.env.DB, c.var.caller) }));
  app.delete("/:id", async (c) => c.json(await revokeApiToken(c.env.DB, c.req.param("id"), Date.now(), c.var.caller)));
  return app;
}
