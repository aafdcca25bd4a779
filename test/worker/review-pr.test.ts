/**
 * Pull-request reviews against a fake GitHub API answered inside the test (global `fetch`
 * answers api.github.fake.test; everything else, such as the scripted Messages API on loopback,
 * goes to the real fetch): a signed pull_request delivery is accepted, the PR's diff is fetched
 * with the diff media type, one review with line comments on the head commit is posted, a second
 * delivery for the same head posts nothing, a new head gets its own review, and a bad signature,
 * an unreviewed action or missing configuration change nothing.
 */
import { sign } from "@octokit/webhooks-methods";
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import worker from "../../worker/index";
import { api } from "../helpers";
import { registerAndWait } from "./ingest-helpers";
import { chunk, indexFixture } from "./search-fixture";
import { createUpstream } from "./upstream";

const GH_API = "https://api.github.fake.test";
const SECRET = "pr-webhook-secret-for-tests";
const REPO = "prrepo";
const url = inject("messagesApiUrl");
const HEAD1 = "a".repeat(40);
const HEAD2 = "b".repeat(40);

const ORDERS = ["export function cancel(order: { status: string }) {", "  order.status = 'cancelled';", "  return order;", "}"].join("\n");
const DIFF = [
  "diff --git a/src/orders.ts b/src/orders.ts",
  "--- a/src/orders.ts",
  "+++ b/src/orders.ts",
  "@@ -1,3 +1,4 @@",
  " export function cancel(order: { status: string }) {",
  "+  if (order.status === 'shipped') return order;",
  "   order.status = 'cancelled';",
  "   return order;",
  "",
].join("\n");

let realFetch: typeof fetch;
let posted: { url: string; body: any }[];
let diffRequests: { url: string; accept: string | null; auth: string | null }[];
/** Every request to the fake GitHub API, whatever its path. */
let ghRequests: string[];
/** The GitHub repository the test repos were registered from (on the GitHub of GH_API). */
const GITHUB_URL = "https://github.fake.test/acme/shop.git";

beforeAll(async () => {
  await indexFixture(REPO, "c1", [{ path: "src/orders.ts", chunks: [chunk("function", 1, ORDERS, "cancel")] }]);
  // The fixture index is written directly; record the GitHub repository it stands for.
  // Private, as a connection registers a private GitHub repo: the webhook's review still reads it (issue #48).
  await env.DB.prepare("UPDATE repos SET source_kind = 'git', url = ?, visibility = 'private' WHERE id = ?").bind(GITHUB_URL, REPO).run();
});

