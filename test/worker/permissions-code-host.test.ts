/**
 * Issue #48 finding 1: permissions that follow the code host, against the fake GitHub and GitLab
 * APIs on loopback (test/code-host-server.ts). A person sees exactly the repos the host lets them
 * read (public ones, and private ones whose readers name them), losing access on the host hides
 * the repo at the next sync (the stated lag), and a failed sync never widens access: a repo whose
 * readers cannot be listed is hidden, a failed listing grants nothing, and grants not proved
 * again within PERMISSION_MAX_AGE_MS stop counting. Both directions: a connection sync (a repo's
 * readers) and a person's sync (the repos their own token lists), and GitLab's members.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Env } from "../../kernel/env";
import { createSession } from "../../worker/auth/sessions";
import { syncGithubPerson } from "../../worker/permissions/github-person";
import { PERMISSION_MAX_AGE_MS } from "../../worker/permissions/readers";
import type { Caller } from "../../worker/services/context";
import { api } from "../helpers";
import { waitForJob } from "./ingest-helpers";
import { createUpstream } from "./upstream";

const host = () => inject("codeHostUrl");
const TOKEN = "ghp_permissions_test_token_0048";
const PAT_TOKEN = "gho_pat_person_token_0048";
const GL_TOKEN = "glpat-permissions-test-0048";

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

/** A web session of a person signed in through a code host (a reader), as its cookie header. */
async function personCookie(principal: string): Promise<string> {
  const caller: Caller = { id: principal, kind: "session", scopes: ["search"], repos: "*", person: { principal, role: "reader" } };
  const { setCookie } = await createSession(env.DB, caller, principal, 3600, Date.now());
  return setCookie.split(";")[0];
}

/** What `cookie` sees: the repo list, and per repo whether search, grep and the file tree answer. */
async function sees(cookie: string, repos: string[]): Promise<Record<string, boolean>> {
  const get = (p: string) => SELF.fetch(`http://localhost${p}`, { headers: { cookie } });
  const list = (await (await get("/api/repos")).json()) as { repos: { id: string }[] };
  const listed = new Set(list.repos.map((r) => r.id));
  const all = await (await get("/api/search?q=getUserById")).text();
  const out: Record<string, boolean> = {};
  for (const repo of repos) {
    const one = await get(`/api/search?q=getUserById&repo=${repo}`);
    const tree = await get(`/api/repos/${repo}/tree`);
    const grep = await get(`/api/grep?pattern=getUserById&repo=${repo}`);
    const statuses = [one.status, tree.status, grep.status];
    // One rule everywhere: every read agrees with the repo list.
    const visible = listed.has(repo);
    expect(statuses, `${repo}: list says ${visible}`).toEqual(visible ? [200, 200, 200] : [404, 404, 404]);
    expect(all.includes(`"${repo}"`), `${repo} in a search of every repo`).toBe(visible);
    out[repo] = visible;
  }
  return out;
}

