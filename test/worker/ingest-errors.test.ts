/** Bad inputs to the write side: a clear 4xx (or a skip reason), and never a partial repo or snapshot. */
import { env } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it, inject } from "vitest";
import { FIXTURE_FILES } from "./ingest-fixture";
import { api } from "../helpers";
import { fixtureUrl, indexShape, registerAndWait, waitForJob } from "./ingest-helpers";

async function post(path: string, json: unknown) {
  const res = await api(path, { method: "POST", json });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

async function repoRowCount(id: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM repos WHERE id = ?").bind(id).first<{ n: number }>())?.n ?? -1;
}

async function upload(id: string, bytes: Uint8Array, query = "") {
  const res = await api(`/api/repos/${id}/archive${query}`, { method: "POST", body: bytes, headers: { "content-type": "application/zip" } });
  return { status: res.status, body: (await res.json()) as { repo?: { id: string }; job?: { id: string }; error?: { code: string; message: string } } };
}

describe("registering a git repo: bad inputs", () => {
  it.each([
    ["a malformed URL", { url: "not a url" }, 400, "invalid_input", /not a valid URL/],
    ["a non-http scheme", { url: "ftp://example.com/repo.git" }, 400, "invalid_input", /http or https/],
    ["a file URL", { url: "file:///etc/passwd" }, 400, "invalid_input", /http or https/],
    ["no URL", { name: "x" }, 400, "invalid_input", /^url:/],
    ["an unusable name", { url: "http://127.0.0.1:1/x.git", name: "!!!" }, 400, "invalid_input", /repo id/],
  ])("rejects %s", async (_what, body, status, code, message) => {
    const r = await post("/api/repos", body);
    expect(r.status).toBe(status);
    expect(r.body.error?.code).toBe(code);
    expect(r.body.error?.message).toMatch(message);
  });

  it("rejects an unreachable host with 422 and leaves no repo", async () => {
    const r = await post("/api/repos", { url: "http://127.0.0.1:1/nowhere.git", name: "err-unreachable" });
    expect(r.status).toBe(422);
    expect(r.body.error?.code).toBe("source_unreachable");
    expect(r.body.error?.message).toMatch(/No git repository could be read at http:\/\/127\.0\.0\.1:1\/nowhere\.git/);
    expect(await repoRowCount("err-unreachable")).toBe(0);
  });

  it("answers a URL that is not a git repository exactly like an unreachable host (no port-scan oracle)", async () => {
    // /slow/0/ answers 200 with plain text at once: a web server that is no git server.
    const url = `${inject("gitServerUrl")}/slow/0/not-a-repo.git`;
    const r = await post("/api/repos", { url, name: "err-notgit" });
    const closed = await post("/api/repos", { url: "http://127.0.0.1:1/not-a-repo.git", name: "err-notgit" });
    expect(r.status).toBe(422);
    expect(r.body.error?.code).toBe("source_unreachable");
    expect(r.body.error?.message.replace(url, "URL")).toBe(closed.body.error?.message.replace("http://127.0.0.1:1/not-a-repo.git", "URL"));
    expect(await repoRowCount("err-notgit")).toBe(0);
  });

  it.each([
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/", /link-local address/],
    ["a private address in decimal", "http://167772161/x.git", /private-network address/],
    ["the unspecified address", "http://0.0.0.0:8787/x.git", /unspecified address/],
    ["an IPv4-mapped private address", "http://[::ffff:10.0.0.1]/x.git", /private-network address/],
    ["a unique-local IPv6 address", "http://[fd00::1]/x.git", /unique-local/],
  ])("refuses %s with 400 before connecting, and leaves no repo", async (_what, url, message) => {
    const r = await post("/api/repos", { url, name: "err-ssrf" });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe("invalid_input");
    expect(r.body.error?.message).toMatch(message);
    expect(r.body.error?.message).toMatch(/only fetches from public hosts/);
    expect(await repoRowCount("err-ssrf")).toBe(0);
  });

  it("refuses loopback when ALLOW_LOOPBACK_GIT_URLS is off (as in production)", async () => {
    const before = env.ALLOW_LOOPBACK_GIT_URLS;
    env.ALLOW_LOOPBACK_GIT_URLS = "false";
    try {
      for (const url of [fixtureUrl(), "http://2130706433:1/x.git", "http://0x7f.1/x.git", "http://[::1]/x.git", "http://localhost/x.git"]) {
        const r = await post("/api/repos", { url, name: "err-loopback" });
        expect(r.status, url).toBe(400);
        expect(r.body.error?.message).toMatch(/loopback address; this server only fetches from public hosts/);
      }
    } finally {
      env.ALLOW_LOOPBACK_GIT_URLS = before;
    }
    expect(await repoRowCount("err-loopback")).toBe(0);
  });

  it("rejects an unknown ref, naming the branches that exist", async () => {
    const r = await post("/api/repos", { url: fixtureUrl(), ref: "no-such-branch", name: "err-ref" });
    expect(r.status).toBe(404);
    expect(r.body.error?.code).toBe("ref_not_found");
    expect(r.body.error?.message).toMatch(/"no-such-branch" does not exist.*Branches: change, main/);
    expect(await repoRowCount("err-ref")).toBe(0);
  });

  it("derives the id from the URL, refuses a duplicate, and a bad refresh ref keeps the snapshot", async () => {
    const s = await registerAndWait({ url: fixtureUrl() });
    expect(s.id).toBe("fixture");
    expect(s.status).toBe("ready");
    const dup = await post("/api/repos", { url: fixtureUrl() });
    expect(dup.status).toBe(409);
    expect(dup.body.error?.code).toBe("repo_exists");
    const bad = await post("/api/repos/fixture/refresh", { ref: "nope" });
    expect(bad.status).toBe(404);
    expect(bad.body.error?.code).toBe("ref_not_found");
    const after = await waitForJob("fixture");
    expect(after.snapshot?.commit).toBe(s.snapshot?.commit);
    expect(after.ref).toBeNull();
  });

  it("a job whose fetch fails in the background ends failed with lastError; the old snapshot keeps serving", async () => {
    const s = await registerAndWait({ url: fixtureUrl(), name: "err-bg" });
    expect(s.status).toBe("ready");
    // The source disappears after registration (the stored URL now points at a closed port).
    const stub = env.REPO_COORDINATOR.get(env.REPO_COORDINATOR.idFromName("err-bg"));
    const job = await stub.requestIndex({ repo: "err-bg", sourceKind: "git", url: "http://127.0.0.1:1/gone.git", ref: null });
    const failed = await waitForJob("err-bg", job.jobId);
    expect(failed.status).toBe("failed");
    expect(failed.lastError).toMatch(/No git repository could be read at http:\/\/127\.0\.0\.1:1\/gone\.git/);
    expect(failed.snapshot?.commit).toBe(s.snapshot?.commit);
    const row = await env.DB.prepare("SELECT status, active_commit FROM repos WHERE id = 'err-bg'").first();
    expect(row).toEqual({ status: "failed", active_commit: s.snapshot!.commit });
    expect((await indexShape("err-bg")).snapshot).toHaveLength(8);
  });

  it("answers 404 for unknown repos", async () => {
    expect((await api("/api/repos/nope-nope")).status).toBe(404);
    expect((await post("/api/repos/nope-nope/refresh", {})).status).toBe(404);
    expect((await api("/api/repos/nope-nope", { method: "DELETE" })).status).toBe(404);
  });

  it("accepts a tag and a commit SHA that is a branch tip", async () => {
    const tag = await registerAndWait({ url: fixtureUrl(), ref: "v1", name: "err-tag" });
    expect(tag.status, tag.lastError ?? "").toBe("ready");
    const sha = await registerAndWait({ url: fixtureUrl(), ref: tag.snapshot!.commit, name: "err-sha" });
    expect(sha.status, sha.lastError ?? "").toBe("ready");
    expect(sha.snapshot?.commit).toBe(tag.snapshot?.commit);
  });
});

describe("archive upload", () => {
  it("indexes a zip like the same tree from git (same blob SHAs), and a re-upload processes 0 files", async () => {
    const git = await registerAndWait({ url: fixtureUrl(), name: "arc-git" });
    const zip = zipSync(Object.fromEntries(Object.entries(FIXTURE_FILES).map(([p, c]) => [`proj/${p}`, typeof c === "string" ? strToU8(c) : c])));
    const r = await upload("arc-zip", zip);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const s = await waitForJob("arc-zip", r.body.job!.id);
    expect(s.status, s.lastError ?? "").toBe("ready");
    expect(s.sourceKind).toBe("archive");
    expect(s.snapshot?.commit).toMatch(/^archive-[0-9a-f]{40}$/);
    // An upload does not say which files are tracked, so its .gitignore applies to all of them
    // (the two files the git fixture force-adds are skipped); the symlink is absent from the zip.
    expect(s.skipped).toEqual({ ignored: 2, binary: 1, too_large: 1, secret: 1, vendored: 1 });
    const [a, b] = [await indexShape("arc-zip"), await indexShape("arc-git")];
    const forced = ["debug.log", "ignored-dir/secret-notes.ts"];
    expect(a.snapshot).toEqual(b.snapshot.filter((r) => !forced.includes(r.path as string)));
    expect(git.status).toBe("ready");
    // Listed by git (npm start of a work tree: ?gitignore=applied): indexed exactly like the git source.
    const listed = await upload("arc-zip-listed", zip, "?gitignore=applied");
    const sl = await waitForJob("arc-zip-listed", listed.body.job!.id);
    expect(sl.skipped).toEqual({ binary: 1, too_large: 1, secret: 1, vendored: 1 });
    const c = await indexShape("arc-zip-listed");
    expect(c.snapshot).toEqual(b.snapshot);
    expect(c.chunks).toEqual(b.chunks);

    const again = await upload("arc-zip", zip);
    expect(again.status).toBe(202);
    const s2 = await waitForJob("arc-zip", again.body.job!.id);
    expect(s2.snapshot?.commit).toBe(s.snapshot?.commit);
    expect(s2.progress.filesQueued).toBe(0);
    expect(s2.job?.unchanged).toBe(6);
    expect((await post("/api/repos/arc-zip/refresh", {})).body.error?.code).toBe("invalid_input");
  });

  it.each([
    ["a ../ entry", () => zipSync({ "ok.ts": strToU8("export {};\n"), "../evil.ts": strToU8("evil") }), 400, "archive_invalid"],
    ["a zip bomb", () => zipSync({ "bomb.txt": new Uint8Array(32 * 1024 * 1024) }, { level: 9 }), 400, "archive_invalid"],
    ["bytes that are no archive", () => strToU8("hello, not an archive"), 400, "archive_invalid"],
  ])("rejects %s and leaves no repo behind", async (_what, make, status, code) => {
    const id = `arc-bad-${code}-${Math.random().toString(36).slice(2, 8)}`;
    const r = await upload(id, make());
    expect(r.status).toBe(status);
    expect(r.body.error?.code).toBe(code);
    expect(await repoRowCount(id)).toBe(0);
  });

  it("refuses an archive for a git repo's id", async () => {
    await registerAndWait({ url: fixtureUrl(), name: "arc-is-git" });
    const r = await upload("arc-is-git", zipSync({ "a.ts": strToU8("export {};\n") }));
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe("invalid_input");
  });
});
