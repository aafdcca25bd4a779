/**
 * Reading a repo's access list (`GET /api/repos/{id}/access`): the same answer PATCH gives, for
 * the same callers (admin, not limited to other repos), through the same service
 * (worker/services/repo-access.ts).
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

async function mint(scopes: string[], repos?: string[]): Promise<string> {
  const res = await api("/api/tokens", { method: "POST", json: { name: `access-${scopes.join("-")}`, scopes, ...(repos ? { repos } : {}) } });
  expect(res.status).toBe(201);
  return (await res.json<{ token: string }>()).token;
}

const readAs = (token: string, repo: string) => SELF.fetch(`http://localhost/api/repos/${repo}/access`, { headers: { authorization: `Bearer ${token}` } });

describe("GET /api/repos/{id}/access", () => {
  beforeAll(async () => {
    await indexFixture("access-read", "a".repeat(40), [{ path: "src/a.ts", chunks: [chunk("function", 1, "export function a() {}", "a")] }]);
  });

  it("reads what PATCH set, in PATCH's shape", async () => {
    const before = await api("/api/repos/access-read/access");
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ repo: "access-read", visibility: "everyone", access: "everyone", followsCodeHost: false });

    const patch = await api("/api/repos/access-read", { method: "PATCH", json: { access: { users: ["Octocat", "gitlab:jane"], teams: ["Acme/Platform"] } } });
    expect(patch.status).toBe(200);
    const set = await patch.json<{ repo: string; visibility: string; access: unknown }>();
    const read = await api("/api/repos/access-read/access");
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ ...set, followsCodeHost: false });
    expect(set.access).toEqual({ users: ["github:octocat", "gitlab:jane"], teams: ["acme/platform"] });
  });

  it("is refused to whoever may not PATCH: search or index tokens, tokens limited to other repos; an unknown repo is 404", async () => {
    for (const scopes of [["search"], ["search", "index"]]) {
      const res = await readAs(await mint(scopes), "access-read");
      expect(res.status).toBe(403);
      expect(JSON.stringify(await res.json())).not.toContain("octocat");
    }
    const elsewhere = await readAs(await mint(["admin"], ["other-repo"]), "access-read");
    expect(elsewhere.status).toBe(403);
    expect((await api("/api/repos/no-such-repo/access")).status).toBe(404);
  });

  it("says when the readers follow the code host (a connection's repo)", async () => {
    await indexFixture("access-linked", "b".repeat(40), [{ path: "src/b.ts", chunks: [chunk("function", 1, "export function b() {}", "b")] }]);
    await env.DB.prepare("UPDATE repos SET visibility = 'private' WHERE id = 'access-linked'").run();
    await env.DB.prepare(
      "INSERT INTO connection_repos (connection_id, upstream_id, full_name, clone_url, repo, registered_at) VALUES ('conn-access', '1', 'acme/b', 'https://github.com/acme/b.git', 'access-linked', 1)",
    ).run();
    const res = await api("/api/repos/access-linked/access");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ repo: "access-linked", visibility: "private", access: null, followsCodeHost: true });
  });
});
