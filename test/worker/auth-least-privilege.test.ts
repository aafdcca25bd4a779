/**
 * Least privilege for every token (issue 18), each case found by probing the running product:
 * granted scope = requested ∩ identity (1), tokens minted within the creator's reach (2),
 * refresh-token reuse revokes the grant (3), PKCE for confidential clients too (4), limits on
 * dynamic registration and error redirects only to validated URIs (5), the per-IP limit ignores
 * a forged CF-Connecting-IP locally (8); plus the consent page's CSP and root RFC 9728 metadata.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../../kernel/env";
import { checkSearchRate, LocalRateLimiter } from "../../worker/auth/rate-limit";
import type { Caller } from "../../worker/services/context";
import { api } from "../helpers";
import { browse, CookieJar, ORIGIN } from "./auth-helpers";
import { approve, authorizeUrl, CALLBACK, getWith, refresh, registerClient, registerRaw, signIn, tokenRequest, type TokenResponse } from "./auth-oauth-helpers";
import { chunk, indexFixture } from "./search-fixture";

async function mint(body: Record<string, unknown>, bearer?: string): Promise<Response> {
  if (!bearer) return api("/api/tokens", { method: "POST", json: body });
  return SELF.fetch(`${ORIGIN}/api/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function policyOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of (res.headers.get("content-security-policy") ?? "").split(";")) {
    const [name, ...values] = d.trim().split(/\s+/);
    if (name) out[name] = values.join(" ");
  }
  return out;
}

describe("consent page CSP and discovery", () => {
  it("lets the consent form go exactly to the validated redirect target, nowhere broader", async () => {
    const { clientId } = await registerClient();
    const page = await browse(new CookieJar(), await authorizeUrl(clientId));
    expect(page.status).toBe(200);
    expect(policyOf(page)["form-action"]).toBe(`'self' ${CALLBACK}`);
    expect(policyOf(page)["form-action"]).not.toContain("https:");
    expect(policyOf(page)["frame-ancestors"]).toBe("'none'");
  });

  it("names the loopback port of this request (RFC 8252 §7.3: any port of a registered loopback URI)", async () => {
    const { clientId } = await registerClient({ redirect: "http://localhost:1234/callback" });
    const page = await browse(new CookieJar(), await authorizeUrl(clientId, { redirect: "http://localhost:51999/callback" }));
    expect(page.status).toBe(200);
    expect(policyOf(page)["form-action"]).toBe("'self' http://localhost:51999/callback");
  });

  it("names an https redirect exactly, without its query", async () => {
    const { clientId } = await registerClient({ redirect: "https://app.example.com/oauth/cb?tenant=a" });
    const page = await browse(new CookieJar(), await authorizeUrl(clientId, { redirect: "https://app.example.com/oauth/cb?tenant=a" }));
    expect(page.status).toBe(200);
    expect(policyOf(page)["form-action"]).toBe("'self' https://app.example.com/oauth/cb");
  });

  it("serves RFC 9728 metadata at the root as well as with the /mcp suffix", async () => {
    const root = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    const suffixed = await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    const body = await root.json<Record<string, unknown>>();
    expect(body).toEqual(await suffixed.json());
    expect(body.resource).toBe(`${ORIGIN}/mcp`);
    expect(body.authorization_servers).toEqual([ORIGIN]);
  });
});

describe("1. granted scope = requested ∩ identity", () => {
  it("a client asking for search gets search only, and cannot mint an admin token", async () => {
    const { tokens, consentHtml } = await signIn("search");
    expect(tokens.scope).toBe("search");
    expect(consentHtml).toMatch(/Granted to you \(local admin\): <strong>search<\/strong>/);
    expect((await getWith(tokens.access_token, "/api/repos")).status).toBe(200);
    expect((await mint({ name: "escalate", scopes: ["admin"] }, tokens.access_token)).status).toBe(403);
    expect((await getWith(tokens.access_token, "/api/tokens")).status).toBe(403);
  });

  it("a request without a scope gets search only", async () => {
    const { tokens, consentHtml } = await signIn();
    expect(tokens.scope).toBe("search");
    expect(consentHtml).toContain("<strong>search</strong>");
    expect((await mint({ name: "escalate", scopes: ["search"] }, tokens.access_token)).status).toBe(403);
  });

  it("an admin who asks for admin gets it (the rule narrows, it does not break admins)", async () => {
    const { tokens, consentHtml } = await signIn("search index admin");
    expect(tokens.scope.split(" ").sort()).toEqual(["admin", "index", "search"]);
    expect(consentHtml).toContain("<strong>search, index, admin</strong>");
    const res = await mint({ name: "from oauth admin", scopes: ["search"] }, tokens.access_token);
    expect(res.status).toBe(201);
  });
});

describe("2. a token mints only within its own scopes, repos and lifetime", () => {
  let limitedAdmin: { token: string; id: string; expiresAt: number };

  beforeAll(async () => {
    await indexFixture("lp-repo-a", "a".repeat(40), [
      { path: "src/a.ts", chunks: [chunk("function", 1, "export function alpha() {\n  return 'lpalpha';\n}", "alpha")] },
    ]);
    await indexFixture("lp-repo-b", "b".repeat(40), [
      { path: "src/b.ts", chunks: [chunk("function", 1, "export function beta() {\n  return 'lpbetasecret';\n}", "beta")] },
    ]);
    const res = await mint({ name: "admin of A", scopes: ["search", "index", "admin"], repos: ["lp-repo-a"], expiresInDays: 2 });
    expect(res.status).toBe(201);
    limitedAdmin = await res.json();
  });

  it("omitting repos inherits the creator's repos: the minted token cannot read repo B", async () => {
    const res = await mint({ name: "child", scopes: ["search"] }, limitedAdmin.token);
    expect(res.status).toBe(201);
    const child = await res.json<{ token: string; repos: string[] | null }>();
    expect(child.repos).toEqual(["lp-repo-a"]);
    const search = await getWith(child.token, "/api/search?q=lpbetasecret&repo=lp-repo-b");
    expect(await search.text()).not.toContain("lpbetasecret");
    expect([403, 404]).toContain(search.status);
  });

  it("naming a repo the creator may not see is refused", async () => {
    const res = await mint({ name: "child", scopes: ["search"], repos: ["lp-repo-b"] }, limitedAdmin.token);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("lp-repo-b");
  });

  it("a minted token cannot outlive its creator, and inherits its expiry when none is given", async () => {
    const tooLong = await mint({ name: "child", scopes: ["search"], expiresInDays: 30 }, limitedAdmin.token);
    expect(tooLong.status).toBe(403);
    const inherited = await (await mint({ name: "child", scopes: ["search"] }, limitedAdmin.token)).json<{ expiresAt: number }>();
    expect(inherited.expiresAt).toBe(limitedAdmin.expiresAt);
  });

  it("a repo-limited admin lists and revokes only tokens it minted", async () => {
    const others = await (await mint({ name: "unrelated", scopes: ["search"] })).json<{ id: string }>();
    const own = await (await mint({ name: "own child", scopes: ["search"] }, limitedAdmin.token)).json<{ id: string }>();
    const listed = await (await getWith(limitedAdmin.token, "/api/tokens")).json<{ tokens: { id: string; createdBy: string }[] }>();
    expect(listed.tokens.map((t) => t.id)).toContain(own.id);
    expect(listed.tokens.map((t) => t.id)).not.toContain(others.id);
    expect(listed.tokens.every((t) => t.createdBy === `token:${limitedAdmin.id}`)).toBe(true);
    const revokeOther = await SELF.fetch(`${ORIGIN}/api/tokens/${others.id}`, { method: "DELETE", headers: { authorization: `Bearer ${limitedAdmin.token}` } });
    // Someone else's token answers as an unknown one does: 404, nothing revealed, nothing revoked.
    expect(revokeOther.status).toBe(404);
    const stillThere = await (await api("/api/tokens")).json<{ tokens: { id: string; revokedAt: number | null }[] }>();
    const row = stillThere.tokens.find((t) => t.id === others.id);
    expect(row).toBeDefined();
    expect(row!.revokedAt).toBeNull();
  });

  it("revoking the creator revokes what it minted, transitively", async () => {
    const parent = await (await mint({ name: "parent", scopes: ["search", "admin"], repos: ["lp-repo-a"] })).json<{ token: string; id: string }>();
    const child = await (await mint({ name: "child", scopes: ["search", "admin"] }, parent.token)).json<{ token: string; id: string }>();
    const grandchild = await (await mint({ name: "grandchild", scopes: ["search"] }, child.token)).json<{ token: string; id: string }>();
    expect((await getWith(grandchild.token, "/api/repos")).status).toBe(200);
    const revoked = await api(`/api/tokens/${parent.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<{ alsoRevoked: string[] }>()).alsoRevoked.sort()).toEqual([child.id, grandchild.id].sort());
    expect((await getWith(child.token, "/api/repos")).status).toBe(401);
    expect((await getWith(grandchild.token, "/api/repos")).status).toBe(401);
  });
});

describe("3. a reused rotated refresh token mints nothing and revokes the grant", () => {
  const mcpList = (token: string) =>
    SELF.fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { host: "localhost", authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  it("R1 after R1 -> R2 -> R3 is refused, and R3 and its access token die with the grant", async () => {
    const { clientId, tokens: t1 } = await signIn("search");
    const t2 = await (await refresh(clientId, t1.refresh_token)).json<TokenResponse>();
    const r3 = await refresh(clientId, t2.refresh_token);
    expect(r3.status).toBe(200);
    const t3 = await r3.json<TokenResponse>();
    expect((await mcpList(t3.access_token)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const reuse = await refresh(clientId, t1.refresh_token);
      expect(reuse.status, `reuse ${i + 1}`).toBe(400);
      expect((await reuse.json<{ error: string }>()).error).toBe("invalid_grant");
    }
    expect((await refresh(clientId, t3.refresh_token)).status).toBe(400);
    expect((await mcpList(t3.access_token)).status).toBe(401);
  });

  it("allows one retry with R1 within the grace window; a second one revokes the grant", async () => {
    const { clientId, tokens: t1 } = await signIn("search");
    expect((await refresh(clientId, t1.refresh_token)).status).toBe(200);
    const retry = await refresh(clientId, t1.refresh_token);
    expect(retry.status).toBe(200);
    const t3 = await retry.json<TokenResponse>();
    const again = await refresh(clientId, t1.refresh_token);
    expect(again.status).toBe(400);
    expect((await refresh(clientId, t3.refresh_token)).status).toBe(400);
    expect((await mcpList(t3.access_token)).status).toBe(401);
  });

  it("refuses R1 after the grace window even once", async () => {
    const { clientId, tokens: t1 } = await signIn("search");
    const t2 = await (await refresh(clientId, t1.refresh_token)).json<TokenResponse>();
    const [userId, grantId] = t1.refresh_token.split(":");
    const key = `ccp-refresh:${userId}:${grantId}`;
    const record = await env.OAUTH_KV.get<{ retired: { at: number }[] }>(key, "json");
    expect(record?.retired).toHaveLength(1);
    record!.retired[0].at -= 31;
    await env.OAUTH_KV.put(key, JSON.stringify(record));
    expect((await refresh(clientId, t1.refresh_token)).status).toBe(400);
    expect((await refresh(clientId, t2.refresh_token)).status).toBe(400);
  });

  it("keeps the legitimate rotation chain working", async () => {
    const { clientId, tokens } = await signIn("search");
    let current = tokens;
    for (let i = 0; i < 4; i++) {
      const res = await refresh(clientId, current.refresh_token);
      expect(res.status, `rotation ${i + 1}`).toBe(200);
      current = await res.json<TokenResponse>();
    }
    expect((await mcpList(current.access_token)).status).toBe(200);
  });
});

describe("4. PKCE for every client", () => {
  it("a client_secret_basic client gets no code without a code_challenge", async () => {
    const { clientId, clientSecret } = await registerClient({ authMethod: "client_secret_basic" });
    expect(clientSecret).toBeTruthy();
    const res = await browse(new CookieJar(), await authorizeUrl(clientId, { pkce: false }));
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("a confidential client with PKCE still signs in and must send the verifier", async () => {
    const { clientId, clientSecret } = await registerClient({ authMethod: "client_secret_basic" });
    const verifier = "c".repeat(60);
    const { back } = await approve(await authorizeUrl(clientId, { verifier }));
    const code = back.searchParams.get("code")!;
    const basic = { id: clientId, secret: clientSecret! };
    const without = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: CALLBACK }, basic);
    expect(without.status).toBe(400);
  });
});

describe("5. dynamic client registration has limits", () => {
  const base = { redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] };

  it("refuses a 1 MB client_name before storing it", async () => {
    const res = await registerRaw({ ...base, client_name: "x".repeat(1_000_000) });
    expect(res.status).toBe(413);
  });

  it("refuses a long client_name and too many redirect URIs, naming the field", async () => {
    const name = await registerRaw({ ...base, client_name: "n".repeat(101) });
    expect(name.status).toBe(400);
    expect(await name.json()).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining("client_name") });
    const uris = await registerRaw({ ...base, redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:${4000 + i}/cb`) });
    expect(uris.status).toBe(400);
    expect(await uris.json()).toMatchObject({ error: "invalid_client_metadata", error_description: expect.stringContaining("redirect_uris") });
    const longUri = await registerRaw({ ...base, redirect_uris: [`https://a.example/${"p".repeat(2100)}`] });
    expect(longUri.status).toBe(400);
  });

  it("limits registrations per client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await registerRaw({ ...base, client_name: `r${i}` }, "198.51.100.77")).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await registerRaw({ ...base, client_name: "other" }, "198.51.100.78")).status).toBe(201);
  });

  it("/authorize redirects an error only after the client and that exact URI are validated", async () => {
    const unknownClient = await browse(
      new CookieJar(),
      `${ORIGIN}/authorize?response_type=token&client_id=nope&redirect_uri=${encodeURIComponent("https://evil.example/cb")}`,
    );
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get("location")).toBeNull();
    const { clientId } = await registerClient();
    const otherUri = await browse(new CookieJar(), await authorizeUrl(clientId, { redirect: "https://evil.example/cb", responseType: "token" }));
    expect(otherUri.status).toBe(400);
    expect(otherUri.headers.get("location")).toBeNull();
    const validated = await browse(new CookieJar(), await authorizeUrl(clientId, { responseType: "token" }));
    expect(validated.status).toBe(302);
    expect(validated.headers.get("location")).toMatch(new RegExp(`^${CALLBACK.replace(/[.]/g, "\\.")}\\?.*error=`));
  });
});

describe("8. locally the per-IP limit counts the socket, not a client-sent CF-Connecting-IP", () => {
  const caller: Caller = { id: "token:lp", kind: "api-token", scopes: ["search"], repos: "*" };
  const search = (ip: string) => new Request(`${ORIGIN}/api/search?q=x`, { headers: { "cf-connecting-ip": ip } });

  it("with CLIENT_IP_SOURCE=loopback a fresh header does not reset the limiter", async () => {
    const local: Env = {
      ...(env as unknown as Env),
      CLIENT_IP_SOURCE: "loopback",
      SEARCH_LIMIT_IP: new LocalRateLimiter(2, 60),
      SEARCH_LIMIT_IDENTITY: new LocalRateLimiter(100, 60),
    };
    expect((await checkSearchRate(local, caller, search("10.0.0.1"))).ok).toBe(true);
    expect((await checkSearchRate(local, caller, search("10.0.0.1"))).ok).toBe(true);
    expect((await checkSearchRate(local, caller, search("10.0.0.1"))).ok).toBe(false);
    expect((await checkSearchRate(local, caller, search("10.0.0.2"))).ok).toBe(false);
  });

  it("on Cloudflare (the default) CF-Connecting-IP is the edge's and is counted per address", async () => {
    const edge: Env = { ...(env as unknown as Env), SEARCH_LIMIT_IP: new LocalRateLimiter(1, 60), SEARCH_LIMIT_IDENTITY: new LocalRateLimiter(100, 60) };
    expect((await checkSearchRate(edge, caller, search("203.0.113.1"))).ok).toBe(true);
    expect((await checkSearchRate(edge, caller, search("203.0.113.1"))).ok).toBe(false);
    expect((await checkSearchRate(edge, caller, search("203.0.113.2"))).ok).toBe(true);
  });
});
