/**
 * @module worker/auth/rest-auth
 *
 * Hono middleware for `/api/*`: turns `Authorization: Bearer <token>` (OAuth access token,
 * API token or the local admin token) or a web session cookie into `c.var.caller`, checks the
 * CSRF token on state-changing cookie requests, enforces the scope floor of route-scopes.ts and
 * applies the search rate limits.
 * Routes registered before it (only `/api/health`) stay public.
 */
import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "../api/env";
import { errorResponse } from "../api/errors";
import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { isProviderToken, resolveRestBearer, resolveStaticBearer, type BearerResult } from "./caller";
import { loadAuthConfig } from "./config";
import { oauthHelpersFor } from "./provider";
import { checkSearchRate, isSearchPath, rateLimitedResponse } from "./rate-limit";
import { requiredScopeFor } from "./route-scopes";
import { readCheckedSession } from "../permissions/session-recheck";
import { CSRF_HEADER, csrfMatches, isStateChanging } from "./sessions";
import { scopeCovers } from "../services/context";
import { withReadable } from "../permissions/readable";

const REJECTION_MESSAGES: Record<Exclude<BearerResult, { caller: unknown }>["rejected"], string> = {
  malformed: "The bearer token is malformed; send `Authorization: Bearer <token>` with an API token or OAuth access token.",
  unknown: "The bearer token is not valid; it may be mistyped, revoked, or an expired OAuth token (refresh it).",
  expired: "This API token has expired; ask an admin for a new one (POST /api/tokens).",
  revoked: "This API token was revoked; ask an admin for a new one (POST /api/tokens).",
};

function unauthorized(message: string, invalidToken: boolean): Response {
  return errorResponse("unauthorized", message, {
    headers: { "www-authenticate": invalidToken ? 'Bearer realm="codebase-copilot", error="invalid_token"' : 'Bearer realm="codebase-copilot"' },
  });
}

function forbidden(message: string): Response {
  return errorResponse("forbidden", message);
}

/** Authenticates every REST request that reaches it; see the module note. */
export function restAuth(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const config = loadAuthConfig(c.env);
    const now = Date.now();
    const defer = (p: Promise<unknown>) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p; // no execution context (app.request in unit tests): let it run
      }
    };
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const m = /^Bearer ([^\s]+)$/i.exec(header.trim());
      if (!m) return unauthorized(REJECTION_MESSAGES.malformed, true);
      // The OAuth helpers (built per call, a profiled 0.3 ms) matter only for a token shaped like
      // the provider's; any other goes the static route either way.
      let oauth: OAuthHelpers | undefined;
      if (isProviderToken(m[1])) {
        try {
          oauth = oauthHelpersFor(c.req.raw, c.env);
        } catch {
          oauth = undefined;
        }
      }
      const result = oauth ? await resolveRestBearer(c.env.DB, config, oauth, m[1], now, defer) : await resolveStaticBearer(c.env.DB, config, m[1], now, defer);
      if (!("caller" in result)) return unauthorized(REJECTION_MESSAGES[result.rejected], true);
      c.set("caller", result.caller);
    } else {
      const session = await readCheckedSession(c.env, c.req.raw, now);
      if (!session) return unauthorized('Sign in (GET /login) or send `Authorization: Bearer <token>`; README, "Authentication".', false);
      if (isStateChanging(c.req.method) && !(await csrfMatches(session, c.req.header(CSRF_HEADER)))) {
        return forbidden(`Missing or wrong CSRF token: send the ${CSRF_HEADER} header from GET /auth/session.`);
      }
      c.set("caller", session.caller);
    }
    // The restricted repos this caller may read, for `canSee` (worker/permissions/readable.ts).
    const caller = await withReadable(c.env.DB, c.get("caller"), now);
    c.set("caller", caller);
    const needed = requiredScopeFor(c.req.method, c.req.path.replace(/^\/api(?=\/|$)/, ""));
    if (!scopeCovers(caller.scopes, needed)) {
      return forbidden(`This needs the "${needed}" scope; ask an admin for a token that has it.`);
    }
    if (isSearchPath(c.req.path)) {
      const decision = await checkSearchRate(c.env, caller, c.req.raw);
      if (!decision.ok) return rateLimitedResponse(decision);
    }
    await next();
  };
}
