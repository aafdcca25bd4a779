/**
 * The GitHub upstream flow against a fake GitHub answered inside the test: the Worker's entry is
 * called directly with AUTH_PROVIDER=github and base URLs pointing at fake hosts, and global
 * `fetch` answers those hosts (checking the PKCE verifier like GitHub does). Covers an allowed
 * org member getting tokens with the reader role, an admin-listed user, and a user outside the
 * allowed organisation being refused with no code.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { discoverAuthorizationServerMetadata, exchangeAuthorization, registerClient, startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import type { Env } from "../../kernel/env";
import { CookieJar, hiddenInput, ORIGIN } from "./auth-helpers";

const GH = "https://github.fake.test";
const GH_API = "https://api.github.fake.test";
const ghEnv: Env = {
  ...(env as unknown as Env),
  AUTH_PROVIDER: "github",
  GITHUB_CLIENT_ID: "Iv1.fakeclient",
  GITHUB_CLIENT_SECRET: "fake-client-secret",
  GITHUB_BASE_URL: GH,
  GITHUB_API_URL: GH_API,
  GITHUB_ALLOWED_ORGS: "acme",
  GITHUB_ADMIN_USERS: "boss",
  SIGNING_SECRET: "0123456789abcdef0123456789abcdef-test-only",
};

/** Users of the fake GitHub: login, numeric id, orgs they actively belong to. */
const USERS: Record<string, { id: number; orgs: string[] }> = {
  alice: { id: 101, orgs: ["acme"] },
  boss: { id: 102, orgs: [] },
  mallory: { id: 666, orgs: ["evil"] },
};

/** Codes the fake GitHub handed out: code -> login and the PKCE challenge it was bound to. */
const codes = new Map<string, { login: string; challenge: string }>();
let realFetch: typeof fetch;

async function s256(v: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(v)));
  return btoa(String.fromCharCode(...d))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function fakeGitHub(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.origin === GH && url.pathname === "/login/oauth/access_token" && req.method === "POST") {
    const form = new URLSearchParams(await req.text());
    const grant = codes.get(form.get("code") ?? "");
    if (form.get("client_secret") !== ghEnv.GITHUB_CLIENT_SECRET || !grant || (await s256(form.get("code_verifier") ?? "")) !== grant.challenge) {
      return Response.json({ error: "bad_verification_code" });
    }
    codes.delete(form.get("code")!);
    return Response.json({ access_token: `gho_${grant.login}`, token_type: "bearer", scope: "read:org" });
  }
  if (url.origin === GH_API) {
    const login = (req.headers.get("authorization") ?? "").replace(/^Bearer gho_/, "");
    const user = USERS[login];
    if (!user) return Response.json({ message: "Bad credentials" }, { status: 401 });
    if (url.pathname === "/user") return Response.json({ login, id: user.id });
    const m = /^\/user\/memberships\/orgs\/([^/]+)$/.exec(url.pathname);
    if (m) return user.orgs.includes(m[1]) ? Response.json({ state: "active", role: "member" }) : Response.json({ message: "Not Found" }, { status: 404 });
    return Response.json({ message: "Not Found" }, { status: 404 });
  }
  return realFetch(req);
}

/** Calls the Worker entry with the GitHub env, like SELF.fetch but with our bindings. */
async function gh(url: string, init: RequestInit = {}, jar?: CookieJar): Promise<Response> {
  const headers = new Headers(init.headers);
  if (jar?.header()) headers.set("cookie", jar.header());
  const ctx = createExecutionContext();
  const request = new Request(url.startsWith("http") ? url : `${ORIGIN}${url}`, { ...init, headers, redirect: "manual" }) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  const res = await worker.fetch(request, ghEnv, ctx);
  await waitOnExecutionContext(ctx);
  jar?.absorb(res);
  return res;
}
const ghFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  gh(
    input instanceof URL ? input.toString() : typeof input === "string" ? input : input.url,
    init ?? (input instanceof Request ? input : undefined),
  )) as typeof fetch;

