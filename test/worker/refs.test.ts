/**
 * Several refs per repository (issue #49, docs/refs.md), against the loopback git server: two
 * branches indexed with shared storage, the default ref unchanged for readers naming no ref,
 * garbage collection keeping every tracked ref's snapshot, a glob of tags, the limit, and
 * archives (no refs).
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listShards } from "../../indexer/store/shards";
import { api } from "../helpers";
import { indexDb, refreshAndWait, registerAndWait, uploadFilesAndWait } from "./ingest-helpers";
import { fileRows, patchRefs, refOf, snapshotCommits, snapshotFiles, waitForRefs } from "./refs-helpers";
import { createUpstream, pushCommit, setUpstreamRefs } from "./upstream";

async function grepCount(repo: string, pattern: string): Promise<number> {
  const res = await api("/api/grep", { method: "POST", json: { pattern, repo } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { total_count: number }).total_count;
}

describe("tracked refs", () => {
  it("indexes a second branch at the cost of the files it changes, sharing the rest", async () => {
    const { url } = await createUpstream("refs-two");
    const res = await api("/api/repos", { method: "POST", json: { url, name: "refs-two", refs: ["change"] } });
    expect(res.status).toBe(202);
    const s = await waitForRefs("refs-two", (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
    expect(s.refPatterns).toEqual(["refs/heads/change"]);
    const main = refOf(s, "refs/heads/main");
    const change = refOf(s, "refs/heads/change");
    expect(main).toMatchObject({ default: true, pattern: null, status: "ready" });
    expect(change).toMatchObject({ default: false, pattern: "refs/heads/change", status: "ready" });
    // The default row is the active snapshot: readers that name no ref are unchanged.
    expect(main.commit).toBe(s.snapshot!.commit);
    expect(change.commit).not.toBe(main.commit);

    // The branch's job (the last one) processed the one file that differs; the rest joined as they were.
    expect(s.job).toMatchObject({ ref: "refs/heads/change", commit: change.commit, status: "ready" });
    expect(s.progress.filesQueued).toBe(1);
    const mainFiles = await snapshotFiles("refs-two", main.commit!);
    const changeFiles = await snapshotFiles("refs-two", change.commit!);
    expect(s.job!.unchanged).toBe(changeFiles.size - 1);
    const differing = [...changeFiles].filter(([path, id]) => mainFiles.get(path) !== id).map(([path]) => path);
    expect(differing).toEqual(["src/users.ts"]);
    // One files row per file version: the second branch added one row, not a second index.
    expect(await fileRows("refs-two")).toBe(mainFiles.size + 1);

    // A function only on `change` is not served to a reader naming no ref.
    expect(await grepCount("refs-two", "renameUserAccount")).toBe(0);
    const db = await indexDb("refs-two");
    const onChange = await db
      .prepare(
        "SELECT count(*) AS n FROM snapshot_files s JOIN symbols y ON y.repo = s.repo AND y.file_id = s.file_id WHERE s.repo = ? AND s.commit_sha = ? AND y.name = 'renameUserAccount'",
      )
      .bind("refs-two", change.commit)
      .first<{ n: number }>();
    expect(onChange!.n).toBeGreaterThan(0);
  });

  it("keeps every tracked ref's snapshot through a new default snapshot, and drops an untracked ref's", async () => {
    const { url } = await createUpstream("refs-gc");
    await registerAndWait({ url, name: "refs-gc" });
    const added = await patchRefs("refs-gc", ["refs/heads/change"]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.refs.refs).toEqual([expect.objectContaining({ name: "refs/heads/change", action: "queued" })]);
    const before = await waitForRefs("refs-gc", (x) => refOf(x, "refs/heads/change").commit !== null);
    const changeCommit = refOf(before, "refs/heads/change").commit!;

    // A push to main: a new default snapshot, whose garbage collection keeps the branch's.
    const c2 = await pushCommit("refs-gc", { "src/extra.ts": "export const extra = 1;\n" });
    const after = await refreshAndWait("refs-gc");
    expect(after.snapshot!.commit).toBe(c2);
    expect(await snapshotCommits("refs-gc")).toEqual([c2, changeCommit].sort());
    expect((await snapshotFiles("refs-gc", changeCommit)).get("src/users.ts")).toBeDefined();

    // Untracked: its snapshot and the file only it used go; the default stays whole.
    const rowsBefore = await fileRows("refs-gc");
    const untracked = await patchRefs("refs-gc", []);
    expect(untracked.status).toBe(200);
    expect(untracked.body.refs.removed).toEqual(["refs/heads/change"]);
    const s = await waitForRefs("refs-gc");
    expect(s.refs.map((r) => r.name)).toEqual(["refs/heads/main"]);
    expect(await snapshotCommits("refs-gc")).toEqual([c2]);
    expect(await fileRows("refs-gc")).toBe(rowsBefore - 1);
  });

  it("tracks a glob of tags, normalised to refs/tags/, and refuses more refs than the limit", async () => {
    const { url } = await createUpstream("refs-tags");
    await setUpstreamRefs("refs-tags", { "refs/tags/v2.0": "main", "refs/tags/v2.1": "change" });
    await registerAndWait({ url, name: "refs-tags" });
    // Tracking refs needs the index scope (docs/refs.md): a CI token that indexes may add them,
    // while who may read the repo stays an admin's.
    const created = await api("/api/tokens", { method: "POST", json: { name: "ci refs", scopes: ["index"], expiresInDays: 1 } });
    const indexToken = ((await created.json()) as { token: string }).token;
    const asIndex = (json: unknown) =>
      SELF.fetch("http://localhost/api/repos/refs-tags", {
        method: "PATCH",
        headers: { authorization: `Bearer ${indexToken}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
    const access = await asIndex({ access: { users: ["octocat"] } });
    expect(access.status).toBe(403);
    expect(((await access.json()) as any).error.message).toContain('needs the "admin" scope');
    const byIndex = await asIndex({ refs: ["v2.*"] });
    expect(byIndex.status, await byIndex.clone().text()).toBe(200);
    const r = await patchRefs("refs-tags", ["v2.*"]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.refs.patterns).toEqual(["refs/tags/v2.*"]);
    // A refs-only PATCH is audited as a refs change, with the refs, not as an access list change.
    const audited = await env.DB.prepare("SELECT event, detail FROM audit_log WHERE target = 'refs-tags' ORDER BY id").all<{ event: string; detail: string }>();
    expect(audited.results.map((a) => a.event)).toEqual(["repo_refs_changed", "repo_refs_changed"]);
    expect(JSON.parse(audited.results[1].detail)).toEqual({ status: 200, refs: "refs/tags/v2.*" });
    const s = await waitForRefs("refs-tags", (x) => x.refs.length === 3 && x.refs.every((y) => y.commit !== null));
    expect(s.refs.map((x) => x.name)).toEqual(["refs/heads/main", "refs/tags/v2.0", "refs/tags/v2.1"]);
    // v2.0 is main's commit: its snapshot is main's, taken over without a fetch.
    expect(refOf(s, "refs/tags/v2.0").commit).toBe(refOf(s, "refs/heads/main").commit);

    const many = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`refs/tags/v3.${i}`, "main"]));
    await setUpstreamRefs("refs-tags", many);
    const tooMany = await patchRefs("refs-tags", ["refs/tags/v3.*"]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe("invalid_input");
    expect(tooMany.body.error.message).toContain("at most 10 refs");
    const nothing = await patchRefs("refs-tags", ["no-such-branch"]);
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toContain('"no-such-branch" matches no branch or tag');
    // Refused requests changed nothing.
    expect((await waitForRefs("refs-tags")).refPatterns).toEqual(["refs/tags/v2.*"]);
  });

  it("says an archive has no refs, and refuses refs for one", async () => {
    await uploadFilesAndWait("refs-archive", { "a.ts": "export const a = 1;\n" });
    const s = (await (await api("/api/repos/refs-archive")).json()) as { refs: unknown[]; refsNote: string };
    expect(s.refs).toEqual([]);
    expect(s.refsNote).toMatch(/^archive: no refs/);
    const r = await patchRefs("refs-archive", ["main"]);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("archive: no refs");
    const upload = await api("/api/repos/refs-archive/archive?refs=main", { method: "POST", body: new Uint8Array([1]) });
    expect(upload.status).toBe(400);
    expect(((await upload.json()) as any).error.message).toContain("archive: no refs");
  });
});

describe("moving a repo with tracked refs", () => {
  it("carries every ref's snapshot into the target shard, the default flipping last", async () => {
    const { url } = await createUpstream("refs-move");
    const res = await api("/api/repos", { method: "POST", json: { url, name: "refs-move", refs: ["change"] } });
    expect(res.status).toBe(202);
    const before = await waitForRefs("refs-move", (x) => x.refs.length === 2 && x.refs.every((r) => r.commit !== null));
    const commits = before.refs.map((r) => r.commit!).sort();
    const from = before.placement.shard!;
    const to = (from + 1) % listShards(env).length;
    const moved = await api("/api/repos/refs-move/move", { method: "POST", json: { shard: to } });
    expect(moved.status).toBe(202);
    const after = await waitForRefs("refs-move", (x) => x.placement.movingTo === null && x.placement.shard === to);
    expect(after.refs.map((r) => r.commit).sort()).toEqual(commits);
    expect(await snapshotCommits("refs-move")).toEqual(commits);
    const target = listShards(env)[to].db;
    const mirror = await target.prepare("SELECT name, commit_sha FROM repo_refs WHERE repo = ? ORDER BY name").bind("refs-move").all();
    expect(mirror.results.map((r) => r.commit_sha).sort()).toEqual(commits);
    const old = listShards(env)[from].db;
    expect((await old.prepare("SELECT count(*) AS n FROM snapshot_files WHERE repo = ?").bind("refs-move").first<{ n: number }>())!.n).toBe(0);
  });
});
