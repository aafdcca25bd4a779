/**
 * @module worker/auth/provider
 *
 * Builds the `OAuthProvider` (@cloudflare/workers-oauth-provider) that fronts the whole Worker:
 * it serves RFC 8414 / RFC 9728 metadata, dynamic client registration, the token endpoint
 * (PKCE S256, refresh-token rotation, RFC 7009 revocation) and protects `/mcp`; everything else
 * goes to the default handler (REST, login pages, web page).
 *
 * The provider's canonical resource is an absolute URL (`<origin>/mcp`) fixed at construction,
 * while the origin is known only per request (PUBLIC_URL, or the request's own origin locally,
 * where both localhost:8787 and 127.0.0.1:8787 work). So one provider is built per origin and
 * cached for the isolate's life.
 */
import { LRUCache } from "lru-cache";
import {
  ExternalTokenError,
  getOAuthApi,
  insufficientScope,
  OAuthProvider,
  type OAuthHelpers,
  type OAuthProviderOptions,
  type OAuthResourceContext,
} from "@cloudflare/workers-oauth-provider";
import type { Env } from "../../kernel/env";
import { errorResponse } from "../api/errors";
import { scopeCovers, type Caller } from "../services/context";
import { callerFromProps, grantCredential, isProviderToken, narrowScopes, resolveStaticBearer, type AuthProps } from "./caller";
import { loadAuthConfig } from "./config";
import { guardRefresh } from "./guards/refresh-rotation";
import { checkClientMetadata, limitRegistration } from "./guards/registration";
import { checkSearchRate, rateLimitedResponse } from "./rate-limit";
import { withReadable } from "../permissions/readable";
import { recheckOnRefresh } from "../permissions/refresh";

/** Path of the MCP endpoint (the protected resource). */
export const MCP_PATH = "/mcp";
/** Paths of the authorization server's endpoints. */
export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
/** RFC 9728 §3.1 metadata of the resource at the origin's root; served as the /mcp resource's. */
export const ROOT_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";
/** Scopes the authorization server can grant; `search` is what any MCP access needs. */
export const OAUTH_SCOPES = ["search", "index", "admin"];
/**
 * Access tokens live 10 minutes: a person removed from the organisation or team upstream keeps
 * access at most this long, since every refresh checks their membership again
 * (worker/permissions/refresh.ts). Refresh tokens live 30 days and rotate on every use.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86400;

/** The MCP handler H5 provides: called only for an authenticated, rate-checked caller. */
export type McpHandler = (request: Request, env: Env, ctx: ExecutionContext, caller: Caller) => Promise<Response>;

/** What the Worker entry wires together. */
export interface AuthWiring {
  /** Everything that is not /mcp or an OAuth endpoint: REST, login pages, /source, web page. */
  defaultHandler: { fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> };
  mcpHandler: McpHandler;
}

/**
 * Providers by origin. Without PUBLIC_URL the origin comes from the request's Host, which a
 * client chooses, so the caches are bounded: a flood of made-up hosts evicts only itself.
 */
const ORIGINS_MAX = 32;
const optionsByOrigin = new LRUCache<string, OAuthProviderOptions<Env>>({ max: ORIGINS_MAX });
const providerByOrigin = new LRUCache<string, OAuthProvider<Env>>({ max: ORIGINS_MAX });

/** The origin tokens are issued for: PUBLIC_URL when set, else the request's own origin. */
export function publicOrigin(request: Request, env: Env): string {
  return loadAuthConfig(env).publicUrl ?? new URL(request.url).origin;
}

