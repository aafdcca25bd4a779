/**
 * The whole MCP OAuth 2.1 flow against the Worker, with the MCP SDK's client auth: discovery
 * (RFC 9728 + RFC 8414), dynamic registration, authorize with the local login, code exchange
 * with PKCE, a tool call, REST with the same token, refresh-token rotation, revocation, and
 * being refused afterwards.
 */
import { env, SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverAuthorizationServerMetadata, refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { browse, CookieJar, hiddenInput, MemoryOAuthClient, ORIGIN, postForm, selfFetch } from "./auth-helpers";

const MCP_URL = new URL(`${ORIGIN}/mcp`);

async function authorizeInBrowser(client: MemoryOAuthClient, adminToken: string): Promise<Response> {
  const jar = new CookieJar();
  const page = await browse(jar, client.authorizationUrl!.toString());
  expect(page.status).toBe(200);
  expect(page.headers.get("x-frame-options")).toBe("DENY");
  const html = await page.text();
  // The client's self-asserted name is escaped, and the loopback redirect is flagged.
  expect(html).not.toContain("<script>alert(1)</script>");
  expect(html).toContain("&lt;script&gt;");
  expect(html).toContain("127.0.0.1");
  expect(html).toContain("app on your computer");
  const handle = hiddenInput(html, "handle");
  return postForm(jar, "/authorize", { handle, decision: "approve", admin_token: adminToken });
}

describe("OAuth 2.1 on /mcp with the local provider", () => {
  it("publishes RFC 9728 and RFC 8414 metadata and challenges with resource_metadata", async () => {
    const res = await SELF.fetch(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    const prm = await (await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json<Record<string, unknown>>();
    expect(prm.resource).toBe(`${ORIGIN}/mcp`);
    expect(prm.authorization_servers).toEqual([ORIGIN]);
    const as = await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: selfFetch });
    expect(as?.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as?.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
    expect(as?.authorization_endpoint).toBe(`${ORIGIN}/authorize`);
    expect((as as { revocation_endpoint?: string } | undefined)?.revocation_endpoint).toBeDefined();
  });

  it("register -> authorize (local login) -> PKCE exchange -> tool call -> refresh -> revoke -> refused", async () => {
    const provider = new MemoryOAuthClient();
    const transport = () => new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider, fetch: selfFetch });

    // 1. Unauthenticated connect: discovery, dynamic registration, then a redirect to /authorize.
    const first = new Client({ name: "auth-test", version: "1.0.0" });
    const t1 = transport();
    await expect(first.connect(t1)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy();
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.pathname).toBe("/authorize");
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl.searchParams.get("resource")).toBe(MCP_URL.toString());

    // 2. A wrong admin token is refused and no code is issued.
    const wrong = await authorizeInBrowser(provider, "not-the-admin-token");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("location")).toBeNull();

    // 3. The right one: redirect back to the client with a code and the state.
    const ok = await authorizeInBrowser(provider, env.ADMIN_TOKEN!);
    expect(ok.status).toBe(302);
    const back = new URL(ok.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe(provider.redirect);
    expect(back.searchParams.get("state")).toBe(authUrl.searchParams.get("state"));
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    const code = back.searchParams.get("code")!;

    // 4. Exchange the code (PKCE verifier) and call a tool.
    await t1.finishAuth(code);
    const tokens1 = provider.saved!;
    expect(tokens1.access_token).toBeTruthy();
    expect(tokens1.refresh_token).toBeTruthy();
    const client = new Client({ name: "auth-test", version: "1.0.0" });
    await client.connect(transport());
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const call = await client.callTool({ name: tools[0].name, arguments: {} });
    expect(call).toHaveProperty("content");
    await client.close();

    // The same access token works on REST, within the granted scope (the SDK asks for the
    // resource's scopes_supported: search), so token management is refused.
    expect(tokens1.scope).toBe("search");
    const rest = await SELF.fetch(`${ORIGIN}/api/repos`, { headers: { authorization: `Bearer ${tokens1.access_token}` } });
    expect(rest.status).toBe(200);
    expect((await SELF.fetch(`${ORIGIN}/api/tokens`, { headers: { authorization: `Bearer ${tokens1.access_token}` } })).status).toBe(403);

    // 5. Refresh rotates: r1 -> (a2, r2); using r2 -> (a3, r3); then r1 no longer works.
    const as = (await discoverAuthorizationServerMetadata(ORIGIN, { fetchFn: selfFetch }))!;
    const refresh = (refreshToken: string) =>
      refreshAuthorization(ORIGIN, { metadata: as, clientInformation: provider.info!, refreshToken, resource: MCP_URL, fetchFn: selfFetch });
    const tokens2 = await refresh(tokens1.refresh_token!);
    expect(tokens2.access_token).not.toBe(tokens1.access_token);
    expect(tokens2.refresh_token).not.toBe(tokens1.refresh_token);
    const tokens3 = await refresh(tokens2.refresh_token!);

    const mcpWith = (token: string) =>
      selfFetch(MCP_URL, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    expect((await mcpWith(tokens3.access_token)).status).toBe(200);
    // (Reusing the rotated r1 now would end the grant: test/worker/auth-least-privilege.test.ts.)

    // 6. Revoke the refresh token (RFC 7009): the grant and its access tokens die with it.
    const revocationEndpoint = (as as { revocation_endpoint?: string }).revocation_endpoint!;
    const revoke = await SELF.fetch(revocationEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens3.refresh_token!, token_type_hint: "refresh_token", client_id: provider.info!.client_id }).toString(),
    });
    expect(revoke.status).toBe(200);

    // 7. Refused afterwards, with no data in the body.
    const refused = await mcpWith(tokens3.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("invalid_token");
    expect(await refused.text()).not.toContain("tools");
    const restRefused = await SELF.fetch(`${ORIGIN}/api/tokens`, { headers: { authorization: `Bearer ${tokens3.access_token}` } });
    expect(restRefused.status).toBe(401);
    await expect(refresh(tokens3.refresh_token!)).rejects.toThrow();
    await expect(refresh(tokens1.refresh_token!)).rejects.toThrow();
  });

  it("denying consent redirects back with access_denied and no code", async () => {
    const provider = new MemoryOAuthClient();
    await expect(
      new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider, fetch: selfFetch })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const jar = new CookieJar();
    const html = await (await browse(jar, provider.authorizationUrl!.toString())).text();
    const res = await postForm(jar, "/authorize", { handle: hiddenInput(html, "handle"), decision: "deny" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("refuses the consent form without the browser binding cookie (forged post)", async () => {
    const provider = new MemoryOAuthClient();
    await expect(
      new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(MCP_URL, { authProvider: provider, fetch: selfFetch })),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const html = await (await browse(new CookieJar(), provider.authorizationUrl!.toString())).text();
    const res = await postForm(new CookieJar(), "/authorize", { handle: hiddenInput(html, "handle"), decision: "approve", admin_token: env.ADMIN_TOKEN! });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("refuses the local login on a non-loopback host", async () => {
    const res = await SELF.fetch(
      "https://copilot.example.com/authorize?response_type=code&client_id=x&redirect_uri=https://a.example/cb&code_challenge=abc&code_challenge_method=S256",
    );
    expect(res.status).toBe(403);
    const fromAfar = await SELF.fetch(`${ORIGIN}/login`, { headers: { "cf-connecting-ip": "203.0.113.9" } });
    expect(fromAfar.status).toBe(403);
  });

  it("accepts API tokens with the search scope (or one above it) on /mcp for headless agents, and refuses unknown ones", async () => {
    const mint = async (scopes: string[]) =>
      await (await api("/api/tokens", { method: "POST", json: { name: `mcp ${scopes}`, scopes } })).json<{ token: string; id: string }>();
    const list = (token: string) =>
      selfFetch(MCP_URL, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    const search = await mint(["search"]);
    expect((await list(search.token)).status).toBe(200);
    expect((await list(env.ADMIN_TOKEN!)).status).toBe(200);
    // Scopes are ordered (search < index < admin): an index token includes search.
    const indexOnly = await mint(["index"]);
    expect((await list(indexOnly.token)).status).toBe(200);
    expect((await api(`/api/tokens/${search.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await list(search.token)).status).toBe(401);
    expect((await list("ccp_not-a-real-token-000000000000000000000000")).status).toBe(401);
  });
});
