/**
 * Issue #48 finding 3: a signed source link is bound to the credential that minted it. Minted
 * under a limited API token (over MCP `search` and over REST) or an OAuth sign-in, it opens while the token works and
 * stops at once when the token or sign-in is revoked, or when the repo stops being visible (withdrawn by its
 * connection), well before the link's own expiry (SOURCE_LINK_TTL_SECONDS).
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { signIn } from "./auth-oauth-helpers";
import { call, connect } from "./mcp-client";
import { chunk, indexFixture } from "./search-fixture";

const MARKER = "narwhal_revocation_marker";
const REPO = "link-repo";

beforeAll(async () => {
  await indexFixture(REPO, "f".repeat(40), [
    { path: "lib/narwhal.ts", chunks: [chunk("function", 1, `export function narwhal() {\n  return "${MARKER}";\n}`, "narwhal")] },
  ]);
});

async function limitedToken(name: string): Promise<{ id: string; token: string }> {
  const res = await api("/api/tokens", { method: "POST", json: { name, scopes: ["search"], repos: [REPO] } });
  expect(res.status).toBe(201);
  const body = await res.json<{ token: string; info?: { id: string }; id?: string }>();
  return { token: body.token, id: (body.info?.id ?? body.id)! };
}

async function open(url: string): Promise<{ status: number; body: string }> {
  const res = await SELF.fetch(url);
  return { status: res.status, body: await res.text() };
}

describe("source links bound to their credential", () => {
  it("a link minted over MCP search under a limited token stops opening when the token is revoked", async () => {
    const { id, token } = await limitedToken("mcp links");
    const client = await connect(token);
    const r = await call(client, "search", { query: "narwhal" });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const url = (r.structuredContent as any).results.find((x: any) => x.url.includes("/source/link-repo/")).url as string;
    expect(url).toContain("cred=token%3A");
    expect(await open(url)).toMatchObject({ status: 200 });
    expect((await open(url)).body).toContain(MARKER);

    expect((await api(`/api/tokens/${id}`, { method: "DELETE" })).status).toBe(200);
    const after = await open(url);
    expect(after.status).toBe(403);
    expect(after.body).toContain("was revoked or has expired");
    expect(after.body).not.toContain(MARKER);
  });

  it("a link minted over MCP under an OAuth sign-in stops opening when an admin revokes the sign-in", async () => {
    const { clientId, tokens } = await signIn("search");
    const client = await connect(tokens.access_token);
    const r = await call(client, "search", { query: "narwhal" });
    const url = (r.structuredContent as any).results.find((x: any) => x.url.includes("/source/link-repo/")).url as string;
    expect(url).toContain("cred=grant%3A");
    expect((await open(url)).status).toBe(200);
    const { grants } = (await (await api("/api/grants?user=local-admin")).json()) as { grants: { id: string; clientId: string }[] };
    const grant = grants.find((g) => g.clientId === clientId)!;
    expect((await api(`/api/grants/${grant.id}?user=local-admin`, { method: "DELETE" })).status).toBe(200);
    const after = await open(url);
    expect(after.status).toBe(403);
    expect(after.body).toContain("was revoked or has expired");
  });

  it("a link minted over REST stops opening when the token is revoked, and when the repo is withdrawn", async () => {
    const mint = async (token: string) => {
      const res = await SELF.fetch("http://localhost/api/source-links", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ repo: REPO, path: "lib/narwhal.ts" }),
      });
      expect(res.status).toBe(200);
      return (await res.json<{ url: string }>()).url;
    };
    const a = await limitedToken("rest links");
    const url = await mint(a.token);
    expect((await open(url)).status).toBe(200);
    expect((await api(`/api/tokens/${a.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await open(url)).toMatchObject({ status: 403 });

    // The credential still works, but the repo no longer serves: the link ends too.
    const b = await limitedToken("rest links 2");
    const url2 = await mint(b.token);
    expect((await open(url2)).status).toBe(200);
    await env.DB.prepare("UPDATE repos SET withdrawn_at = ? WHERE id = ?").bind(Date.now(), REPO).run();
    try {
      const gone = await open(url2);
      expect(gone.status).toBe(403);
      expect(gone.body).toContain("can no longer see this repo");
      expect(gone.body).not.toContain(MARKER);
    } finally {
      await env.DB.prepare("UPDATE repos SET withdrawn_at = NULL WHERE id = ?").bind(REPO).run();
    }
  });
});
