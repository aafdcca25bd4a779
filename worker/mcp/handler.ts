/**
 * @module worker/mcp/handler
 *
 * Serves `/mcp` (MCP Streamable HTTP) with `createMcpHandler` from `agents/mcp/server`: stateless,
 * one `McpServer` per request, so any isolate can answer any request. The handler itself checks
 * the Host header (DNS-rebinding protection; requests without one are refused) and browser
 * Origins. Authentication happens before this: the caller is passed in (the OAuth provider's
 * props, an API token, or the local admin token; see worker/auth).
 */
import { createMcpHandler } from "agents/mcp/server";
import type { Env } from "../env";
import { LOCAL_ADMIN, serviceContext, type Caller } from "../services/context";
import { createMcpServer } from "./server";

/** The path MCP is served on. */
export const MCP_ROUTE = "/mcp";

/**
 * Answers one MCP request for `caller`. Throws only what `serviceContext` throws for bad
 * configuration (a TypeError naming the variable); tool failures become error tool results.
 */
export function handleMcpRequest(request: Request, env: Env, ctx: ExecutionContext, caller: Caller): Promise<Response> {
  const tc = { service: serviceContext(env, caller), origin: new URL(request.url).origin };
  const handler = createMcpHandler(() => createMcpServer(tc), {
    route: MCP_ROUTE,
    onerror: (err) => console.error("MCP handler error", err.message),
  });
  return handler(request, env, ctx);
}

/**
 * Interim authentication for `/mcp` until the OAuth provider wraps it (worker/auth, H6): only
 * the local admin token (`Authorization: Bearer <ADMIN_TOKEN>`) is accepted; anything else gets
 * 401 with a `WWW-Authenticate: Bearer` challenge.
 */
export async function handleMcpWithAdminToken(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const presented = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!env.ADMIN_TOKEN || !(await equalSecrets(presented, env.ADMIN_TOKEN))) {
    return Response.json(
      { error: { code: "unauthorized", message: "Send Authorization: Bearer <token>; see README, \"MCP\"." } },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="codebase-copilot"' } },
    );
  }
  return handleMcpRequest(request, env, ctx, LOCAL_ADMIN);
}

/** Constant-time comparison of two secrets (digests first, so lengths leak nothing). */
async function equalSecrets(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([crypto.subtle.digest("SHA-256", enc.encode(a)), crypto.subtle.digest("SHA-256", enc.encode(b))]);
  return crypto.subtle.timingSafeEqual(da, db);
}