describe("permissions that follow the code host", () => {
  const GH_REPOS = ["initech-pub", "initech-priv-a", "initech-priv-b"];
  let connection = "";
  let pat = "";
  const sync = async (id = connection) => {
    const res = await api(`/api/connections/${id}/sync`, { method: "POST" });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    await ctl("/tokens", { token: TOKEN, login: "initech-bot" });
    await ctl("/tokens", { token: PAT_TOKEN, login: "pat" });
    const up = await createUpstream("gh-initech-perm");
    await ctl("/github/owners/initech", {
      type: "Organization",
      repos: [
        { id: 4801, name: "pub", clone_url: up.url },
        { id: 4802, name: "priv-a", clone_url: up.url, private: true },
        { id: 4803, name: "priv-b", clone_url: up.url, private: true },
      ],
    });
    await ctl("/github/readers/4802", { logins: ["pat", "initech-bot"] });
    await ctl("/github/readers/4803", { logins: ["quinn"] });
    const created = await api("/api/connections", {
      method: "POST",
      json: { provider: "github", owner: "initech", token: TOKEN, baseUrl: `${host()}/github` },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    connection = ((await created.json()) as any).connection.id;
    for (const repo of GH_REPOS) expect((await waitForJob(repo)).status).toBe("ready");
    pat = await personCookie("github:pat");
  });

  it("shows a person exactly the repos the host lets them read; the local admin sees all", async () => {
    const visibility = await env.DB.prepare("SELECT id, visibility FROM repos WHERE id LIKE 'initech-%' ORDER BY id").all();
    expect(visibility.results).toEqual([
      { id: "initech-priv-a", visibility: "private" },
      { id: "initech-priv-b", visibility: "private" },
      { id: "initech-pub", visibility: "public" },
    ]);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": true, "initech-priv-b": false });
    expect(await sees(await personCookie("github:quinn"), GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": true });
    // Someone the host names nowhere sees the public repo only.
    expect(await sees(await personCookie("github:nobody"), GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": false });
    const admin = (await (await api("/api/repos")).json()) as { repos: { id: string }[] };
    expect(admin.repos.map((r) => r.id)).toEqual(expect.arrayContaining(GH_REPOS));
  });

  it("hides a repo at the next sync when the person loses access on the host, and audits it", async () => {
    await ctl("/github/readers/4802", { logins: ["initech-bot"] });
    expect((await sync()).status).toBe(200);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": false });
    const audit = (await (await api("/api/audit?event=permissions_changed")).json()) as { entries: any[] };
    expect(audit.entries.find((e) => e.target === "initech-priv-a" && e.detail.removedNames === "github:pat")).toBeTruthy();
    // Access given back on the host comes back at the next sync.
    await ctl("/github/readers/4802", { logins: ["pat", "initech-bot"] });
    expect((await sync()).status).toBe(200);
    expect((await sees(pat, GH_REPOS))["initech-priv-a"]).toBe(true);
  });

  it("syncs the person direction from their own token: the repos /user/repos lists", async () => {
    const config = {
      clientId: "x",
      clientSecret: "y",
      baseUrl: host(),
      apiUrl: `${host()}/github`,
      allowedUsers: [],
      allowedOrgs: [],
      allowedTeams: [],
      adminUsers: [],
      adminTeams: [],
    };
    // The host now lets pat read priv-b (not yet seen by a connection sync) but no longer priv-a.
    await ctl("/github/access/pat", { repoIds: [4801, 4803] });
    const result = await syncGithubPerson(env as unknown as Env, config, PAT_TOKEN, "pat", Date.now());
    expect(result.repos).toEqual({ added: ["initech-priv-b"], removed: ["initech-priv-a"] });
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": true });
    // A person sync that GitHub does not answer changes nothing (and grants nothing).
    await ctl("/github/access/pat", { repoIds: [4801, 4802, 4803] });
    await ctl("/fail", { prefix: "/github/user/repos", count: 1, status: 502 });
    expect((await syncGithubPerson(env as unknown as Env, config, PAT_TOKEN, "pat", Date.now())).repos).toBeNull();
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": true });
    // The next connection sync is the latest proof again: the collaborators name pat on priv-a only.
    expect((await sync()).status).toBe(200);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": true, "initech-priv-b": false });
  });

  it("never widens access on a failed sync: unprovable readers hide the repo, a failed listing grants nothing", async () => {
    // The host adds pat to priv-b, but the connection cannot list priv-b's readers: hidden from everyone.
    await ctl("/github/readers/4803", { logins: ["quinn", "pat"] });
    await ctl("/fail", {
      prefix: "/github/repos/initech/priv-b/collaborators",
      count: 1,
      status: 403,
      body: { message: "Must have push access to view repository collaborators." },
    });
    const failed = await sync();
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.sync.readers.unprovable).toEqual([{ repo: "initech-priv-b", reason: expect.stringMatching(/403/) }]);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": true, "initech-priv-b": false });
    expect((await api("/api/repos/initech-priv-b")).status).toBe(404); // hidden from the admin too
    const kept = await env.DB.prepare("SELECT active_commit FROM repos WHERE id = 'initech-priv-b'").first<{ active_commit: string }>();
    expect(kept?.active_commit).toMatch(/^[0-9a-f]{40}$/); // index kept
    // The whole listing fails: nothing changes, nothing is granted.
    await ctl("/fail", { prefix: "/github/orgs/initech/repos", count: 5, status: 500 });
    expect((await sync()).status).not.toBe(200);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": true, "initech-priv-b": false });
    // Grants not proved again within the permission lag stop counting (syncs kept failing).
    await env.DB.prepare("UPDATE repo_readers SET synced_at = synced_at - ? WHERE source = 'host'")
      .bind(PERMISSION_MAX_AGE_MS + 1)
      .run();
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": false });
    // A good sync proves the readers again; priv-b serves again, to its readers only.
    expect((await sync()).status).toBe(200);
    expect(await sees(pat, GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": true, "initech-priv-b": true });
    expect(await sees(await personCookie("github:nobody"), GH_REPOS)).toEqual({ "initech-pub": true, "initech-priv-a": false, "initech-priv-b": false });
  });

  it("takes GitLab readers from the project's members, inherited included, Reporter and above", async () => {
    await ctl("/tokens", { token: GL_TOKEN, login: "gl-bot" });
    const up = await createUpstream("gl-umbrella-perm");
    await ctl("/gitlab/groups/umbrella", {
      projects: [{ id: 4901, path: "vault", path_with_namespace: "umbrella/vault", http_url_to_repo: up.url, private: true }],
    });
    await ctl("/gitlab/members/4901", {
      members: [
        { username: "gina", access_level: 30 },
        { username: "gus", access_level: 10 },
      ],
    });
    const created = await api("/api/connections", {
      method: "POST",
      json: { provider: "gitlab", owner: "umbrella", token: GL_TOKEN, baseUrl: `${host()}/gitlab` },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    expect((await waitForJob("umbrella-vault")).status).toBe("ready");
    expect(await sees(await personCookie("gitlab:gina"), ["umbrella-vault"])).toEqual({ "umbrella-vault": true });
    expect(await sees(await personCookie("gitlab:gus"), ["umbrella-vault"])).toEqual({ "umbrella-vault": false });
    expect(await sees(pat, ["umbrella-vault"])).toEqual({ "umbrella-vault": false });
  });
});
