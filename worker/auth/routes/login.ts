/**
 * @module worker/auth/routes/login
 *
 * Web sessions through the same upstream login as OAuth:
 *   GET  /login          local: form asking for the admin token; github: redirect to GitHub
 *   POST /login          local: check the token (and the login nonce), start a session
 *   GET  /oauth/callback/github   web sign-ins (state "web_...") end here; MCP ones go to authorize.ts
 *   POST /logout         end the session (needs the CSRF token: form field `csrf` or header)
 *   GET  /auth/session   JSON {login, caller, csrfToken} for the web page, 401 without a session
 * Login CSRF is blocked by a double-submit nonce (local) or state cookie (GitHub), both
 * `__Host-` cookies bound to this browser. `/login?next=<path>` returns to that page after
 * signing in (a form field, or the GitHub login cookie, carries it; worker/auth/return-to.ts
 * keeps it on this origin).
 */
import { auditAddress } from "../../api/audit-trail";
import { recordAudit } from "../../services/audit";
import { Hono, type Context } from "hono";
import type { Env } from "../../../kernel/env";
import { errorResponse } from "../../api/errors";
import { LOCAL_ADMIN } from "../../services/context";
import { loadAuthConfig } from "../config";
import { randomToken, timingSafeEqualText } from "../crypto";
import { syncGithubPerson } from "../../permissions/github-person";
import { sealSessionToken, readCheckedSession } from "../../permissions/session-recheck";
import { GITHUB_CALLBACK_PATH, githubAuthorizeUrl, githubCaller, githubLogin, pkceChallenge } from "../github";
import { isLoopbackRequest } from "../loopback";
import { messagePage, pageHeaders } from "../pages/layout";
import { localLoginPage } from "../pages/login";
import { publicOrigin } from "../provider";
import { RETURN_TO_PARAM, safeReturnPath } from "../return-to";
import { CLEAR_SESSION_COOKIE, createSession, CSRF_HEADER, csrfMatches, deleteSession, readSession } from "../sessions";
import { finishGithubAuthorization } from "./authorize";

type RootEnv = { Bindings: Env };

/** Cookie carrying the login nonce (local) or `state.verifier` (GitHub) for ten minutes. */
export const LOGIN_COOKIE = "__Host-ccp_login";
/** Prefix that marks a GitHub `state` as a web sign-in rather than an MCP authorization. */
export const WEB_STATE_PREFIX = "web_";
const LOGIN_COOKIE_MAX_AGE_SECONDS = 600;

