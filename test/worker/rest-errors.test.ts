/**
 * REST polish from the QA report: JSON 404s for every unknown /api route, `query` as an alias
 * of `q`, `repo` with `repos` refused, source links only for indexed files, one repo-id rule.
 * Data from test/worker/mcp-fixture.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { seedFixture } from "./mcp-fixture";

type ErrorBody = { error: { code: string; message: string } };

async function json(path: string, init?: RequestInit & { json?: unknown }): Promise<{ status: number; type: string | null; body: any }> {
  const res = await api(path, init);
  const type = res.headers.get("content-type");
  return { status: res.status, type, body: type?.includes("json") ? await res.json() : await res.text() };
}

describe("REST errors", () => {
  beforeAll(seedFixture);

  it.each([
    ["GET", "/api/nonexistent"],
    ["POST", "/api/nonexistent"],
    ["GET", "/api/repos/demo/files/../../etc/passwd"],
    ["GET", "/api/repos/demo/files/%2e%2e/%2e%2e/etc/passwd"],
    ["GET", "/api/repos/demo/nothing-here"],
    ["PUT", "/api/repos/demo"],
  ])("%s %s answers a JSON not_found", async (method, path) => {
    const r = await json(path, { method });
    expect(r.status).toBe(404);
    expect(r.type).toMatch(/application\/json/);
    expect((r.body as ErrorBody).error.code).toBe("not_found");
    expect((r.body as ErrorBody).error.message).toMatch(/^No route /);
  });

  it("POST /api/search takes query as an alias of q, and says q is required when neither is given", async () => {
    const byQ = await json("/api/search", { method: "POST", json: { q: "getUserById", repo: "demo" } });
    const byQuery = await json("/api/search", { method: "POST", json: { query: "getUserById", repo: "demo" } });
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.results.map((r: { path: string }) => r.path)).toEqual(byQ.body.results.map((r: { path: string }) => r.path));
    expect((await json("/api/search?query=getUserById&repo=demo")).status).toBe(200);
    for (const body of [{ repo: "demo" }, { q: "  ", repo: "demo" }]) {
      const missing = await json("/api/search", { method: "POST", json: body });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toMatch(/^q \(the query text\) is required/);
    }
    const both = await json("/api/search", { method: "POST", json: { q: "a", query: "b", repo: "demo" } });
    expect(both.status).toBe(400);
  });

  it("says a q over 32,000 characters is too long, naming the limit (not that q is required)", async () => {
    const long = await json("/api/search", { method: "POST", json: { q: "parse ".repeat(5_334), repo: "demo" } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^q \(the query text\) is too long: at most 32000 characters/);
    const byAlias = await json("/api/search", { method: "POST", json: { query: "x".repeat(32_001), repo: "demo" } });
    expect(byAlias.body.error.message).toContain("too long");
  });

  it("refuses a JSON body over 2 MiB with 413, declared or streamed, and reads no more of a stream than the limit", async () => {
    const big = JSON.stringify({ q: "parse", repo: "demo", pad: "x".repeat(3 * 1024 * 1024) });
    const declared = await json("/api/search", { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("payload_too_large");
    expect(declared.body.error.message).toMatch(/larger than 2097152 bytes/);
    // No Content-Length: a stream that never ends unless the reader stops pulling.
    let pulled = 0;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await json("/api/search", { method: "POST", body: endless, headers: { "content-type": "application/json" } });
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
  });

  it("refuses repo together with repos", async () => {
    for (const r of [
      await json("/api/search", { method: "POST", json: { q: "getUserById", repo: "demo", repos: ["other"] } }),
      await json("/api/search?q=getUserById&repo=demo&repos=other"),
    ]) {
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_input");
      expect(r.body.error.message).toMatch(/pass repo \(one repo\) or repos \(a list\), not both/);
    }
  });

  it("signs source links only for indexed files", async () => {
    const ok = await json("/api/source-links", { method: "POST", json: { repo: "demo", path: "src/users.ts", startLine: 1 } });
    expect(ok.status).toBe(200);
    expect(ok.body.url).toMatch(/\/source\/demo\/src\/users\.ts/);
    const missing = await json("/api/source-links", { method: "POST", json: { repo: "demo", path: "src/not-there.ts" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("file_not_found");
    const noRepo = await json("/api/source-links", { method: "POST", json: { repo: "nope", path: "a.ts" } });
    expect(noRepo.status).toBe(404);
    expect(noRepo.body.error.code).toBe("repo_not_found");
  });

  it("POST /api/repos applies the repo-id rule to an explicit name (no silent renaming)", async () => {
    const r = await json("/api/repos", { method: "POST", json: { url: "http://127.0.0.1:1/x.git", name: "Bad Name!" } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_input");
    expect(r.body.error.message).toBe(
      `name: "Bad Name!" is not a valid repo id: 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit (e.g. "my-repo").`,
    );
    const archive = await json("/api/repos/Bad%20Name!/archive", { method: "POST", body: new Uint8Array([1, 2, 3]) });
    expect(archive.status).toBe(400);
    expect(archive.body.error.message).toMatch(/is not a valid repo id: 1-64 characters/);
  });
});
