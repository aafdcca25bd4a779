/**
 * Tracked refs kept fresh (issue #49, docs/refs.md): a branch added, moved by a push (a signed
 * GitHub webhook), and deleted on the remote; the scheduled check picking up a new tag that a
 * tracked glob matches. Against the loopback git server.
 */
import { sign } from "@octokit/webhooks-methods";
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { registerAndWait } from "./ingest-helpers";
import { fileRows, patchRefs, refOf, snapshotCommits, snapshotFiles, waitForRefs } from "./refs-helpers";
import { createUpstream, pushCommit, setUpstreamRefs } from "./upstream";

async function githubPush(secret: string, url: string, ref: string, after: string, deleted = false): Promise<Response> {
  const body = JSON.stringify({
    ref,
    before: "1".repeat(40),
    after,
    deleted,
    repository: { full_name: "o/refs", clone_url: url, html_url: url.replace(/\.git$/, ""), default_branch: "main" },
  });
  const headers = {
    "content-type": "application/json",
    "x-github-event": "push",
    "x-github-delivery": crypto.randomUUID(),
    "x-hub-signature-256": await sign(secret, body),
  };
  return SELF.fetch("http://localhost/api/webhooks/github", { method: "POST", headers, body });
}

describe("tracked refs stay fresh", () => {
  it("follows a branch added, moved by a push webhook, and deleted on the remote", async () => {
    const { url } = await createUpstream("refs-wh");
    await setUpstreamRefs("refs-wh", { "refs/heads/feature": "change" });
    const main = await registerAndWait({ url, name: "refs-wh" });
    const mainCommit = main.snapshot!.commit;
    const mainRows = await fileRows("refs-wh");
    const hook = await api("/api/repos/refs-wh/webhook", { method: "POST" });
    const { secret } = (await hook.json()) as { secret: string };

    // Added.
    expect((await patchRefs("refs-wh", ["feature"])).status).toBe(200);
    const added = await waitForRefs("refs-wh", (s) => s.refs.some((r) => r.name === "refs/heads/feature" && r.commit !== null));
    const first = refOf(added, "refs/heads/feature").commit!;

    // Moved by a push: the webhook re-indexes that ref only; the default snapshot stays.
    const pushed = await pushCommit("refs-wh", { "src/feature.ts": "export function featureOnly() {\n  return 42;\n}\n" }, "feature");
    const res = await githubPush(secret, url, "refs/heads/feature", pushed);
    expect(res.status).toBe(202);
    const body = (await res.json()) as { accepted: { repo: string; ref: string; refs: { queued: string[] } }[] };
    expect(body.accepted).toEqual([
      expect.objectContaining({ repo: "refs-wh", ref: "refs/heads/feature", refs: { queued: ["refs/heads/feature"], removed: [] } }),
    ]);
    const moved = await waitForRefs("refs-wh", (s) => refOf(s, "refs/heads/feature").commit === pushed);
    expect(moved.snapshot!.commit).toBe(mainCommit);
    expect(refOf(moved, "refs/heads/main").commit).toBe(mainCommit);
    expect((await snapshotFiles("refs-wh", pushed)).has("src/feature.ts")).toBe(true);
    // The branch's previous snapshot went with the move; main's and the new one stay.
    expect(await snapshotCommits("refs-wh")).toEqual([mainCommit, pushed].sort());
    expect(first).not.toBe(pushed);

    // Deleted on the remote: the push says so, the ref, its snapshot and its own files go.
    await setUpstreamRefs("refs-wh", {}, ["refs/heads/feature"]);
    const del = await githubPush(secret, url, "refs/heads/feature", "0".repeat(40), true);
    expect(del.status).toBe(202);
    expect(((await del.json()) as { accepted: { refs: { removed: string[] } }[] }).accepted[0].refs.removed).toEqual(["refs/heads/feature"]);
    const gone = await waitForRefs("refs-wh");
    expect(gone.refs.map((r) => r.name)).toEqual(["refs/heads/main"]);
    expect(gone.refPatterns).toEqual(["refs/heads/feature"]); // still tracked: a new feature branch would be indexed
    // Reading it says the branch is gone on the remote, not that it is untracked.
    const read = await api("/api/repos/refs-wh/tree?ref=feature");
    expect(read.status).toBe(404);
    expect(((await read.json()) as { error: { message: string } }).error.message).toContain(
      'Ref "feature" of repo "refs-wh" is still tracked (pattern "refs/heads/feature"), but the branch no longer exists on the remote',
    );
    expect(await snapshotCommits("refs-wh")).toEqual([mainCommit]);
    expect(await fileRows("refs-wh")).toBe(mainRows);
  });

  it("a push to a branch a tracked glob matches past the limit says it is not tracked", async () => {
    const { url } = await createUpstream("refs-full");
    // 9 extra refs and the default: the limit (MAX_REFS_PER_REPO, 10).
    await setUpstreamRefs("refs-full", Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`refs/heads/rel/${i}`, "main"])));
    await registerAndWait({ url, name: "refs-full" });
    const { secret } = (await (await api("/api/repos/refs-full/webhook", { method: "POST" })).json()) as { secret: string };
    expect((await patchRefs("refs-full", ["rel/*"])).status).toBe(200);
    await waitForRefs("refs-full", (s) => s.refs.length === 10 && s.refs.every((r) => r.commit !== null));

    await setUpstreamRefs("refs-full", { "refs/heads/rel/9": "main" });
    const res = await githubPush(secret, url, "refs/heads/rel/9", "2".repeat(40));
    expect(res.status).toBe(202);
    const body = (await res.json()) as { accepted: { refs: { queued: string[]; overLimit?: { refs: string[]; note: string } } }[] };
    expect(body.accepted[0].refs.queued).toEqual([]);
    expect(body.accepted[0].refs.overLimit).toEqual({ refs: ["refs/heads/rel/9"], note: expect.stringContaining("past MAX_REFS_PER_REPO") });
  });

  it("the scheduled check indexes a new tag a tracked glob matches, and only that", async () => {
    const { url } = await createUpstream("refs-poll");
    await setUpstreamRefs("refs-poll", { "refs/tags/v5.0": "main" });
    await registerAndWait({ url, name: "refs-poll" });
    expect((await patchRefs("refs-poll", ["v5.*"])).status).toBe(200);
    await waitForRefs("refs-poll", (s) => s.refs.length === 2 && s.refs.every((r) => r.commit !== null));

    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("refs-poll"));
    const unchanged = await stub.pollRemote();
    expect(unchanged).toMatchObject({ kind: "unchanged", refs: { queued: [], removed: [] } });

    await setUpstreamRefs("refs-poll", { "refs/tags/v5.1": "change" });
    const polled = await stub.pollRemote();
    expect(polled).toMatchObject({ kind: "unchanged", refs: { queued: ["refs/tags/v5.1"], removed: [] } });
    const s = await waitForRefs("refs-poll", (x) => x.refs.length === 3 && x.refs.every((r) => r.commit !== null));
    expect(s.refs.map((r) => r.name)).toEqual(["refs/heads/main", "refs/tags/v5.0", "refs/tags/v5.1"]);
  });
});