beforeEach(() => {
  realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => fakeGitHub(new Request(input, init)));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Runs register -> /authorize consent -> GitHub (fake) -> callback, returning the client redirect. */
async function signInAs(login: string, scope = "search") {
  const as = (await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: ghFetch }))!;
  const redirectUrl = "http://127.0.0.1:47001/cb";
  const clientInformation = await registerClient(ORIGIN, {
    metadata: as,
    clientMetadata: {
      client_name: "gh test",
      redirect_uris: [redirectUrl],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
    fetchFn: ghFetch,
  });
  const { authorizationUrl, codeVerifier } = await startAuthorization(ORIGIN, {
    metadata: as,
    clientInformation,
    redirectUrl,
    scope,
    state: "st-1",
    resource: new URL(`${ORIGIN}/mcp`),
  });
  const jar = new CookieJar();
  const consent = await gh(authorizationUrl.toString(), {}, jar);
  expect(consent.status).toBe(200);
  // The consent CSP lets the form reach GitHub and this client's callback, nothing broader.
  expect(consent.headers.get("content-security-policy")).toContain(`form-action 'self' ${redirectUrl} ${GH}/login/oauth/authorize;`);
  const html = await consent.text();
  expect(html).not.toContain("admin_token"); // GitHub mode never asks for the local token
  const toGitHub = await gh(
    "/authorize",
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ handle: hiddenInput(html, "handle"), decision: "approve" }).toString(),
    },
    jar,
  );
  expect(toGitHub.status).toBe(302);
  const ghAuthorize = new URL(toGitHub.headers.get("location")!);
  expect(ghAuthorize.origin + ghAuthorize.pathname).toBe(`${GH}/login/oauth/authorize`);
  expect(ghAuthorize.searchParams.get("client_id")).toBe(ghEnv.GITHUB_CLIENT_ID);
  expect(ghAuthorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/oauth/callback/github`);
  expect(ghAuthorize.searchParams.get("code_challenge_method")).toBe("S256");
  // The fake GitHub signs the user in and redirects back with a code bound to the challenge.
  const code = `code-${login}-${crypto.randomUUID()}`;
  codes.set(code, { login, challenge: ghAuthorize.searchParams.get("code_challenge")! });
  const back = await gh(`/oauth/callback/github?code=${code}&state=${encodeURIComponent(ghAuthorize.searchParams.get("state")!)}`, {}, jar);
  expect(back.status).toBe(302);
  return { as, clientInformation, codeVerifier, redirectUrl, location: new URL(back.headers.get("location")!) };
}

/** The web sign-in through the fake GitHub as `login`: /login (with `?next=`), then the callback; returns the callback's answer. */
async function webSignIn(login: string, jar: CookieJar, next?: string): Promise<Response> {
  const start = await gh(next === undefined ? "/login" : `/login?next=${encodeURIComponent(next)}`, {}, jar);
  expect(start.status).toBe(302);
  const to = new URL(start.headers.get("location")!);
  const code = `web-${login}-${crypto.randomUUID()}`;
  codes.set(code, { login, challenge: to.searchParams.get("code_challenge")! });
  return gh(`/oauth/callback/github?code=${code}&state=${to.searchParams.get("state")}`, {}, jar);
}

describe("GitHub upstream sign-in", () => {
  it("gives an allowed org member reader tokens that search but cannot manage tokens", async () => {
    const { as, clientInformation, codeVerifier, redirectUrl, location } = await signInAs("alice");
    expect(location.searchParams.get("state")).toBe("st-1");
    const code = location.searchParams.get("code");
    expect(code).toBeTruthy();
    const tokens = await exchangeAuthorization(ORIGIN, {
      metadata: as,
      clientInformation,
      authorizationCode: code!,
      codeVerifier,
      redirectUri: redirectUrl,
      resource: new URL(`${ORIGIN}/mcp`),
      fetchFn: ghFetch,
    });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    // Authenticated and allowed (this file indexes no repo, so search itself may answer 404).
    expect([200, 404]).toContain((await gh("/api/search?q=anything", { headers: auth })).status);
    expect((await gh("/api/tokens", { headers: auth })).status).toBe(403);
    const mcp = await gh("/mcp", {
      method: "POST",
      headers: { ...auth, host: "localhost", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(mcp.status).toBe(200);
  });

  it("gives a configured admin user the admin role when the client asks for it, and only then", async () => {
    const exchange = async (scope: string) => {
      const { as, clientInformation, codeVerifier, redirectUrl, location } = await signInAs("boss", scope);
      return exchangeAuthorization(ORIGIN, {
        metadata: as,
        clientInformation,
        authorizationCode: location.searchParams.get("code")!,
        codeVerifier,
        redirectUri: redirectUrl,
        resource: new URL(`${ORIGIN}/mcp`),
        fetchFn: ghFetch,
      });
    };
    const admin = await exchange("search index admin");
    expect(admin.scope).toBe("search index admin");
    expect((await gh("/api/tokens", { headers: { authorization: `Bearer ${admin.access_token}` } })).status).toBe(200);
    const searchOnly = await exchange("search");
    expect(searchOnly.scope).toBe("search");
    expect((await gh("/api/tokens", { headers: { authorization: `Bearer ${searchOnly.access_token}` } })).status).toBe(403);
  });

  it("grants a reader who asks for admin only what a reader may have", async () => {
    const { as, clientInformation, codeVerifier, redirectUrl, location } = await signInAs("alice", "search index admin");
    const tokens = await exchangeAuthorization(ORIGIN, {
      metadata: as,
      clientInformation,
      authorizationCode: location.searchParams.get("code")!,
      codeVerifier,
      redirectUri: redirectUrl,
      resource: new URL(`${ORIGIN}/mcp`),
      fetchFn: ghFetch,
    });
    expect(tokens.scope).toBe("search");
    expect((await gh("/api/tokens", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(403);
  });

  it("refuses a user outside the allowed organisation: access_denied, no code", async () => {
    const { location } = await signInAs("mallory");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("code")).toBeNull();
    expect(location.searchParams.get("state")).toBe("st-1");
  });

  it("refuses a callback whose state was not started in this browser", async () => {
    const res = await gh("/oauth/callback/github?code=x&state=forged-state");
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("checks membership again at every refresh: removal from the org ends the sign-in there (issue 48)", async () => {
    const { as, clientInformation, codeVerifier, redirectUrl, location } = await signInAs("alice");
    const resource = new URL(`${ORIGIN}/mcp`);
    const tokens = await exchangeAuthorization(ORIGIN, {
      metadata: as,
      clientInformation,
      authorizationCode: location.searchParams.get("code")!,
      codeVerifier,
      redirectUri: redirectUrl,
      resource,
      fetchFn: ghFetch,
    });
    expect(tokens.expires_in).toBe(600); // ACCESS_TOKEN_TTL_SECONDS: the most a removal stays effective
    const refresh = (token: string) =>
      gh("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: token,
          client_id: clientInformation.client_id,
          resource: resource.href,
        }).toString(),
      });
    const ok = await refresh(tokens.refresh_token!);
    expect(ok.status).toBe(200);
    const again = (await ok.json()) as { access_token: string; refresh_token: string };
    USERS.alice.orgs = []; // removed from acme on GitHub
    try {
      const refused = await refresh(again.refresh_token);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe("invalid_grant");
      // The grant is gone: its access token stops working too.
      expect((await gh("/api/search?q=x", { headers: { authorization: `Bearer ${again.access_token}` } })).status).toBe(401);
      const audit = await env.DB.prepare("SELECT actor, detail FROM audit_log WHERE event = 'sign_in_refused_on_refresh'").all<{
        actor: string;
        detail: string;
      }>();
      expect(audit.results).toEqual([{ actor: "github:alice", detail: expect.stringContaining("no longer in an allowed") }]);
    } finally {
      USERS.alice.orgs = ["acme"];
    }
  });

  it("returns a web sign-in to the page it started from, and never off this origin", async () => {
    try {
      const back = await webSignIn("alice", new CookieJar(), "/?q=parse%20signed&repo=hono");
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe("/?q=parse%20signed&repo=hono");
      for (const evil of ["https://evil.example/", "//evil.example/", "/\\evil.example"]) {
        expect((await webSignIn("alice", new CookieJar(), evil)).headers.get("location")).toBe("/");
      }
    } finally {
      // The tests below count sessions.
      await env.DB.prepare("DELETE FROM sessions").run();
    }
  });

  it("re-checks a web session at GitHub every SESSION_RECHECK_SECONDS: removal from the org ends it (issue 48)", async () => {
    const jar = new CookieJar();
    expect((await webSignIn("alice", jar)).status).toBe(303);
    // The GitHub token is kept sealed, never in the clear.
    const row = await env.DB.prepare("SELECT upstream, checked_at FROM sessions").first<{ upstream: string; checked_at: number }>();
    expect(row!.upstream).toMatch(/^v1\./);
    expect(row!.upstream).not.toContain("gho_alice");
    const signedInAt = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      USERS.alice.orgs = []; // removed from acme on GitHub
      // Within the interval (default 600 s) the last check stands: no GitHub call per request.
      vi.setSystemTime(signedInAt + 599_000);
      expect((await gh("/api/repos", {}, jar)).status).toBe(200);
      // Past it, the next request re-checks, the session ends, and stays ended.
      vi.setSystemTime(signedInAt + 601_000);
      expect((await gh("/api/repos", {}, jar)).status).toBe(401);
      expect((await gh("/auth/session", {}, jar)).status).toBe(401);
      expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions").first("n")).toBe(0);
      const audit = await env.DB.prepare("SELECT actor, detail FROM audit_log WHERE event = 'sign_in_refused_on_recheck'").all<{
        actor: string;
        detail: string;
      }>();
      expect(audit.results).toEqual([{ actor: "github:alice", detail: expect.stringContaining("no longer in an allowed") }]);
    } finally {
      USERS.alice.orgs = ["acme"];
      vi.useRealTimers();
    }
  });

  it("keeps a re-checked web session of a person still allowed, and checks again only after the interval", async () => {
    const jar = new CookieJar();
    await webSignIn("alice", jar);
    const signedInAt = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(signedInAt + 601_000);
      expect((await gh("/auth/session", {}, jar)).status).toBe(200);
      const checked = await env.DB.prepare("SELECT checked_at FROM sessions").first<number>("checked_at");
      expect(checked).toBeGreaterThanOrEqual(signedInAt + 601_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("runs the web sign-in through GitHub too, refusing outsiders", async () => {
    for (const [login, expected] of [
      ["alice", 303],
      ["mallory", 403],
    ] as const) {
      const jar = new CookieJar();
      const back = await webSignIn(login, jar);
      expect(back.status).toBe(expected);
      const session = await gh("/auth/session", {}, jar);
      expect(session.status).toBe(expected === 303 ? 200 : 401);
    }
  });
});
