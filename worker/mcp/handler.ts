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
import { publicOrigin } from "../auth/provider";
import type { Env } from "../../kernel/env";
import { serviceContext, type Caller } from "../services/context";
import { createMcpServer } from "./server";

/** The path MCP is served on. */
export const MCP_ROUTE = "/mcp";

/**
 * Answers one MCP request for `caller`. Throws only what `serviceContext` throws for bad
 * configuration (a TypeError naming the variable); tool failures become error tool results.
 */
export function handleMcpRequest(request: Request, env: Env, ctx: ExecutionContext, caller: Caller): Promise<Response> {
  const tc = { service: serviceContext(env, caller), origin: publicOrigin(request, env) };
  const handler = createMcpHandler(() => createMcpServer(tc), {
    route: MCP_ROUTE,
    onerror: (err) => console.error("MCP handler error", err.message),
  });
  return handler(request, env, ctx);
}
