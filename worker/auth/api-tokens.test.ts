import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOCAL_ADMIN } from "../services/context";
import { API_TOKEN_CACHE_MS, createApiToken, revokeApiToken, verifyApiToken } from "./api-tokens";

const noDefer = (p: Promise<unknown>) => void p;

describe("verifyApiToken cache", () => {
  it("trusts a verified token for API_TOKEN_CACHE_MS, then reads D1 again", async () => {
    const now = Date.now();
    const { token, info } = await createApiToken(env.DB, { name: "cache", scopes: ["search"] }, LOCAL_ADMIN, now);
    expect(await verifyApiToken(env.DB, token, now, noDefer)).toHaveProperty("caller.id", `token:${info.id}`);
    // Revoked behind this isolate's back (another isolate, or SQL): still trusted within the window ...
    await env.DB.prepare("UPDATE api_tokens SET revoked_at = ? WHERE id = ?").bind(now, info.id).run();
    expect(await verifyApiToken(env.DB, token, now + API_TOKEN_CACHE_MS - 1, noDefer)).toHaveProperty("caller");
    // ... and refused once it has passed.
    expect(await verifyApiToken(env.DB, token, now + API_TOKEN_CACHE_MS, noDefer)).toEqual({ rejected: "revoked" });
  });

  it("forgets a token at once when this isolate revokes it, and never remembers a refusal", async () => {
    const now = Date.now();
    const { token, info } = await createApiToken(env.DB, { name: "revoke", scopes: ["search"] }, LOCAL_ADMIN, now);
    expect(await verifyApiToken(env.DB, token, now, noDefer)).toHaveProperty("caller");
    await revokeApiToken(env.DB, info.id, now, LOCAL_ADMIN);
    expect(await verifyApiToken(env.DB, token, now, noDefer)).toEqual({ rejected: "revoked" });
    expect(await verifyApiToken(env.DB, "ccp_not-a-real-token-at-all", now, noDefer)).toEqual({ rejected: "unknown" });
  });
});