/** Canonical MCP resource for an origin, e.g. `https://copilot.example.com/mcp`. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

function mcpGate(handler: McpHandler): { fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> } {
  return {
    async fetch(request, env, ctx) {
      const rctx = ctx as OAuthResourceContext<AuthProps>;
      let caller = callerFromProps(rctx.props);
      // OAuth tokens carry their granted scopes; API tokens' scopes are in the caller already.
      if (caller.kind === "oauth") caller = narrowScopes(caller, rctx.auth.scope);
      // Source links minted in this request are bound to the grant (API tokens carry theirs in props).
      if (isProviderToken(rctx.auth.token)) caller = { ...caller, credential: grantCredential(rctx.auth.token) };
      if (!scopeCovers(caller.scopes, "search")) return insufficientScope(rctx.auth, ["search"]);
      // The restricted repos this caller may read, for `canSee` (worker/permissions/readable.ts).
      caller = await withReadable(env.DB, caller, Date.now());
      if (request.method === "POST") {
        const decision = await checkSearchRate(env, caller, request);
        if (!decision.ok) return rateLimitedResponse(decision);
      }
      return handler(request, env, ctx, caller);
    },
  };
}

function buildOptions(origin: string, wiring: AuthWiring): OAuthProviderOptions<Env> {
  const resource = mcpResource(origin);
  return {
    apiHandlers: { [MCP_PATH]: mcpGate(wiring.mcpHandler) },
    defaultHandler: { fetch: (request, env, ctx) => wiring.defaultHandler.fetch(request, env, ctx) },
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...OAUTH_SCOPES],
    requiredScopes: ["search"],
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTTL: REFRESH_TOKEN_TTL_SECONDS,
    resourceMetadata: { resource, resource_name: "Codebase Copilot", bearer_methods_supported: ["header"] },
    // Field and list caps on registration metadata (worker/auth/guards/registration.ts).
    clientRegistrationCallback: checkClientMetadata,
    // Headless agents present an API token (scope "search") or the local admin token instead of
    // an OAuth token. The provider calls this only for tokens it did not issue.
    resolveExternalToken: async ({ token, env }) => {
      const result = await resolveStaticBearer(env.DB, loadAuthConfig(env), token, Date.now(), () => {});
      if (!("caller" in result)) return null;
      if (!scopeCovers(result.caller.scopes, "search")) {
        throw new ExternalTokenError("insufficient_scope", {
          description: "This API token lacks the search scope.",
          statusCode: 403,
          requiredScopes: ["search"],
        });
      }
      const props: AuthProps = { v: 1, caller: result.caller, login: result.caller.id };
      return { props, audience: resource };
    },
    // Membership and readable repos are checked again at every refresh (worker/permissions/refresh.ts).
    tokenExchangeCallback: async ({ grantType, props, env }) =>
      grantType === "refresh_token" ? recheckOnRefresh(env, props as AuthProps, Date.now()) : undefined,
    // Logs the stable reason only: never tokens, codes or request bodies.
    onError: ({ code, status, internal }) => {
      console.warn(`oauth error ${status} ${code} ${internal.category}/${internal.reason}`);
    },
  };
}

/** The provider for this request's origin (built once per origin per isolate). */
export function oauthProviderFor(request: Request, env: Env, wiring: AuthWiring): OAuthProvider<Env> {
  const origin = publicOrigin(request, env);
  let provider = providerByOrigin.get(origin);
  if (!provider) {
    const options = buildOptions(origin, wiring);
    provider = new OAuthProvider<Env>(options);
    optionsByOrigin.set(origin, options);
    providerByOrigin.set(origin, provider);
  }
  return provider;
}

/**
 * Answers a request through the provider of its origin. An origin the provider cannot serve
 * (plain http on a non-loopback host, e.g. a LAN address under wrangler dev) gets a 421 that says
 * what to do instead of a 500. In front of the provider: the root protected-resource metadata
 * (some clients probe it before the `/mcp` suffix), registration limits and refresh-token reuse
 * detection (worker/auth/guards/).
 */
export async function fetchWithOAuth(request: Request, env: Env, ctx: ExecutionContext, wiring: AuthWiring): Promise<Response> {
  let provider: OAuthProvider<Env>;
  try {
    provider = oauthProviderFor(request, env, wiring);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const message = `This origin cannot serve OAuth (${err.message}). Use https, or http on localhost, or set PUBLIC_URL.`;
    return errorResponse("misdirected_request", message);
  }
  const url = new URL(request.url);
  if (url.pathname === ROOT_RESOURCE_METADATA_PATH) {
    return provider.fetch(new Request(`${url.origin}${ROOT_RESOURCE_METADATA_PATH}${MCP_PATH}${url.search}`, request), env, ctx);
  }
  if (url.pathname === REGISTER_PATH && request.method === "POST") {
    const limited = await limitRegistration(request, env);
    if (limited instanceof Response) return limited;
    return provider.fetch(limited, env, ctx);
  }
  if (url.pathname === TOKEN_PATH && request.method === "POST") {
    const helpers = oauthHelpersFor(request, env);
    return guardRefresh(request, env, {
      forward: (r) => provider.fetch(r, env, ctx),
      revokeGrant: (grantId, userId) => helpers.revokeGrant(grantId, userId),
      now: () => Math.floor(Date.now() / 1000),
    });
  }
  return provider.fetch(request, env, ctx);
}

/**
 * OAuth helpers (parseAuthRequest, completeAuthorization, unwrapToken ...) for this request's
 * origin. Not `env.OAUTH_PROVIDER`: the provider caches that on the shared env object, so it
 * would belong to whichever origin came first. Throws when no provider was built (the Worker
 * entry always builds one before routing).
 */
export function oauthHelpersFor(request: Request, env: Env): OAuthHelpers {
  const options = optionsByOrigin.get(publicOrigin(request, env));
  if (!options) throw new Error("OAuth provider not built for this origin; route requests through worker/index.ts");
  return getOAuthApi(options, env);
}
