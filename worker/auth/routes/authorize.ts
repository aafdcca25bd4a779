/**
 * @module worker/auth/routes/authorize
 *
 * The OAuth authorization endpoint (`/authorize`) and the GitHub callback for it. The library
 * validates the request and binds the consent form to the browser; this module signs the user
 * in (local admin token, or GitHub after consent) and completes the authorization.
 *   GET  /authorize                consent page (with the admin token field when local)
 *   POST /authorize                approve or deny; local: check token and complete;
 *                                  github: redirect to GitHub with the library's `state`
 *   GET  /oauth/callback/github    finish: exchange GitHub's code, check allowlists, complete
 */
import { auditAddress } from "../../api/audit-trail";
import { recordAudit } from "../../services/audit";
import { AuthorizationError, authorizationErrorRedirect, CimdFetchError, type AuthRequest, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { Hono, type Context } from "hono";
import type { Env } from "../../../kernel/env";
import type { Caller } from "../../services/context";
import { grantedScopes, scopesForRole, type AuthProps } from "../caller";
import { loadAuthConfig, type AuthConfig } from "../config";
import { randomToken, timingSafeEqualText } from "../crypto";
import { syncGithubPerson } from "../../permissions/github-person";
import { GITHUB_CALLBACK_PATH, githubAuthorizeUrl, githubCaller, githubLogin, pkceChallenge } from "../github";
import { isLoopbackRequest } from "../loopback";
import { consentPage } from "../pages/consent";
import { formActionSource } from "../pages/csp";
import { messagePage, pageHeaders } from "../pages/layout";
import { oauthHelpersFor, publicOrigin } from "../provider";

type RootEnv = { Bindings: Env };

/** The OAuth user id of the local admin (no ":" allowed in user ids). */
export const LOCAL_USER_ID = "local-admin";

async function page(body: ReturnType<typeof messagePage>, status: number, headers?: Headers, formAction?: string[]): Promise<Response> {
  return new Response(await body, { status, headers: pageHeaders(headers, formAction) });
}

/**
 * Where the consent form's POST may end up (CSP form-action, worker/auth/pages/csp.ts): the
 * validated redirect URI of this request (approve, deny and errors all redirect there) and,
 * with GitHub sign-in, GitHub's authorize URL.
 */
function consentFormTargets(config: AuthConfig, request: AuthRequest): string[] {
  const targets = [formActionSource(request.redirectUri)];
  if (config.provider === "github") targets.push(formActionSource(`${config.github!.baseUrl}/login/oauth/authorize`));
  return targets;
}

function refuseNonLoopback(): Promise<Response> {
  return page(
    messagePage(
      "Local sign-in is loopback only",
      'AUTH_PROVIDER=local accepts sign-ins only on localhost. Deploy with AUTH_PROVIDER=github for team access (README, "Authentication").',
    ),
    403,
  );
}

/** Renders library errors as the consent-page guide says: redirect only when that is safe. */
function authorizationFailure(err: unknown): Promise<Response> | Response {
  if (err instanceof AuthorizationError && err.redirectTo) return Response.redirect(err.redirectTo, 302);
  if (err instanceof AuthorizationError) return page(messagePage("Authorization failed", `${err.description} Start again from your app.`), 400);
  if (err instanceof CimdFetchError) return page(messagePage("Authorization failed", "This app could not be verified."), 400);
  throw err;
}

/**
 * Completes the authorization with the scopes the request asked for that this identity may have
 * (`grantedScopes`); the grant's caller carries exactly those. Nothing grantable: `invalid_scope`
 * back to the client.
 */
async function complete(
  oauth: OAuthHelpers,
  request: AuthRequest,
  userId: string,
  identity: Caller,
  login: string,
  headers: Headers,
  githubToken?: string,
): Promise<Response> {
  const scope = grantedScopes(request.scope, identity.scopes);
  if (scope.length === 0) {
    headers.set(
      "location",
      authorizationErrorRedirect(request, "invalid_scope", `None of the requested scopes (${request.scope.join(" ")}) can be granted to ${login}`),
    );
    return new Response(null, { status: 302, headers });
  }
  const caller: Caller = { ...identity, scopes: scope };
  // The GitHub token stays in the grant's encrypted props for the membership check at refresh.
  const props: AuthProps = { v: 1, caller, login, ...(githubToken ? { upstream: { githubToken } } : {}) };
  // Metadata (not encrypted, never a secret) names the person for source links (link-credential.ts).
  const metadata = { login, ...(identity.person ? { role: identity.person.role, teams: identity.person.teams ?? [] } : {}) };
  const { redirectTo } = await oauth.completeAuthorization({ request, userId, metadata, scope, props });
  headers.set("location", redirectTo);
  return new Response(null, { status: 302, headers });
}

async function showConsent(
  c: Context<RootEnv>,
  config: AuthConfig,
  oauth: OAuthHelpers,
  request: AuthRequest,
  error?: string,
  handle?: string,
): Promise<Response> {
  const details = await oauth.describeConsent(request);
  const consent = handle ? { handle, headers: new Headers() } : await oauth.beginConsent(request);
  const grants =
    config.provider === "local"
      ? [{ who: "you (local admin)", scopes: grantedScopes(request.scope, scopesForRole("admin")) }]
      : [
          { who: "admins", scopes: grantedScopes(request.scope, scopesForRole("admin")) },
          { who: "readers", scopes: grantedScopes(request.scope, scopesForRole("reader")) },
        ];
  return page(
    consentPage({ details, grants, handle: consent.handle, provider: config.provider, error }),
    error ? 401 : 200,
    consent.headers,
    consentFormTargets(config, request),
  );
}

/** Routes of the authorization endpoint; mounted at the root by worker/index.ts. */
export function authorizeRoutes(): Hono<RootEnv> {
  const app = new Hono<RootEnv>();

  app.get("/authorize", async (c) => {
    const config = loadAuthConfig(c.env);
    if (config.provider === "local" && !isLoopbackRequest(c.req.raw)) return refuseNonLoopback();
    const oauth = oauthHelpersFor(c.req.raw, c.env);
    try {
      const request = await oauth.parseAuthRequest(c.req.raw);
      // PKCE for every client, confidential ones too (OAuth 2.1 §4.1.1, MCP authorization spec);
      // the library demands it of public clients only. The client and this exact redirect URI are
      // validated by now, so the error may go back to it (RFC 6749 §4.1.2.1).
      if (!request.codeChallenge)
        return Response.redirect(authorizationErrorRedirect(request, "invalid_request", "code_challenge is required (PKCE with S256)"), 302);
      return await showConsent(c, config, oauth, request);
    } catch (err) {
      return authorizationFailure(err);
    }
  });

  app.post("/authorize", async (c) => {
    const config = loadAuthConfig(c.env);
    if (config.provider === "local" && !isLoopbackRequest(c.req.raw)) return refuseNonLoopback();
    const oauth = oauthHelpersFor(c.req.raw, c.env);
    const form = await c.req.formData();
    const handle = String(form.get("handle") ?? "");
    try {
      if (form.get("decision") !== "approve") {
        const denied = await oauth.denyConsent(c.req.raw, handle);
        return new Response(null, { status: 302, headers: denied.headers });
      }
      if (config.provider === "local") {
        const presented = String(form.get("admin_token") ?? "");
        if (!config.adminToken || !(await timingSafeEqualText(presented, config.adminToken))) {
          // The handle is not consumed yet: show the same form again.
          const retry = new Response(
            await messagePage("Wrong admin token", "That is not the local admin token. Go back and try again, or start over from your app."),
            { status: 401, headers: pageHeaders() },
          );
          return retry;
        }
        const approved = await oauth.approveConsent(c.req.raw, handle);
        const identity: Caller = { id: LOCAL_USER_ID, kind: "oauth", scopes: scopesForRole("admin"), repos: "*" };
        await recordAudit(c.env, { actor: LOCAL_USER_ID, event: "sign_in", ip: auditAddress(c.env, c.req.raw), detail: { via: "oauth", user: LOCAL_USER_ID } });
        return await complete(oauth, approved.request, LOCAL_USER_ID, identity, "local admin", approved.headers);
      }
      const approved = await oauth.approveConsent(c.req.raw, handle);
      const verifier = randomToken(48);
      const { state, headers } = await oauth.beginUpstream(approved.request, { data: { verifier }, headers: approved.headers });
      const redirectUri = `${publicOrigin(c.req.raw, c.env)}${GITHUB_CALLBACK_PATH}`;
      headers.set("location", githubAuthorizeUrl(config.github!, redirectUri, state, await pkceChallenge(verifier)));
      return new Response(null, { status: 302, headers });
    } catch (err) {
      return authorizationFailure(err);
    }
  });

  return app;
}

/**
 * Finishes an MCP authorization at the GitHub callback (the web sign-in shares the callback
 * URL and is told apart by its state prefix; see routes/login.ts).
 */
export async function finishGithubAuthorization(c: Context<RootEnv>): Promise<Response> {
  const config = loadAuthConfig(c.env);
  if (config.provider !== "github") return page(messagePage("Not found", "GitHub sign-in is not configured."), 404);
  const oauth = oauthHelpersFor(c.req.raw, c.env);
  let resumed: Awaited<ReturnType<OAuthHelpers["finishUpstream"]>> & { data: { verifier: string } };
  try {
    resumed = await oauth.finishUpstream<{ verifier: string }>(c.req.raw);
  } catch (err) {
    return authorizationFailure(err);
  }
  const { request, data, headers } = resumed;
  const code = c.req.query("code");
  if (c.req.query("error") || !code) {
    headers.set("location", authorizationErrorRedirect(request, "access_denied", "GitHub sign-in was declined"));
    return new Response(null, { status: 302, headers });
  }
  const redirectUri = `${publicOrigin(c.req.raw, c.env)}${GITHUB_CALLBACK_PATH}`;
  const result = await githubLogin(config.github!, code, data.verifier, redirectUri);
  if (!result.ok) {
    headers.set("location", authorizationErrorRedirect(request, "access_denied", result.reason));
    return new Response(null, { status: 302, headers });
  }
  const { identity } = result;
  // Permission sync, person direction: the repos and access-list teams GitHub says they read.
  const { teams } = await syncGithubPerson(c.env, config.github!, result.token, identity.login, Date.now());
  const caller = githubCaller(identity, teams);
  await recordAudit(c.env, { actor: caller.id, event: "sign_in", ip: auditAddress(c.env, c.req.raw), detail: { via: "oauth", user: `github-${identity.id}` } });
  return complete(oauth, request, `github-${identity.id}`, caller, identity.login, headers, result.token);
}