beforeEach(() => {
  posted = [];
  diffRequests = [];
  ghRequests = [];
  realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    if (u.origin !== GH_API) return realFetch(req);
    ghRequests.push(`${req.method} ${u.pathname}`);
    if (req.method === "GET" && u.pathname === "/repos/acme/shop/pulls/7") {
      diffRequests.push({ url: req.url, accept: req.headers.get("accept"), auth: req.headers.get("authorization") });
      return new Response(DIFF, { headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    if (req.method === "POST" && u.pathname === "/repos/acme/shop/pulls/7/reviews") {
      posted.push({ url: req.url, body: await req.json() });
      return Response.json({ id: 900 + posted.length, state: "COMMENTED" });
    }
    return Response.json({ message: "Not Found" }, { status: 404 });
  });
});

afterEach(() => vi.unstubAllGlobals());

const prEnv = (key: string, extra: Record<string, string> = {}) => ({
  ...env,
  ANTHROPIC_BASE_URL: url,
  ANTHROPIC_API_KEY: key,
  GITHUB_API_URL: GH_API,
  GITHUB_REVIEW_TOKEN: "ghp_fake_review_token",
  GITHUB_WEBHOOK_SECRET: SECRET,
  ...extra,
});

const payload = (action: string, head: string) =>
  JSON.stringify({ action, number: 7, pull_request: { head: { sha: head }, draft: false }, repository: { full_name: "acme/shop" } });

async function deliver(body: string, opts: { key: string; event?: string; signature?: string; env?: Record<string, string>; query?: string; path?: string }) {
  const req = new Request(`http://localhost${opts.path ?? "/api/webhooks/github/pull-request"}${opts.query ?? `?repo=${REPO}`}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": opts.event ?? "pull_request",
      "x-hub-signature-256": opts.signature ?? (await sign(SECRET, body)),
    },
    body,
  }) as Request<unknown, IncomingRequestCfProperties>;
  const ctx = createExecutionContext();
  const res = await worker.fetch(req, prEnv(opts.key, opts.env) as never, ctx);
  await waitOnExecutionContext(ctx);
  return { res, body: (await res.json()) as any };
}

const row = (head: string) =>
  env.DB.prepare("SELECT status, review_id, findings FROM pr_reviews WHERE github_repo = 'acme/shop' AND pr_number = 7 AND head_sha = ?")
    .bind(head)
    .first<any>();

describe("POST /api/webhooks/github/pull-request", () => {
  it("posts one review with line comments per head commit, and none for a repeated delivery", async () => {
    const key = `review-parallel:pr-${Math.random()}`;
    const first = await deliver(payload("opened", HEAD1), { key });
    expect(first.res.status).toBe(202);
    expect(first.body.accepted).toEqual({ pullRequest: 7, head: HEAD1, repo: REPO });
    expect(diffRequests).toHaveLength(1);
    expect(diffRequests[0].accept).toBe("application/vnd.github.v3.diff");
    expect(diffRequests[0].auth).toBe("token ghp_fake_review_token");
    expect(posted).toHaveLength(1);
    const review = posted[0].body;
    expect(review.commit_id).toBe(HEAD1);
    expect(review.event).toBe("COMMENT");
    // The scripted reviewer flags the first added line (new-side 2) and two ungrounded findings, which are dropped.
    expect(review.comments).toEqual([expect.objectContaining({ path: "src/orders.ts", line: 2, side: "RIGHT" })]);
    expect(review.body).toContain("2 finding(s) were dropped because they did not point at a real line");
    expect(await row(HEAD1)).toEqual({ status: "posted", review_id: 901, findings: 1 });

    const again = await deliver(payload("synchronize", HEAD1), { key });
    expect(again.res.status).toBe(200);
    expect(again.body.duplicate).toBe(true);
    expect(posted).toHaveLength(1);

    const next = await deliver(payload("synchronize", HEAD2), { key: `review-parallel:pr2-${Math.random()}` });
    expect(next.res.status).toBe(202);
    expect(posted).toHaveLength(2);
    expect(posted[1].body.commit_id).toBe(HEAD2);
    // Charged to the indexed repo, not to a name the payload chose.
    const charged = await env.DB.prepare("SELECT DISTINCT identity FROM ask_usage WHERE identity LIKE 'github-pr:%'").all<{ identity: string }>();
    expect(charged.results.map((r) => r.identity)).toEqual([`github-pr:${REPO}`]);
  });

  it("changes nothing for a bad signature, an unreviewed action, a ping or missing configuration", async () => {
    const key = `review-parallel:pr-bad-${Math.random()}`;
    const head = "c".repeat(40);
    const forged = await deliver(payload("opened", head), { key, signature: await sign("wrong-secret", payload("opened", head)) });
    expect(forged.res.status).toBe(401);
    expect(forged.body.error.code).toBe("unauthorized");
    const closed = await deliver(payload("closed", head), { key });
    expect(closed.res.status).toBe(202);
    expect(closed.body.ignored).toContain("closed");
    const ping = await deliver(JSON.stringify({ zen: "hi" }), { key, event: "ping" });
    expect(ping.body).toEqual({ ok: true, event: "ping" });
    const noRepo = await deliver(payload("opened", head), { key, query: "" });
    expect(noRepo.res.status).toBe(400);
    const unconfigured = await deliver(payload("opened", head), { key, env: { GITHUB_REVIEW_TOKEN: "" } });
    expect(unconfigured.res.status).toBe(503);
    expect(unconfigured.body.error.code).toBe("not_configured");
    expect(posted).toHaveLength(0);
    expect(diffRequests).toHaveLength(0);
    expect(await row(head)).toBeNull();
    expect(((await (await realFetch(`${url}/__requests?key=${encodeURIComponent(key)}`)).json()) as any).calls).toBe(0);
  });
});

describe("pull-request deliveries under per-repo secrets", () => {
  it("verifies against the repo's own webhook secret, on the push webhook's URL and on the old one, with no global secret", async () => {
    await registerAndWait({ url: (await createUpstream("pr-git")).url, name: "pr-git" });
    // Indexed from the loopback git server, standing for the GitHub repository acme/shop.
    await env.DB.prepare("UPDATE repos SET url = ? WHERE id = 'pr-git'").bind(GITHUB_URL).run();
    const created = await api("/api/repos/pr-git/webhook", { method: "POST" });
    expect(created.status).toBe(201);
    const { secret, github } = (await created.json()) as { secret: string; github: { payloadUrl: string } };
    const noGlobal = { GITHUB_WEBHOOK_SECRET: "" };
    const head = "d".repeat(40);
    const body = payload("opened", head);

    // A signature under anything but the repo's secret (here the old global one) changes nothing.
    const forged = await deliver(body, {
      key: `review-parallel:pr-forged-${Math.random()}`,
      path: "/api/webhooks/github",
      query: "?repo=pr-git",
      env: noGlobal,
    });
    expect(forged.res.status).toBe(401);
    expect(forged.body.error.code).toBe("unauthorized");
    expect(posted).toHaveLength(0);
    expect(await row(head)).toBeNull();

    // The URL the repo's webhook setup shows, subscribed to pull_request as well as push.
    const key = `review-parallel:pr-own-${Math.random()}`;
    const good = await deliver(body, {
      key,
      path: new URL(github.payloadUrl).pathname,
      query: "?repo=pr-git",
      signature: await sign(secret, body),
      env: noGlobal,
    });
    expect(good.res.status, JSON.stringify(good.body)).toBe(202);
    expect(good.body.accepted).toEqual({ pullRequest: 7, head, repo: "pr-git" });
    expect(posted).toHaveLength(1);
    expect(posted[0].body.commit_id).toBe(head);

    // The compatibility path takes the same secret.
    const head2 = "e".repeat(40);
    const body2 = payload("synchronize", head2);
    const old = await deliver(body2, {
      key: `review-parallel:pr-old-${Math.random()}`,
      query: "?repo=pr-git",
      signature: await sign(secret, body2),
      env: noGlobal,
    });
    expect(old.res.status, JSON.stringify(old.body)).toBe(202);
    expect(old.body.accepted.repo).toBe("pr-git");
    const bad2 = await deliver(body2, { key, query: "?repo=pr-git", signature: await sign(`${secret}x`, body2), env: noGlobal });
    expect(bad2.res.status).toBe(401);
  });
});

describe("a pull-request delivery acts only on its own repository (issue 43, Medium 4)", () => {
  it("refuses a delivery signed with one repo's secret that names another repository: no diff fetched, no review posted", async () => {
    await registerAndWait({ url: (await createUpstream("pr-own")).url, name: "pr-own" });
    await env.DB.prepare("UPDATE repos SET url = ? WHERE id = 'pr-own'").bind("https://github.fake.test/acme/own.git").run();
    const created = await api("/api/repos/pr-own/webhook", { method: "POST" });
    const { secret } = (await created.json()) as { secret: string };
    const noGlobal = { GITHUB_WEBHOOK_SECRET: "" };
    const head = "f".repeat(40);
    const key = `review-parallel:pr-victim-${Math.random()}`;
    for (const fullName of ["acme/shop", "victim-org/private-repo"]) {
      // The payload names the victim and, to match a connection, could name its URLs too.
      const body = JSON.stringify({
        action: "opened",
        number: 7,
        pull_request: { head: { sha: head }, draft: false },
        repository: { full_name: fullName, clone_url: "https://github.fake.test/acme/own.git" },
      });
      for (const path of ["/api/webhooks/github", "/api/webhooks/github/pull-request"]) {
        const res = await deliver(body, { key, path, query: "?repo=pr-own", signature: await sign(secret, body), env: noGlobal });
        expect(res.res.status, `${path} ${fullName}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.error.code).toBe("forbidden");
        expect(res.body.error.message).toContain("acme/own");
      }
    }
    expect(ghRequests).toEqual([]);
    expect(posted).toHaveLength(0);
    const claimed = await env.DB.prepare("SELECT count(*) AS n FROM pr_reviews WHERE head_sha = ?").bind(head).first<{ n: number }>();
    expect(claimed?.n).toBe(0);
    expect(((await (await realFetch(`${url}/__requests?key=${encodeURIComponent(key)}`)).json()) as any).calls).toBe(0);
  });

  it("refuses with 400 a repo not registered from a repository on this GitHub", async () => {
    const key = `review-parallel:pr-nourl-${Math.random()}`;
    await indexFixture("pr-archive", "c1", [{ path: "src/orders.ts", chunks: [chunk("function", 1, ORDERS, "cancel")] }]);
    const res = await deliver(payload("opened", "1".repeat(40)), { key, query: "?repo=pr-archive" });
    expect(res.res.status).toBe(400);
    expect(res.body.error.message).toContain("not registered from a repository URL on github.fake.test");
    expect(ghRequests).toEqual([]);
    expect(posted).toHaveLength(0);
  });
});
