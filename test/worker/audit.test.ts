/**
 * Issue #48 finding 5: the audit log records sign-in and sign-out, token creation and
 * revocation, repo and connection changes and refused requests above a rate, with who, what,
 * when and from where; `GET /api/audit` (admin) filters by actor and event and pages by cursor;
 * the log never carries a token or secret; entries past AUDIT_RETENTION_DAYS are pruned; rows
 * cannot be updated.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { AUDIT_REFUSALS_PER_MINUTE } from "../../worker/api/audit-trail";
import { pruneAudit } from "../../worker/services/audit";
import { api } from "../helpers";
import { browse, CookieJar, hiddenInput, postForm } from "./auth-helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

const CONNECTION_TOKEN = "ghp_audit_connection_secret_0048";

async function audit(query = ""): Promise<{ entries: any[]; nextCursor: string | null }> {
  const res = await api(`/api/audit${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function allEntries(): Promise<any[]> {
  return (await env.DB.prepare("SELECT * FROM audit_log ORDER BY id").all()).results;
}

describe("audit log", () => {
  const secrets: string[] = [env.ADMIN_TOKEN!, CONNECTION_TOKEN];

  it("records each security event with who, what, when and from where, and never a secret", async () => {
    const start = Date.now();
    // Sign-in and sign-out on the web page.
    const jar = new CookieJar();
    const nonce = hiddenInput(await (await browse(jar, "/login")).text(), "nonce");
    expect((await postForm(jar, "/login", { nonce, admin_token: env.ADMIN_TOKEN! })).status).toBe(303);
    const session = await (await browse(jar, "/auth/session")).json<{ csrfToken: string }>();
    expect((await postForm(jar, "/logout", { csrf: session.csrfToken })).status).toBe(303);

    // Token creation and revocation.
    const created = await (
      await api("/api/tokens", { method: "POST", json: { name: "audited", scopes: ["search"] }, headers: { "cf-connecting-ip": "203.0.113.7" } })
    ).json<{ id: string; token: string }>();
    secrets.push(created.token);
    expect((await api(`/api/tokens/${created.id}`, { method: "DELETE" })).status).toBe(200);

    // A repo uploaded and deleted.
    await uploadFilesAndWait("audited-repo", { "a.ts": "export const a = 1;\n" });
    expect((await api("/api/repos/audited-repo", { method: "DELETE" })).status).toBe(200);

    // A connection created (with a code-host token) and deleted.
    const host = inject("codeHostUrl");
    const ctl = (path: string, body: unknown) =>
      fetch(`${host}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await ctl("/tokens", { token: CONNECTION_TOKEN, login: "audit-bot" });
    await ctl("/github/owners/auditorg", { type: "Organization", repos: [] });
    const conn = await api("/api/connections", {
      method: "POST",
      json: { provider: "github", owner: "auditorg", token: CONNECTION_TOKEN, baseUrl: `${host}/github` },
    });
    expect(conn.status).toBe(201);
    const connectionId = ((await conn.json()) as any).connection.id as string;
    expect((await api(`/api/connections/${connectionId}`, { method: "DELETE" })).status).toBe(200);

    const { entries } = await audit("?limit=200");
    const seen = (event: string, target?: string) => entries.find((e) => e.event === event && (target === undefined || e.target === target));
    for (const [event, target] of [
      ["sign_in", undefined],
      ["sign_out", undefined],
      ["token_created", created.id],
      ["token_revoked", created.id],
      ["repo_uploaded", "audited-repo"],
      ["repo_deleted", "audited-repo"],
      ["connection_created", connectionId],
      ["connection_deleted", connectionId],
    ] as const) {
      const e = seen(event, target);
      expect(e, `${event} ${target ?? ""}`).toBeDefined();
      expect(e.actor).toBe("local-admin");
      expect(e.at).toBeGreaterThanOrEqual(start);
    }
    // From where: the client address (CLIENT_IP_SOURCE, default cf-connecting-ip).
    expect(seen("token_created", created.id).ip).toBe("203.0.113.7");
    // Newest first; filtered by event and by actor.
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    const onlyRevoked = await audit("?event=token_revoked");
    expect(onlyRevoked.entries.map((e) => e.event)).toEqual(["token_revoked"]);
    expect((await audit("?actor=nobody")).entries).toEqual([]);
    // Paged by cursor: two pages of one cover the two newest.
    const p1 = await audit("?limit=1");
    const p2 = await audit(`?limit=1&cursor=${p1.nextCursor}`);
    expect(p2.entries[0].id).toBeLessThan(p1.entries[0].id);
    expect((await api("/api/audit?cursor=abc")).status).toBe(400);

    const log = JSON.stringify(await allEntries());
    for (const s of secrets) expect(log).not.toContain(s);
  });

  it("logs refused requests once per identity when they pass the rate, and only admins read the log", async () => {
    const limited = await (await api("/api/tokens", { method: "POST", json: { name: "refused", scopes: ["search"] } })).json<{ id: string; token: string }>();
    const asLimited = (path: string) => SELF.fetch(`http://localhost${path}`, { headers: { authorization: `Bearer ${limited.token}` } });
    expect((await asLimited("/api/audit")).status).toBe(403);
    // Past the threshold (and enough that a minute boundary in between still passes it once).
    for (let i = 0; i < 2 * AUDIT_REFUSALS_PER_MINUTE + 2; i++) expect((await asLimited("/api/tokens")).status).toBe(403);
    const refused = (await audit(`?event=requests_refused&actor=${encodeURIComponent(`token:${limited.id}`)}`)).entries;
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(2);
    expect(refused[0].detail).toMatchObject({ perMinute: AUDIT_REFUSALS_PER_MINUTE, lastStatus: 403 });
    expect(JSON.stringify(await allEntries())).not.toContain(limited.token);
  });

  it("is append-only and pruned after AUDIT_RETENTION_DAYS", async () => {
    const now = Date.now();
    await env.DB.prepare("INSERT INTO audit_log (at, actor, event) VALUES (?, 'old', 'sign_in')")
      .bind(now - 400 * 86_400_000)
      .run();
    await expect(env.DB.prepare("UPDATE audit_log SET actor = 'someone-else' WHERE actor = 'old'").run()).rejects.toThrow(/append-only/);
    expect(await pruneAudit(env, now)).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE actor = 'old'").first("n")).toBe(0);
    expect((await audit("?limit=1")).entries.length).toBe(1); // newer entries are kept (default 365 days)
  });
});