function loginCookie(value: string): string {
  return `${LOGIN_COOKIE}=${value}; Path=/; Max-Age=${LOGIN_COOKIE_MAX_AGE_SECONDS}; HttpOnly; Secure; SameSite=Lax`;
}
const CLEAR_LOGIN_COOKIE = `${LOGIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;

function cookie(c: Context, name: string): string | undefined {
  for (const part of (c.req.header("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

async function html(body: ReturnType<typeof messagePage>, status: number, setCookies: string[] = []): Promise<Response> {
  const headers = pageHeaders();
  for (const sc of setCookies) headers.append("set-cookie", sc);
  return new Response(await body, { status, headers });
}

/** A 303 to `location` (a path `safeReturnPath` checked; default the search page). */
function redirectHome(setCookies: string[], location = "/"): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const sc of setCookies) headers.append("set-cookie", sc);
  return new Response(null, { status: 303, headers });
}

/** The return path kept in the GitHub login cookie, checked again (a cookie is client input). */
function returnPathOf(encoded: string): string {
  try {
    return safeReturnPath(decodeURIComponent(encoded));
  } catch {
    return "/";
  }
}

/** Routes for web sign-in, sign-out and session info; mounted at the root by worker/index.ts. */
export function loginRoutes(): Hono<RootEnv> {
  const app = new Hono<RootEnv>();

  app.get("/login", async (c) => {
    const config = loadAuthConfig(c.env);
    if (config.provider === "local") {
      if (!isLoopbackRequest(c.req.raw))
        return html(messagePage("Local sign-in is loopback only", "AUTH_PROVIDER=local accepts sign-ins only on localhost."), 403);
      const nonce = randomToken(24);
      return html(localLoginPage(nonce, undefined, safeReturnPath(c.req.query(RETURN_TO_PARAM))), 200, [loginCookie(nonce)]);
    }
    const state = WEB_STATE_PREFIX + randomToken(24);
    const verifier = randomToken(48);
    const url = githubAuthorizeUrl(config.github!, `${publicOrigin(c.req.raw, c.env)}${GITHUB_CALLBACK_PATH}`, state, await pkceChallenge(verifier));
    const headers = new Headers({ location: url, "cache-control": "no-store" });
    // The return path rides in the same cookie, URI-encoded (no `;`, `,` or space); `.` splits only the first two parts.
    const next = encodeURIComponent(safeReturnPath(c.req.query(RETURN_TO_PARAM)));
    headers.append("set-cookie", loginCookie(`${state}.${verifier}.${next}`));
    return new Response(null, { status: 302, headers });
  });

  app.post("/login", async (c) => {
    const config = loadAuthConfig(c.env);
    if (config.provider !== "local") return html(messagePage("Use GitHub", "Sign in with GitHub: open /login."), 400);
    if (!isLoopbackRequest(c.req.raw))
      return html(messagePage("Local sign-in is loopback only", "AUTH_PROVIDER=local accepts sign-ins only on localhost."), 403);
    const form = await c.req.formData();
    const nonce = String(form.get("nonce") ?? "");
    const expected = cookie(c, LOGIN_COOKIE);
    if (!expected || !(await timingSafeEqualText(nonce, expected))) {
      return html(messagePage("Sign-in expired", "This sign-in form expired or was not opened in this browser; open /login again."), 403, [CLEAR_LOGIN_COOKIE]);
    }
    const presented = String(form.get("admin_token") ?? "");
    const next = safeReturnPath(form.get(RETURN_TO_PARAM));
    if (!config.adminToken || !(await timingSafeEqualText(presented, config.adminToken))) {
      return html(localLoginPage(nonce, "That is not the local admin token.", next), 401);
    }
    const { setCookie } = await createSession(c.env.DB, LOCAL_ADMIN, "local admin", config.sessionTtlSeconds, Date.now());
    await recordAudit(c.env, { actor: LOCAL_ADMIN.id, event: "sign_in", ip: auditAddress(c.env, c.req.raw), detail: { via: "web" } });
    return redirectHome([setCookie, CLEAR_LOGIN_COOKIE], next);
  });

  app.get(GITHUB_CALLBACK_PATH, async (c) => {
    const state = c.req.query("state") ?? "";
    if (!state.startsWith(WEB_STATE_PREFIX)) return finishGithubAuthorization(c);
    const config = loadAuthConfig(c.env);
    if (config.provider !== "github") return html(messagePage("Not found", "GitHub sign-in is not configured."), 404);
    const [expectedState, verifier, ...rest] = (cookie(c, LOGIN_COOKIE) ?? "").split(".");
    if (!expectedState || !verifier || !(await timingSafeEqualText(state, expectedState))) {
      return html(messagePage("Sign-in expired", "This sign-in was not started in this browser or took too long; open /login again."), 403, [
        CLEAR_LOGIN_COOKIE,
      ]);
    }
    const code = c.req.query("code");
    if (c.req.query("error") || !code) return html(messagePage("Sign-in declined", "GitHub sign-in was declined."), 403, [CLEAR_LOGIN_COOKIE]);
    const result = await githubLogin(config.github!, code, verifier, `${publicOrigin(c.req.raw, c.env)}${GITHUB_CALLBACK_PATH}`);
    if (!result.ok) return html(messagePage("Not allowed", result.reason), 403, [CLEAR_LOGIN_COOKIE]);
    // Permission sync, person direction: the repos and access-list teams GitHub says they read.
    const { teams } = await syncGithubPerson(c.env, config.github!, result.token, result.identity.login, Date.now());
    const caller = githubCaller(result.identity, teams);
    const { setCookie } = await createSession(
      c.env.DB,
      caller,
      result.identity.login,
      config.sessionTtlSeconds,
      Date.now(),
      sealSessionToken(c.env, result.token),
    );
    await recordAudit(c.env, { actor: caller.id, event: "sign_in", ip: auditAddress(c.env, c.req.raw), detail: { via: "web" } });
    return redirectHome([setCookie, CLEAR_LOGIN_COOKIE], returnPathOf(rest.join(".")));
  });

  app.post("/logout", async (c) => {
    const session = await readSession(c.env.DB, c.req.raw, Date.now());
    if (session) {
      const form = c.req.header("content-type")?.includes("form") ? await c.req.formData() : undefined;
      const presented = c.req.header(CSRF_HEADER) ?? (form?.get("csrf") as string | null | undefined);
      if (!(await csrfMatches(session, presented))) return html(messagePage("Not signed out", "Missing or wrong CSRF token; sign out from the web page."), 403);
      await deleteSession(c.env.DB, c.req.raw);
      await recordAudit(c.env, { actor: session.caller.id, event: "sign_out", ip: auditAddress(c.env, c.req.raw), detail: { via: "web" } });
    }
    return redirectHome([CLEAR_SESSION_COOKIE]);
  });

  app.get("/auth/session", async (c) => {
    const session = await readCheckedSession(c.env, c.req.raw, Date.now());
    if (!session) return errorResponse("unauthorized", "Not signed in; open /login.", { headers: { "cache-control": "no-store" } });
    const { caller, login, csrfToken, expiresAt } = session;
    return c.json({ login, caller: { id: caller.id, scopes: caller.scopes, repos: caller.repos }, csrfToken, expiresAt }, 200, { "cache-control": "no-store" });
  });

  return app;
}
