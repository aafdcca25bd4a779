/**
 * Issue #48 finding 4: an admin lists a person's sign-ins (OAuth grants) and revokes one or all;
 * the revoked grant's access token stops working at once and its refresh token can no longer be
 * used. Admin only; each revocation is in the audit log.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { getWith, refresh, signIn } from "./auth-oauth-helpers";

const USER = "local-admin"; // the local provider's user id (worker/auth/routes/authorize.ts)

describe("admins list and revoke sign-ins", () => {
  it("lists a person's grants and revokes one: its access and refresh tokens stop working", async () => {
    const a = await signIn("search");
    const b = await signIn("search");
    expect((await getWith(a.tokens.access_token, "/api/repos")).status).toBe(200);

    const listed = await api(`/api/grants?user=${USER}`);
    expect(listed.status).toBe(200);
    const { grants } = await listed.json<{ grants: { id: string; clientId: string; scopes: string[]; login: string | null }[] }>();
    const grantA = grants.find((g) => g.clientId === a.clientId)!;
    expect(grantA).toMatchObject({ scopes: ["search"], login: "local admin" });
    expect(grants.some((g) => g.clientId === b.clientId)).toBe(true);
    expect(JSON.stringify(grants)).not.toContain(a.tokens.access_token.split(":")[2]);

    const revoked = await api(`/api/grants/${grantA.id}?user=${USER}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: [grantA.id] });
    expect((await getWith(a.tokens.access_token, "/api/repos")).status).toBe(401);
    expect((await refresh(a.clientId, a.tokens.refresh_token)).status).toBe(400);
    // The other sign-in still works until it is revoked too.
    expect((await getWith(b.tokens.access_token, "/api/repos")).status).toBe(200);
    expect((await api(`/api/grants/${grantA.id}?user=${USER}`, { method: "DELETE" })).status).toBe(404);

    const all = await api(`/api/grants?user=${USER}`, { method: "DELETE" });
    expect(all.status).toBe(200);
    expect(((await all.json()) as { revoked: string[] }).revoked.length).toBeGreaterThanOrEqual(1);
    expect((await getWith(b.tokens.access_token, "/api/repos")).status).toBe(401);
    expect(((await (await api(`/api/grants?user=${USER}`)).json()) as { grants: unknown[] }).grants).toEqual([]);

    const audit = (await (await api("/api/audit?limit=200")).json()) as { entries: { event: string; target: string | null }[] };
    expect(audit.entries.some((e) => e.event === "grant_revoked" && e.target === grantA.id)).toBe(true);
    expect(audit.entries.some((e) => e.event === "grants_revoked_all")).toBe(true);
  });

  it("is admin only, and asks for the user", async () => {
    const tok = await (await api("/api/tokens", { method: "POST", json: { name: "reader", scopes: ["search"] } })).json<{ token: string }>();
    const res = await SELF.fetch(`http://localhost/api/grants?user=${USER}`, { headers: { authorization: `Bearer ${tok.token}` } });
    expect(res.status).toBe(403);
    const noUser = await api("/api/grants");
    expect(noUser.status).toBe(400);
    expect(await noUser.text()).toMatch(/user/);
  });
});
