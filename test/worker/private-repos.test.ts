/**
 * Private repositories on the loopback git server behind credentials: a real user name from
 * the URL, bearer-only hosts, different messages for a missing and a wrong token, a wrong token
 * on refresh refused before it replaces the good one, and tokens sealed at rest.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as ledger from "../../durable-objects/ledger";
import type { RepoCoordinator } from "../../durable-objects/repo-coordinator";
import { api } from "../helpers";
import { refreshAndWait, registerAndWait } from "./ingest-helpers";
import { createUpstream, pushCommit } from "./upstream";

async function register(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await api("/api/repos", { method: "POST", json: body });
  return { status: res.status, json: await res.json() };
}

describe("private repositories", () => {
  it("tells a missing token from a wrong one, and honours alice:pw@ in the URL", async () => {
    const { url } = await createUpstream("priv-basic", { username: "alice", password: "s3cret-pw" });
    const missing = await register({ url, name: "priv-missing" });
    expect(missing.status).toBe(422);
    expect(missing.json.error.message).toMatch(/asked for credentials \(HTTP 401\) and none were given/);

    const wrongUser = await register({ url, name: "priv-wrong-user", token: "s3cret-pw" }); // x-access-token:s3cret-pw
    expect(wrongUser.status).toBe(422);
    expect(wrongUser.json.error.message).toMatch(/rejected the token/);

    const withUser = url.replace("http://", "http://alice:s3cret-pw@");
    const ok = await registerAndWait({ url: withUser, name: "priv-basic" });
    expect(ok.status).toBe("ready");
    expect(ok.url).toBe(url); // credentials never stored in the URL
    expect(JSON.stringify(ok)).not.toContain("s3cret-pw");
  });

  it("keeps the good token when a refresh brings a wrong one, and stores it sealed", async () => {
    const { url } = await createUpstream("priv-keep", { username: "bob", password: "good-token-123" });
    await registerAndWait({ url, name: "priv-keep", username: "bob", token: "good-token-123" });
    const bad = await api("/api/repos/priv-keep/refresh", { method: "POST", json: { token: "mistyped-token" } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).error.message).toMatch(/rejected the token/);

    const pushed = await pushCommit("priv-keep", { "src/later.ts": "export const later = 1;\n" });
    const after = await refreshAndWait("priv-keep");
    expect(after.status).toBe("ready");
    expect(after.snapshot?.commit).toBe(pushed);

    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("priv-keep"));
    const stored = await runInDurableObject(stub as unknown as DurableObjectStub<RepoCoordinator>, async (_i: RepoCoordinator, state) =>
      ledger.getValue<ledger.RepoSettings>(state.storage.sql, "repo"),
    );
    expect(stored?.token).toBeUndefined();
    expect(stored?.tokenSealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain("good-token-123");
    expect(stored?.username).toBe("bob");
  });

  it("sends a bearer token to a bearer-only host", async () => {
    const { url } = await createUpstream("priv-bearer", { bearer: "bearer-tok-9" });
    const asBasic = await register({ url, name: "priv-bearer-basic", token: "bearer-tok-9" });
    expect(asBasic.status).toBe(422);
    const ok = await registerAndWait({ url, name: "priv-bearer", token: "bearer-tok-9", authScheme: "bearer" });
    expect(ok.status).toBe("ready");
  });
});
