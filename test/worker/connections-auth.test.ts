/**
 * Who may use connections (issue 43, High 1): an admin token limited to some repos must not
 * list, show, create, sync or delete connections, since a connection registers and removes
 * repos beyond any repo list; an admin over every repo (the local admin token or an API token
 * without `repos`) still can. Against the fake GitHub API (test/code-host-server.ts).
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api } from "../helpers";
import { createUpstream } from "./upstream";

const host = () => inject("codeHostUrl");

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

/** Mints an API token as the local admin. */
async function mint(body: Record<string, unknown>): Promise<string> {
  const res = await api("/api/tokens", { method: "POST", json: body });
  const json = (await res.json()) as { token: string };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.token;
}

function as(token: string, path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return SELF.fetch(`http://localhost${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.json !== undefined ? { "content-type": "application/json" } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
}

describe("connections need an admin over every repo", () => {
  let id: string;
  let limited: string;
  let unrestricted: string;

  beforeAll(async () => {
    const one = await createUpstream("gh-limitorg-one");
    await ctl("/github/owners/limitorg", { type: "Organization", repos: [{ id: 4301, name: "one", clone_url: one.url }] });
    await ctl("/github/owners/limitorg2", { type: "Organization", repos: [] });
    const created = await api("/api/connections", { method: "POST", json: { provider: "github", owner: "limitorg", baseUrl: `${host()}/github` } });
    const json = (await created.json()) as { connection: { id: string } };
    expect(created.status, JSON.stringify(json)).toBe(201);
    id = json.connection.id;
    // The repo list names a repo the connection registered: even that does not open connections.
    limited = await mint({ name: "limited-admin", scopes: ["admin"], repos: ["limitorg-one"] });
    unrestricted = await mint({ name: "every-repo-admin", scopes: ["admin"] });
  });

  it("refuses a repo-limited admin token for list, show, create, sync and delete with 403, and changes nothing", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/connections"],
      ["GET", `/api/connections/${id}`],
      ["POST", "/api/connections", { provider: "github", owner: "limitorg2", baseUrl: `${host()}/github` }],
      ["POST", `/api/connections/${id}/sync`],
      ["DELETE", `/api/connections/${id}`],
      ["DELETE", `/api/connections/${id}?keepRepos=true`],
    ];
    for (const [method, path, json] of calls) {
      const res = await as(limited, path, { method, json });
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(res.status, `${method} ${path}: ${JSON.stringify(body)}`).toBe(403);
      expect(body.error.code).toBe("forbidden");
      expect(body.error.message).toContain("admin token without a repo list");
    }
    const list = (await (await api("/api/connections")).json()) as { connections: { id: string; owner: string }[] };
    expect(list.connections.map((c) => c.id)).toContain(id);
    expect(list.connections.map((c) => c.owner)).not.toContain("limitorg2");
    expect((await api("/api/repos/limitorg-one")).status).toBe(200);
  });

  it("lets an admin token over every repo list, show, sync and delete", async () => {
    const list = (await (await as(unrestricted, "/api/connections")).json()) as { connections: { id: string }[] };
    expect(list.connections.map((c) => c.id)).toContain(id);
    expect((await as(unrestricted, `/api/connections/${id}`)).status).toBe(200);
    const sync = await as(unrestricted, `/api/connections/${id}/sync`, { method: "POST" });
    expect(sync.status, await sync.clone().text()).toBe(200);
    const del = await as(unrestricted, `/api/connections/${id}?keepRepos=true`, { method: "DELETE" });
    expect(del.status, await del.clone().text()).toBe(200);
    expect(((await del.json()) as { keptRepos: string[] }).keptRepos).toEqual(["limitorg-one"]);
  });
});
