/**
 * Auth matrix over every REST route, enumerated from the Hono app so new routes are covered
 * automatically: no token, malformed, expired, revoked, wrong scope, another repo -> 401/403
 * (or 404 for a repo the caller may not see) and no indexed data in the body.
 * Also API token management: shown once, hashed at rest, last use recorded, revocation.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { signIn } from "./auth-oauth-helpers";
import { call, expectNoData, routes, SECRET_MARKER, SECRET_PATH, type Scope } from "./auth-matrix-routes";
import { chunk, indexFixture } from "./search-fixture";

async function newToken(body: Record<string, unknown>): Promise<{ token: string; id: string }> {
  const res = await api("/api/tokens", { method: "POST", json: body });
  expect(res.status).toBe(201);
  return res.json();
}

describe("auth matrix over every REST route", () => {
  const t: Record<string, string> = {};

  beforeAll(async () => {
    await indexFixture("secret-repo", "c".repeat(40), [
      { path: SECRET_PATH, chunks: [chunk("function", 1, `export function vaultKey() {\n  return "${SECRET_MARKER}"; // zebraquokka\n}`, "vaultKey")] },
    ]);
    await indexFixture("open-repo", "d".repeat(40), [
      { path: "src/hello.ts", chunks: [chunk("function", 1, "export function hello() {\n  return 'zebraquokka hello';\n}", "hello")] },
    ]);
    t.expired = (await newToken({ name: "expired", scopes: ["search", "index", "admin"] })).token;
    const exp = await newToken({ name: "to-expire", scopes: ["search", "index", "admin"] });
    await env.DB.prepare("UPDATE api_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, exp.id)
      .run();
    t.expired = exp.token;
    const rev = await newToken({ name: "revoked", scopes: ["search", "index", "admin"] });
    expect((await api(`/api/tokens/${rev.id}`, { method: "DELETE" })).status).toBe(200);
    t.revoked = rev.token;
    t.search = (await newToken({ name: "search only", scopes: ["search"] })).token;
    t.index = (await newToken({ name: "index only", scopes: ["index"] })).token;
    t.noAdmin = (await newToken({ name: "search+index", scopes: ["search", "index"] })).token;
    t.otherRepo = (await newToken({ name: "open repo only", scopes: ["search", "index", "admin"], repos: ["open-repo"] })).token;
  });

  it("finds the routes of the REST app (sanity: the matrix is not empty)", () => {
    const paths = routes().map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain("POST /tokens");
    expect(paths).toContain("DELETE /tokens/:id");
    expect(paths.length).toBeGreaterThanOrEqual(4);
  });

  it("answers 401 with a Bearer challenge and no data without a valid credential", async () => {
    const cases: [string, string | undefined][] = [
      ["no token", undefined],
      ["malformed: not Bearer", "Basic dXNlcjpwYXNz"],
      ["malformed: empty", "Bearer "],
      ["malformed: garbage", "Bearer \u0001\u0002"],
      ["unknown token", "Bearer ccp_this-token-does-not-exist-anywhere-000000"],
      ["unknown OAuth-shaped token", "Bearer user:grant:secret"],
      ["expired", `Bearer ${t.expired}`],
      ["revoked", `Bearer ${t.revoked}`],
    ];
    for (const r of routes()) {
      for (const [label, auth] of cases) {
        const res = await call(r.method, r.url, auth);
        const text = await res.text();
        expect(res.status, `${label}: ${r.method} ${r.path} -> ${text}`).toBe(401);
        expect(res.headers.get("www-authenticate"), `${label}: ${r.method} ${r.path}`).toMatch(/^Bearer /);
        expect(JSON.parse(text)).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
        expectNoData(text);
      }
    }
  });

  it("answers 403 without data when the token lacks the route's scope", async () => {
    // The highest scope below the route's: search routes have none (every scope includes search).
    const wrong: Record<Scope, string | null> = { admin: t.noAdmin, index: t.search, search: null };
    const below = routes().filter((r) => wrong[r.scope] !== null);
    expect(below.length).toBeGreaterThan(10);
    for (const r of below) {
      const res = await call(r.method, r.url, `Bearer ${wrong[r.scope]}`);
      const text = await res.text();
      expect(res.status, `${r.method} ${r.path} needs ${r.scope} -> ${text}`).toBe(403);
      expect(JSON.parse(text).error.code).toBe("forbidden");
      expectNoData(text);
    }
  });

  it("holds an OAuth token to the scope it was granted, not the signing-in admin's (issue 18 item 1)", async () => {
    const { tokens } = await signIn("search");
    expect(tokens.scope).toBe("search");
    for (const r of routes()) {
      if (r.scope === "search") continue;
      const res = await call(r.method, r.url, `Bearer ${tokens.access_token}`);
      const text = await res.text();
      expect(res.status, `${r.method} ${r.path} needs ${r.scope} -> ${text}`).toBe(403);
      expectNoData(text);
    }
  });

  it("names the scope a route really needs: deleting a repo says admin to search and index tokens", async () => {
    for (const token of [t.search, t.index, t.noAdmin]) {
      const res = await call("DELETE", "/api/repos/open-repo", `Bearer ${token}`);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/needs the "admin" scope/);
    }
  });

  it("never shows another repo's data to a token limited to one repo", async () => {
    for (const r of routes()) {
      if (r.path.startsWith("/tokens")) continue; // admin token management is not per repo
      const res = await call(r.method, r.url, `Bearer ${t.otherRepo}`);
      const text = await res.text();
      if (r.path.includes(":id") || r.path.includes(":repo")) expect([403, 404], `${r.method} ${r.path} -> ${text}`).toContain(res.status);
      expectNoData(text);
    }
  });

  it("lets the admin see the secret repo (the matrix would catch a route that hides everything)", async () => {
    const res = await api("/api/search?q=zebraquokka&repo=secret-repo");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("vault/keys");
  });

  it("keeps /api/health public", async () => {
    expect((await SELF.fetch("http://localhost/api/health")).status).toBe(200);
  });
});

describe("API tokens", () => {
  it("are shown once, stored as SHA-256 only, record last use, and stop working when revoked", async () => {
    const created = await newToken({ name: "ci nightly", scopes: ["search"], repos: ["open-repo"], expiresInDays: 30 });
    expect(created.token).toMatch(/^ccp_[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare("SELECT * FROM api_tokens WHERE id = ?").bind(created.id).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(created.token);
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(created.token)))]
      .map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    expect(row?.token_hash).toBe(digest);
    expect(row?.last_used_at).toBeNull();

    const listed = await (await api("/api/tokens")).text();
    expect(listed).toContain("ci nightly");
    expect(listed).not.toContain(created.token);
    expect(listed).not.toContain(digest);

    const use = await SELF.fetch("http://localhost/api/search?q=hello&repo=open-repo", { headers: { authorization: `Bearer ${created.token}` } });
    expect(use.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT last_used_at FROM api_tokens WHERE id = ?").bind(created.id).first<{ last_used_at: number | null }>())?.last_used_at,
      )
      .not.toBeNull();

    // A search-only token cannot manage tokens.
    expect((await SELF.fetch("http://localhost/api/tokens", { headers: { authorization: `Bearer ${created.token}` } })).status).toBe(403);

    expect((await api(`/api/tokens/${created.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await SELF.fetch("http://localhost/api/search?q=hello", { headers: { authorization: `Bearer ${created.token}` } })).status).toBe(401);
  });

  it("validates the request and names the bad field", async () => {
    const res = await api("/api/tokens", { method: "POST", json: { name: "x", scopes: ["root"] } });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: { message: string } }>()).error.message).toMatch(/^scopes/);
    // An unknown token is "not found" as an unknown repo, grant or connection is (CLI exit 3).
    const unknown = await api("/api/tokens/tok_nope", { method: "DELETE" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: "not_found", message: expect.stringContaining("GET /api/tokens lists them") } });
  });
});
