/**
 * Connections end to end against the fake GitHub and GitLab APIs on loopback
 * (test/code-host-server.ts) and the loopback git server: pagination across pages, include and
 * exclude globs, forks and archived filters, a rate limit with Retry-After that is waited out, a
 * bad token refused at creation, the scheduled sync adding a new repo and marking (hidden at once),
 * then (after the grace period) removing a deleted one, the per-connection webhook secret, deletion, and the
 * created repos indexing from the git server.
 */
import { sign } from "@octokit/webhooks-methods";
import { createExecutionContext, createScheduledController, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import { api } from "../helpers";
import { repoStatus, waitForJob } from "./ingest-helpers";
import { createUpstream, pushCommit } from "./upstream";

const host = () => inject("codeHostUrl");

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

async function apiLog(prefix: string): Promise<{ path: string; status: number; at: number; auth: boolean }[]> {
  return ((await (await fetch(`${host()}/_control/log?prefix=${encodeURIComponent(prefix)}`)).json()) as any).requests;
}

async function tick(at: number): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: at, cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function create(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await api("/api/connections", { method: "POST", json: body });
  return { status: res.status, json: await res.json() };
}

const HOUR_MS = 3600_000;

describe("GitHub connections", () => {
  const TOKEN = "ghp_connection_test_token_0001";
  let id: string;
  let start: number;

  it("registers every kept repository of an organisation, across pages, and they index from the git server", async () => {
    await ctl("/page-size", { size: 2 });
    await ctl("/tokens", { token: TOKEN, login: "alice" });
    const api1 = await createUpstream("gh-acme-api");
    const web = await createUpstream("gh-acme-web");
    // A private repository: its git server wants the token the connection was given, and is on the
    // API's origin (the fake host proxies /git/ to the git server), where the token may go.
    const priv = await createUpstream("gh-acme-private", { username: "x-access-token", password: TOKEN });
    await ctl("/git-upstream", { url: inject("gitServerUrl") });
    await ctl("/github/owners/acme", {
      type: "Organization",
      repos: [
        { id: 1, name: "api", clone_url: api1.url },
        { id: 2, name: "web", clone_url: web.url },
        { id: 3, name: "legacy", clone_url: `${inject("gitServerUrl")}/nope-legacy.git`, archived: true },
        { id: 4, name: "forked", clone_url: `${inject("gitServerUrl")}/nope-fork.git`, fork: true },
        { id: 5, name: "vault-internal", clone_url: `${inject("gitServerUrl")}/nope-internal.git` },
        { id: 6, name: "private-lib", clone_url: `${host()}/git/gh-acme-private.git`, private: true },
      ],
    });
    start = Date.now();
    const { status, json } = await create({ provider: "github", owner: "acme", token: TOKEN, baseUrl: `${host()}/github`, exclude: ["*-internal"] });
    expect(status, JSON.stringify(json)).toBe(201);
    id = json.connection.id;
    expect(json.connection).toMatchObject({
      provider: "github",
      owner: "acme",
      ownerKind: "org",
      hasToken: true,
      forks: false,
      archived: false,
      gracePeriodHours: 72,
    });
    expect(json.sync.listed).toBe(6);
    expect([...json.sync.registered].sort()).toEqual(["acme-api", "acme-private-lib", "acme-web"]);
    expect(json.connection.repos).toEqual({ total: 3, registered: 3, waiting: 0, missing: 0, skipped: 0 });
    expect(json.webhook.github).toEqual({
      payloadUrl: `http://localhost/api/webhooks/github?connection=${encodeURIComponent(id)}`,
      contentType: "application/json",
      events: ["push", "pull_request"],
    });
    // Three pages of two, following Link: rel="next".
    const pages = (await apiLog("/github/orgs/acme/repos")).map((l) => new URL(l.path, "http://x").searchParams.get("page") ?? "1");
    expect(pages).toEqual(["1", "2", "3"]);
    // The token is never returned and is sealed at rest.
    expect(JSON.stringify(json)).not.toContain(TOKEN);
    const row = await env.DB.prepare("SELECT token_sealed FROM connections WHERE id = ?").bind(id).first<{ token_sealed: string }>();
    expect(row?.token_sealed).toMatch(/^v1\./);
    expect(row?.token_sealed).not.toContain(TOKEN);
    expect(JSON.stringify(await (await api(`/api/connections/${id}`)).json())).not.toContain(TOKEN);

    for (const [repo, head] of [
      ["acme-api", api1.head],
      ["acme-private-lib", priv.head],
    ] as const) {
      const s = await waitForJob(repo);
      expect(s.status, `${repo}: ${s.lastError}`).toBe("ready");
      expect(s.snapshot?.commit).toBe(head);
    }
    const search = await (await api("/api/search?q=getUserById&repo=acme-private-lib")).json();
    expect(JSON.stringify(search)).toContain("src/users.ts");
  });

  it("refuses a second connection for the same owner with 409", async () => {
    const { status, json } = await create({ provider: "github", owner: "acme", token: TOKEN, baseUrl: `${host()}/github` });
    expect(status).toBe(409);
    expect(json.error.code).toBe("connection_exists");
  });

  it("verifies org webhook deliveries with the connection's secret", async () => {
    // The secret was shown once at creation; a delivery signed with another one is refused.
    const body = JSON.stringify({ ref: "refs/heads/main", after: "a".repeat(40), repository: { clone_url: `${inject("gitServerUrl")}/gh-acme-api.git` } });
    const deliver = async (secret: string, payload: string) =>
      SELF.fetch(`http://localhost/api/webhooks/github?connection=${encodeURIComponent(id)}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "push",
          "x-github-delivery": crypto.randomUUID(),
          "x-hub-signature-256": await sign(secret, payload),
        },
        body: payload,
      });
    expect((await deliver("not-the-secret", body)).status).toBe(401);
  });

  it("answers an organisation webhook's ping, which names no repository, when it is signed with the connection's secret", async () => {
    const tools = await createUpstream("gh-pingorg-tools");
    await ctl("/github/owners/pingorg", { type: "Organization", repos: [{ id: 31, name: "tools", clone_url: tools.url }] });
    const { status, json } = await create({ provider: "github", owner: "pingorg", baseUrl: `${host()}/github` });
    expect(status, JSON.stringify(json)).toBe(201);
    // What GitHub sends when an organisation webhook is created: the hook and the organisation, no repository.
    const ping = JSON.stringify({
      zen: "Design for failure.",
      hook_id: 7,
      hook: { type: "Organization", events: ["push"] },
      organization: { login: "pingorg" },
    });
    const deliver = async (secret: string) =>
      SELF.fetch(json.webhook.github.payloadUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "ping",
          "x-github-delivery": crypto.randomUUID(),
          "x-hub-signature-256": await sign(secret, ping),
        },
        body: ping,
      });
    const ok = await deliver(json.webhook.secret);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, event: "ping" });
    expect((await deliver("not-the-secret")).status).toBe(401);
    expect((await api(`/api/connections/${json.connection.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("a scheduled sync adds a new repo and marks a deleted one, which is removed after the grace period", async () => {
    const fresh = await createUpstream("gh-acme-new");
    await ctl("/github/owners/acme", {
      type: "Organization",
      repos: [
        { id: 1, name: "api", clone_url: `${inject("gitServerUrl")}/gh-acme-api.git` },
        { id: 6, name: "private-lib", clone_url: `${inject("gitServerUrl")}/gh-acme-private.git`, private: true },
        { id: 7, name: "new-service", clone_url: fresh.url },
      ],
    });
    // Within the interval (1 h by default) a tick does not list the owner again.
    const before = (await apiLog("/github/orgs/acme/repos")).length;
    await tick(start + 60_000);
    expect((await apiLog("/github/orgs/acme/repos")).length).toBe(before);

    const t1 = start + HOUR_MS + 1000;
    await tick(t1);
    const s = await waitForJob("acme-new-service");
    expect(s.status, s.lastError ?? "").toBe("ready");
    expect(s.snapshot?.commit).toBe(fresh.head);
    const detail = (await (await api(`/api/connections/${id}`)).json()) as any;
    const web = detail.repoList.find((r: any) => r.repo === "acme-web");
    expect(web).toMatchObject({ state: "missing", missingReason: "deleted", missingSince: t1, removeAt: t1 + 72 * HOUR_MS, serving: false });
    // Marked and hidden at once (connections-withdraw.test.ts), its index kept for the grace period.
    const kept = () => env.DB.prepare("SELECT active_commit FROM repos WHERE id = 'acme-web'").first<{ active_commit: string | null }>();
    expect((await api("/api/repos/acme-web")).status).toBe(404);
    expect((await kept())?.active_commit).toMatch(/^[0-9a-f]{40}$/);

    // Removed at the first sync after the grace period (syncs run hourly by default).
    await tick(t1 + 71 * HOUR_MS);
    expect((await kept())?.active_commit).toMatch(/^[0-9a-f]{40}$/);
    await tick(t1 + 72 * HOUR_MS + 1000);
    expect(await kept()).toBeNull();
    expect((await api("/api/repos/acme-web")).status).toBe(404);
    const after = (await (await api(`/api/connections/${id}`)).json()) as any;
    expect(after.repoList.map((r: any) => r.repo).sort()).toEqual(["acme-api", "acme-new-service", "acme-private-lib"]);
    expect(after.lastError).toBeNull();
  });

  it("deleting the connection removes its repos", async () => {
    const res = await api(`/api/connections/${id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).removedRepos.sort()).toEqual(["acme-api", "acme-new-service", "acme-private-lib"]);
    expect((await api("/api/repos/acme-api")).status).toBe(404);
    expect((await api(`/api/connections/${id}`)).status).toBe(404);
  });
});

describe("creation errors and rate limits", () => {
  it("answers a bad token with 422 and a clear message, and creates nothing", async () => {
    await ctl("/github/owners/badtok", { type: "Organization", repos: [] });
    const { status, json } = await create({ provider: "github", owner: "badtok", token: "ghp_wrong", baseUrl: `${host()}/github` });
    expect(status).toBe(422);
    expect(json.error).toMatchObject({ code: "source_unreachable", message: expect.stringMatching(/GitHub rejected the token/) });
    const gl = await create({ provider: "gitlab", owner: "badtok", token: "glpat-wrong", baseUrl: `${host()}/gitlab` });
    expect(gl.status).toBe(422);
    expect(gl.json.error.message).toMatch(/GitLab rejected the token/);
    expect((await (await api("/api/connections")).json()) as any).toEqual({
      connections: expect.not.arrayContaining([expect.objectContaining({ owner: "badtok" })]),
    });
  });

  it("answers an unknown owner with 400, and a base URL the host guard refuses with 400", async () => {
    const missing = await create({ provider: "github", owner: "nobody-here", baseUrl: `${host()}/github` });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toMatch(/^owner: GitHub has no organisation or user "nobody-here"/);
    for (const baseUrl of ["http://10.0.0.1/api/v3", "http://169.254.169.254/latest", "http://[::ffff:192.168.1.1]/"]) {
      const r = await create({ provider: "github", owner: "acme", baseUrl });
      expect(r.status, baseUrl).toBe(400);
      expect(r.json.error.message).toMatch(/^baseUrl: /);
    }
  });

  it("sends the token only to the configured API origin, not to a pagination link on another host", async () => {
    await ctl("/page-size", { size: 1 });
    await ctl("/tokens", { token: "ghp_leak_check", login: "carol" });
    // Same server, other origin: "localhost" is not "127.0.0.1".
    await ctl("/github/owners/leaky", {
      type: "Organization",
      linkBase: host().replace("127.0.0.1", "localhost"),
      repos: [
        { id: 31, name: "one", clone_url: `${inject("gitServerUrl")}/nope-one.git` },
        { id: 32, name: "two", clone_url: `${inject("gitServerUrl")}/nope-two.git` },
      ],
    });
    const { status, json } = await create({ provider: "github", owner: "leaky", token: "ghp_leak_check", baseUrl: `${host()}/github`, include: ["nothing-*"] });
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.sync.listed).toBe(2);
    const log = await apiLog("/github/orgs/leaky/repos");
    expect(log.map((l) => l.auth)).toEqual([true, false]);
    await ctl("/page-size", { size: 100 });
  });

  it("waits out a GitHub secondary rate limit (403 + Retry-After) and a GitLab 429, then succeeds", async () => {
    await ctl("/page-size", { size: 100 });
    await ctl("/github/owners/ratey", { type: "Organization", repos: [] });
    await ctl("/fail", {
      prefix: "/github/orgs/ratey/repos",
      count: 1,
      status: 403,
      headers: { "retry-after": "1" },
      body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." },
    });
    const gh = await create({ provider: "github", owner: "ratey", baseUrl: `${host()}/github` });
    expect(gh.status, JSON.stringify(gh.json)).toBe(201);
    const ghLog = await apiLog("/github/orgs/ratey/repos");
    expect(ghLog.map((l) => l.status)).toEqual([403, 200]);
    expect(ghLog[1].at - ghLog[0].at).toBeGreaterThanOrEqual(1000);

    await ctl("/gitlab/groups/ratey", { projects: [] });
    await ctl("/fail", {
      prefix: "/gitlab/api/v4/groups/ratey/projects",
      count: 1,
      status: 429,
      headers: { "retry-after": "1" },
      body: { message: "Retry later" },
    });
    const gl = await create({ provider: "gitlab", owner: "ratey", baseUrl: `${host()}/gitlab` });
    expect(gl.status, JSON.stringify(gl.json)).toBe(201);
    const glLog = await apiLog("/gitlab/api/v4/groups/ratey/projects");
    expect(glLog.map((l) => l.status)).toEqual([429, 200]);
    expect(glLog[1].at - glLog[0].at).toBeGreaterThanOrEqual(1000);
  });

  it("answers 429 with Retry-After when the code host asks for longer than a request may wait", async () => {
    await ctl("/github/owners/slowpoke", { type: "Organization", repos: [] });
    const reset = Math.floor(Date.now() / 1000) + 3600;
    await ctl("/fail", {
      prefix: "/github/orgs/slowpoke/repos",
      count: 1,
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
      body: { message: "API rate limit exceeded" },
    });
    const res = await api("/api/connections", { method: "POST", json: { provider: "github", owner: "slowpoke", baseUrl: `${host()}/github` } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(((await res.json()) as any).error.code).toBe("rate_limited");
    expect((await api("/api/connections")).status).toBe(200);
  });
});

describe("GitLab connections", () => {
  it("lists a group with subgroups across pages, applies include globs and the forks/archived switches; keepRepos keeps them", async () => {
    await ctl("/page-size", { size: 2 });
    const a = await createUpstream("gl-svc-a");
    const b = await createUpstream("gl-svc-b");
    const f = await createUpstream("gl-svc-fork");
    await ctl("/gitlab/groups/platform", {
      projects: [
        { id: 11, path: "svc-a", path_with_namespace: "platform/svc-a", http_url_to_repo: a.url },
        { id: 12, path: "svc-b", path_with_namespace: "platform/sub/svc-b", http_url_to_repo: b.url },
        { id: 13, path: "svc-fork", path_with_namespace: "platform/svc-fork", http_url_to_repo: f.url, fork: true },
        { id: 14, path: "svc-old", path_with_namespace: "platform/svc-old", http_url_to_repo: `${inject("gitServerUrl")}/nope-old.git`, archived: true },
        { id: 15, path: "docs", path_with_namespace: "platform/docs", http_url_to_repo: `${inject("gitServerUrl")}/nope-docs.git` },
      ],
    });
    const { status, json } = await create({ provider: "gitlab", owner: "platform", baseUrl: `${host()}/gitlab`, include: ["svc-*"], forks: true });
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.connection.ownerKind).toBe("group");
    expect(json.webhook.gitlab).toMatchObject({ secretToken: json.webhook.secret });
    expect([...json.sync.registered].sort()).toEqual(["platform-sub-svc-b", "platform-svc-a", "platform-svc-fork"]);
    const pages = (await apiLog("/gitlab/api/v4/groups/platform/projects")).map((l) => new URL(l.path, "http://x").searchParams.get("page") ?? "1");
    expect(pages).toEqual(["1", "2", "3"]);
    expect(new URL((await apiLog("/gitlab/api/v4/groups/platform/projects"))[0].path, "http://x").searchParams.get("include_subgroups")).toBe("true");
    const s = await waitForJob("platform-sub-svc-b");
    expect(s.status, s.lastError ?? "").toBe("ready");
    expect(s.snapshot?.commit).toBe(b.head);

    // A GitLab push delivery with the connection's secret re-indexes the pushed repo.
    const pushed = await pushCommit("gl-svc-a", { "src/connected.ts": "export const viaConnection = 'quokkaconnect';\n" });
    await waitForJob("platform-svc-a");
    const body = JSON.stringify({ object_kind: "push", ref: "refs/heads/main", after: pushed, project: { git_http_url: a.url, default_branch: "main" } });
    const hook = (token: string) =>
      SELF.fetch(`http://localhost/api/webhooks/gitlab?connection=${json.connection.id}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-gitlab-event": "Push Hook", "x-gitlab-token": token, "x-gitlab-event-uuid": crypto.randomUUID() },
        body,
      });
    expect((await hook("wrong")).status).toBe(401);
    const ok = await hook(json.webhook.secret);
    expect(ok.status, await ok.clone().text()).toBe(202);
    for (let i = 0; i < 600 && (await repoStatus("platform-svc-a")).snapshot?.commit !== pushed; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await repoStatus("platform-svc-a")).snapshot?.commit).toBe(pushed);

    const del = await api(`/api/connections/${json.connection.id}?keepRepos=true`, { method: "DELETE" });
    expect(((await del.json()) as any).keptRepos.sort()).toEqual(["platform-sub-svc-b", "platform-svc-a", "platform-svc-fork"]);
    expect((await api("/api/repos/platform-svc-a")).status).toBe(200);
  });
});
