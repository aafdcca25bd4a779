/**
 * Issue #48 finding 2: a repository its connection's token can no longer see stops serving at
 * once (search, grep, files, symbols, repo list and status, source links), for every caller, the
 * local admin included, while its index is kept for the grace period: when the code host lists
 * it again, the next sync restores it without re-indexing. Against the fake GitHub API on
 * loopback (test/code-host-server.ts) and the loopback git server.
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { api } from "../helpers";
import { waitForJob } from "./ingest-helpers";
import { createUpstream } from "./upstream";

const host = () => inject("codeHostUrl");
const TOKEN = "ghp_withdraw_test_token_0048";
const SECRET = "globex-secret-svc";

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

async function listOwner(repos: { id: number; name: string; clone_url: string }[]): Promise<void> {
  await ctl("/github/owners/globex", { type: "Organization", repos });
}

/** Every read route, as the local admin, for the secret repo: status codes and bodies. */
async function reads(): Promise<Record<string, { status: number; body: string }>> {
  const paths = {
    status: `/api/repos/${SECRET}`,
    list: "/api/repos",
    searchOne: `/api/search?q=getUserById&repo=${SECRET}`,
    searchAll: "/api/search?q=getUserById",
    grepOne: `/api/grep?pattern=getUserById&repo=${SECRET}`,
    grepAll: "/api/grep?pattern=getUserById",
    file: `/api/repos/${SECRET}/files/src/users.ts`,
    tree: `/api/repos/${SECRET}/tree`,
    symbols: `/api/repos/${SECRET}/symbols?name=getUserById`,
  };
  const out: Record<string, { status: number; body: string }> = {};
  for (const [k, p] of Object.entries(paths)) {
    const res = await api(p);
    out[k] = { status: res.status, body: await res.text() };
  }
  const link = await api("/api/source-links", { method: "POST", json: { repo: SECRET, path: "src/users.ts" } });
  out.sourceLink = { status: link.status, body: await link.text() };
  return out;
}

describe("a repository the connection can no longer see", () => {
  it("stops serving at once to every route, keeps its index, and serves again when access returns", async () => {
    await ctl("/tokens", { token: TOKEN, login: "globex-bot" });
    const secret = await createUpstream("gh-globex-secret", { username: "x-access-token", password: TOKEN });
    const open = await createUpstream("gh-globex-open");
    // The token goes only to the connection's own host: the private repo is cloned through the
    // fake host's /git/ proxy, on the API's origin.
    await ctl("/git-upstream", { url: inject("gitServerUrl") });
    const both = [
      { id: 481, name: "secret-svc", clone_url: `${host()}/git/${secret.url.split("/").pop()}` },
      { id: 482, name: "open", clone_url: open.url },
    ];
    await listOwner(both);
    const created = await api("/api/connections", { method: "POST", json: { provider: "github", owner: "globex", token: TOKEN, baseUrl: `${host()}/github` } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as any).connection.id as string;
    for (const repo of [SECRET, "globex-open"]) expect((await waitForJob(repo)).status).toBe("ready");

    const before = await reads();
    for (const [k, r] of Object.entries(before)) expect(r.status, `${k}: ${r.body}`).toBe(200);
    expect(before.searchAll.body).toContain(SECRET);
    expect(before.grepAll.body).toContain(SECRET);
    const kept = await env.DB.prepare("SELECT active_commit, active_indexed_at FROM repos WHERE id = ?").bind(SECRET).first();

    // The token loses access: the host stops listing the repo, and "sync now" runs.
    await listOwner(both.slice(1));
    const sync = await api(`/api/connections/${id}/sync`, { method: "POST" });
    expect(sync.status).toBe(200);

    const after = await reads();
    for (const k of ["status", "searchOne", "grepOne", "file", "tree", "symbols", "sourceLink"]) {
      expect(after[k].status, `${k}: ${after[k].body}`).toBe(404);
      expect(after[k].body, k).toMatch(/repo_not_found/);
    }
    for (const k of ["list", "searchAll", "grepAll"]) {
      expect(after[k].status, `${k}: ${after[k].body}`).toBe(200);
      expect(after[k].body, k).not.toContain(SECRET);
    }
    // The open repo still serves; the status says the missing one is hidden and until when it is kept.
    expect(after.searchAll.body).toContain("globex-open");
    const detail = (await (await api(`/api/connections/${id}`)).json()) as any;
    const row = detail.repoList.find((r: any) => r.repo === SECRET);
    expect(row).toMatchObject({ state: "missing", missingReason: "deleted", serving: false });
    expect(row.removeAt - row.missingSince).toBe(72 * 3600_000);
    expect(detail.repoList.find((r: any) => r.repo === "globex-open")).toMatchObject({ state: "registered", serving: true });
    // The index is kept for the grace period.
    expect(await env.DB.prepare("SELECT active_commit, active_indexed_at FROM repos WHERE id = ?").bind(SECRET).first()).toEqual(kept);

    // Access comes back: the next sync restores it, same snapshot, no re-indexing.
    await listOwner(both);
    expect((await api(`/api/connections/${id}/sync`, { method: "POST" })).status).toBe(200);
    const restored = await reads();
    for (const [k, r] of Object.entries(restored)) expect(r.status, `${k}: ${r.body}`).toBe(200);
    expect(restored.searchAll.body).toContain(SECRET);
    expect(await env.DB.prepare("SELECT active_commit, active_indexed_at FROM repos WHERE id = ?").bind(SECRET).first()).toEqual(kept);
  });
});
