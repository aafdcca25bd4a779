/**
 * Push webhooks end to end: a secret made by the product, a push to the loopback git server, a
 * signed GitHub (or token-carrying GitLab) delivery, and a new snapshot at the pushed commit.
 * Also what must change nothing: bad signatures, redeliveries, other refs and events.
 */
import { sign } from "@octokit/webhooks-methods";
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { RepoStatus } from "../../worker/services/repos";
import { api } from "../helpers";
import { registerAndWait, repoStatus } from "./ingest-helpers";
import { createUpstream, pushCommit } from "./upstream";

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function githubPush(url: string, after: string, ref = "refs/heads/main") {
  return JSON.stringify({
    ref,
    before: "0".repeat(39) + "1",
    after,
    deleted: false,
    repository: { full_name: "o/wh", clone_url: url, html_url: url.replace(/\.git$/, ""), default_branch: "main" },
  });
}

async function deliver(provider: "github" | "gitlab", body: string, headers: Record<string, string>, query = ""): Promise<Response> {
  return SELF.fetch(`http://localhost/api/webhooks/${provider}${query}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

async function signedGitHub(secret: string, event: string, body: string, delivery = crypto.randomUUID()): Promise<Response> {
  return deliver("github", body, { "x-github-event": event, "x-github-delivery": delivery, "x-hub-signature-256": await sign(secret, body) });
}

const jobOf = async (id: string) => (await repoStatus(id)).job?.id;

describe("GitHub and GitLab push webhooks", () => {
  let url: string;
  let secret: string;

  beforeAll(async () => {
    url = (await createUpstream("wh")).url;
    await registerAndWait({ url, name: "wh" });
    const res = await api("/api/repos/wh/webhook", { method: "POST" });
    expect(res.status).toBe(201);
    const created = (await res.json()) as {
      secret: string;
      github: { payloadUrl: string; contentType: string; events: string[] };
      gitlab: { url: string; secretToken: string };
    };
    expect(created.github).toEqual({ payloadUrl: "http://localhost/api/webhooks/github?repo=wh", contentType: "application/json", events: ["push"] });
    expect(created.gitlab.secretToken).toBe(created.secret);
    secret = created.secret;
  });

  it("shows the secret once and never again", async () => {
    const info = await (await api("/api/repos/wh/webhook")).json();
    expect(info).toEqual({ repo: "wh", configured: true, createdAt: expect.any(Number) });
    expect(JSON.stringify(info)).not.toContain(secret);
    const row = await env.DB.prepare("SELECT secret_sealed FROM repo_webhooks WHERE repo = 'wh'").first<{ secret_sealed: string }>();
    expect(row?.secret_sealed).not.toContain(secret);
  });

  it("re-indexes at the pushed commit, which becomes searchable; a redelivery is a no-op", async () => {
    const pushed = await pushCommit("wh", { "src/pushed.ts": "export function pushedByWebhook(): string {\n  return 'zanzibarquux';\n}\n" });
    const delivery = crypto.randomUUID();
    const res = await signedGitHub(secret, "push", githubPush(url, pushed), delivery);
    const body = (await res.json()) as { accepted: { repo: string; commit: string; job: { id: string } }[] };
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.accepted).toEqual([{ repo: "wh", commit: pushed, job: { id: expect.any(String), status: "queued" }, pending: null }]);
    const ready = await until("the pushed snapshot", async () => {
      const s = await repoStatus("wh");
      return s.job?.id === body.accepted[0].job.id && s.status === "ready" && s;
    });
    expect(ready.snapshot?.commit).toBe(pushed);
    const search = await (await api("/api/search?q=zanzibarquux&repo=wh")).json();
    expect(JSON.stringify(search)).toContain("src/pushed.ts");

    const again = await signedGitHub(secret, "push", githubPush(url, pushed), delivery);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true, deliveryId: delivery });
    expect(await jobOf("wh")).toBe(body.accepted[0].job.id);
  });

  it("answers 401 to a bad signature and does nothing else", async () => {
    const before = await jobOf("wh");
    const pushed = await pushCommit("wh", { "src/forged.ts": "export const forged = 1;\n" });
    const body = githubPush(url, pushed);
    const delivery = crypto.randomUUID();
    for (const signature of [await sign("not-the-secret", body), "sha256=" + "0".repeat(64), "garbage", ""]) {
      const res = await deliver("github", body, { "x-github-event": "push", "x-github-delivery": delivery, "x-hub-signature-256": signature });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.code).toBe("unauthorized");
    }
    const tampered = await deliver("github", body.replace(pushed, "f".repeat(40)), {
      "x-github-event": "push",
      "x-github-delivery": delivery,
      "x-hub-signature-256": await sign(secret, body),
    });
    expect(tampered.status).toBe(401);
    expect(await jobOf("wh")).toBe(before);
    // The rejected deliveries left no trace: the same id, signed, is handled.
    const seen = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE delivery_id = ?").bind(delivery).first<{ n: number }>();
    expect(seen?.n).toBe(0);
  });

  it("answers ping, and ignores other refs, deletions and other events with the reason", async () => {
    const ping = await signedGitHub(secret, "ping", JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1, repository: { clone_url: url } }));
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ ok: true, event: "ping", repos: ["wh"] });
    const before = await jobOf("wh");

    const other = await signedGitHub(secret, "push", githubPush(url, "b".repeat(40), "refs/heads/feature"));
    expect(other.status).toBe(202);
    expect(((await other.json()) as any).ignored).toBe("repo tracks the default branch, not refs/heads/feature");

    const deleted = await signedGitHub(secret, "push", JSON.stringify({ ...JSON.parse(githubPush(url, "0".repeat(40))), deleted: true }));
    expect(((await deleted.json()) as any).ignored).toMatch(/deleted refs\/heads\/main/);

    const issues = await signedGitHub(secret, "issues", JSON.stringify({ action: "opened", repository: { clone_url: url } }));
    expect(issues.status).toBe(202);
    expect(((await issues.json()) as any).ignored).toMatch(/event "issues" is not handled/);
    expect(await jobOf("wh")).toBe(before);
  });

  it("takes a push to the default branch when the payload leaves out default_branch (the repo's stored default)", async () => {
    const pushed = await pushCommit("wh", { "src/no-default.ts": "export const noDefault = 1;\n" });
    const payload = JSON.parse(githubPush(url, pushed));
    delete payload.repository.default_branch;
    const res = await signedGitHub(secret, "push", JSON.stringify(payload));
    const body = (await res.json()) as { accepted?: { job: { id: string } }[]; ignored?: string };
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(body.ignored).toBeUndefined();
    const job = body.accepted![0].job.id;
    await until("the pushed snapshot", async () => {
      const s = await repoStatus("wh");
      return s.job?.id === job && s.status === "ready" && s;
    });
  });

  it("counts only deliveries it acted on as handled: an ignored one may be sent again", async () => {
    const delivery = crypto.randomUUID();
    const body = githubPush(url, "c".repeat(40), "refs/heads/feature");
    for (let i = 0; i < 2; i++) {
      const res = await signedGitHub(secret, "push", body, delivery);
      expect(res.status).toBe(202);
      expect(((await res.json()) as any).ignored).toBe("repo tracks the default branch, not refs/heads/feature");
    }
  });

  it("refuses a body over the size limit with 413", async () => {
    const big = JSON.stringify({ ref: "refs/heads/main", padding: "x".repeat(1024 * 1024 + 10) });
    const res = await deliver("github", big, { "x-github-event": "push", "x-hub-signature-256": await sign(secret, big) }, "?repo=wh");
    expect(res.status).toBe(413);
  });

  it("takes GitLab pushes with X-Gitlab-Token, and 401 for a wrong one", async () => {
    const pushed = await pushCommit("wh", { "src/gitlab.ts": "export const viaGitlab = true;\n" });
    const body = JSON.stringify({ object_kind: "push", ref: "refs/heads/main", after: pushed, project: { git_http_url: url, default_branch: "main" } });
    const wrong = await deliver("gitlab", body, { "x-gitlab-event": "Push Hook", "x-gitlab-token": `${secret}x` });
    expect(wrong.status).toBe(401);
    const res = await deliver("gitlab", body, { "x-gitlab-event": "Push Hook", "x-gitlab-token": secret, "x-gitlab-event-uuid": crypto.randomUUID() });
    const json = (await res.json()) as { accepted: { job: { id: string } }[] };
    expect(res.status, JSON.stringify(json)).toBe(202);
    const s = await until("the GitLab-pushed snapshot", async () => {
      const st: RepoStatus = await repoStatus("wh");
      return st.snapshot?.commit === pushed && st;
    });
    expect(s.status).toBe("ready");
  });

  it("handles a captured GitHub push re-sent under a new delivery id once", async () => {
    // GitHub: the same signed body again with a fresh X-GitHub-Delivery.
    const pushed = await pushCommit("wh", { "src/replayed.ts": "export const replayed = 1;\n" });
    const body = githubPush(url, pushed);
    const first = await signedGitHub(secret, "push", body);
    const accepted = (await first.json()) as { accepted: { job: { id: string } }[] };
    expect(first.status, JSON.stringify(accepted)).toBe(202);
    const replay = await signedGitHub(secret, "push", body);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    await until("the first push's snapshot", async () => {
      const st = await repoStatus("wh");
      return st.snapshot?.commit === pushed && st.status === "ready" && st;
    });
    expect(await jobOf("wh")).toBe(accepted.accepted[0].job.id);
  });

  it("handles a GitLab push without X-Gitlab-Event-UUID once, even when re-sent with other fields changed", async () => {
    const before = (await repoStatus("wh")).snapshot?.commit;
    const gl = await pushCommit("wh", { "src/gitlab-replay.ts": "export const glReplay = 1;\n" });
    const glBody = { object_kind: "push", ref: "refs/heads/main", before, after: gl, project: { git_http_url: url, default_branch: "main" } };
    const headers = { "x-gitlab-event": "Push Hook", "x-gitlab-token": secret };
    const glFirst = await deliver("gitlab", JSON.stringify(glBody), headers);
    const glAccepted = (await glFirst.json()) as { accepted: { job: { id: string } }[] };
    expect(glFirst.status, JSON.stringify(glAccepted)).toBe(202);
    const glAgain = await deliver("gitlab", JSON.stringify({ ...glBody, user_name: "someone else" }), headers);
    expect(glAgain.status).toBe(200);
    expect(await glAgain.json()).toMatchObject({ duplicate: true });
    await until("the GitLab push's snapshot", async () => {
      const st = await repoStatus("wh");
      return st.snapshot?.commit === gl && st.status === "ready" && st;
    });
    expect(await jobOf("wh")).toBe(glAccepted.accepted[0].job.id);
  });

  it("answers 401 for a repo without a webhook secret, and after the secret is deleted", async () => {
    const body = githubPush("http://127.0.0.1:1/unknown.git", "c".repeat(40));
    expect((await signedGitHub(secret, "push", body)).status).toBe(401);
    expect((await api("/api/repos/wh/webhook", { method: "DELETE" })).status).toBe(200);
    expect((await signedGitHub(secret, "ping", JSON.stringify({ zen: "z", repository: { clone_url: url } }))).status).toBe(401);
  });
});
