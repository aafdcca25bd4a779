/**
 * REST routes of the file and symbol services: /api/repos/{id}/files|outline/{path},
 * /context, /tree, /symbols, /references. Data from test/worker/mcp-fixture.ts.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { seedFixture } from "./mcp-fixture";
import { chunk, indexFixture } from "./search-fixture";

async function json(path: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await api(path, init);
  return { status: res.status, body: await res.json() };
}

describe("file and symbol REST routes", () => {
  beforeAll(seedFixture);

  it("GET /files/{path} returns numbered lines with the next range, only for indexed files", async () => {
    const r = await json("/api/repos/demo/files/src/users.ts?start=16&end=18");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      repo: "demo",
      path: "src/users.ts",
      commit: "c2",
      language: "typescript",
      totalLines: 18,
      startLine: 16,
      endLine: 18,
      next: null,
    });
    expect(r.body.lines[0]).toEqual({ n: 16, text: "export function getUserById(id: string) {" });

    const big = await json("/api/repos/demo/files/src/big.ts?start=301");
    expect(big.body).toMatchObject({ startLine: 301, endLine: 700, next: { start_line: 701, end_line: 1000 } });
    expect(big.body.lines).toHaveLength(400);

    // A path encoded whole (encodeURIComponent) names the same indexed file.
    const encoded = await json("/api/repos/demo/files/src%2Fapp.ts?start=1&end=1");
    expect(encoded.body).toMatchObject({ path: "src/app.ts", lines: [{ n: 1, text: 'import { getUserById } from "./users";' }] });
    const missing = await json("/api/repos/demo/files/src/nope.ts");
    expect(missing).toMatchObject({ status: 404, body: { error: { code: "file_not_found" } } });
    const bad = await json("/api/repos/demo/files/src/users.ts?start=abc");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^start: /);
    // The path goes in the URL; a ?path= query (or none) is told so, not "expected string to have >=1 characters".
    for (const url of ["/api/repos/demo/outline?path=src/users.ts", "/api/repos/demo/files/"]) {
      const noPath = await json(url);
      expect(noPath.status).toBe(400);
      expect(noPath.body.error.message).toMatch(/^path: put the file path in the URL after \/(outline|files)\/, e\.g\. /);
    }
    const reversed = await json("/api/repos/demo/files/src/users.ts?start=9&end=3");
    expect(reversed.status).toBe(400);
    // REST errors name the REST parameters (start/end), not the MCP ones (start_line/end_line).
    expect(reversed.body.error.message).toBe("end (3) is before start (9); ask for start <= end.");
    const past = await json("/api/repos/demo/files/src/users.ts?start=500");
    expect(past.body.error.message).toMatch(/^start 500 is past the end of "src\/users\.ts" \(18 lines\); ask for start 1-18\.$/);
    const lost = await json("/api/repos/demo/files/nowhere/zzz-none.ts");
    expect(lost.body.error.message).toMatch(/GET \/api\/repos\/demo\/tree/);
    expect(lost.body.error.message).not.toMatch(/start_line|search_code|codebase:/);
    const unknown = await json("/api/repos/nope/files/a.ts");
    expect(unknown).toMatchObject({
      status: 404,
      body: { error: { code: "repo_not_found", message: 'Unknown repo "nope". Available: demo, other, pending.' } },
    });
    const pending = await json("/api/repos/pending/files/a.ts");
    expect(pending).toMatchObject({ status: 409, body: { error: { code: "index_not_ready" } } });
  });

  it("GET /outline/{path}, /context, /tree", async () => {
    const o = await json("/api/repos/demo/outline/src/app.ts");
    expect(o.body).toMatchObject({
      imports: ['import { getUserById } from "./users";'],
      symbols: [{ name: "handler", kind: "function", startLine: 3, endLine: 6 }],
      total_count: 1,
    });

    const ctx = await json("/api/repos/demo/context?path=src/users.ts&line=12&before=0&after=0");
    expect(ctx.body).toMatchObject({ window: "lines", chunk: { symbol: "listUsers", startLine: 11, endLine: 13 }, startLine: 12, endLine: 12 });
    const byChunk = await json(`/api/repos/demo/context?chunk_id=${ctx.body.chunk.id}`);
    expect(byChunk.body.chunk.id).toBe(ctx.body.chunk.id);
    const wrongRepo = await json(`/api/repos/other/context?chunk_id=${ctx.body.chunk.id}`);
    expect(wrongRepo.status).toBe(400);

    const tree = await json("/api/repos/demo/tree?path_prefix=src/b");
    expect(tree.body).toMatchObject({ files: [{ path: "src/big.ts", language: "typescript", lines: 1000 }], total_count: 1, has_more: false });
    const page = await json("/api/repos/demo/tree?limit=2");
    expect(page.body).toMatchObject({ total_count: 3, has_more: true, next_offset: 2 });
  });

  it("GET /symbols ranks exact, case-insensitive, then prefix; GET /references paginates", async () => {
    const s = await json("/api/repos/demo/symbols?name=getUserById");
    expect(s.body.symbols.map((x: any) => [x.kind, x.match])).toEqual([
      ["method", "exact"],
      ["function", "exact"],
    ]);
    const k = await json("/api/repos/demo/symbols?name=getUserById&kind=function");
    expect(k.body.symbols).toHaveLength(1);
    const badKind = await json("/api/repos/demo/symbols?name=x&kind=banana");
    expect(badKind.status).toBe(400);
    expect(badKind.body.error.message).toMatch(/^kind: /);
    const noName = await json("/api/repos/demo/symbols");
    expect(noName.status).toBe(400);

    const refs = await json("/api/repos/demo/references?symbol=UserService&limit=1");
    expect(refs.body).toMatchObject({ total_count: 2, has_more: true, next_offset: 1 });
    expect(refs.body.references[0]).toMatchObject({ path: "src/users.ts", line: 4, definition: true });
  });

  it("GET /references takes Ruby-style names ending in ! or ?", async () => {
    await indexFixture(
      "rb",
      "r1",
      [
        {
          path: "lib/base.rb",
          language: "ruby",
          chunks: [
            chunk("method", 1, "def compile!(path)\n  compile(path) if valid?(path)\nend", "compile!", "Base"),
            chunk("method", 4, "def route(verb)\n  compile!(verb)\nend", "route", "Base"),
          ],
        },
      ],
      { embed: false },
    );
    const bang = await json("/api/repos/rb/references?symbol=compile!");
    expect(bang.status).toBe(200);
    expect(bang.body.references.map((r: any) => [r.line, r.definition])).toEqual([
      [1, true],
      [5, false],
    ]);
    expect((await json("/api/repos/rb/references?symbol=valid?")).body.total_count).toBe(1);
    // In Ruby a trailing ! or ? makes another name: `compile` is not `compile!`, `valid` not `valid?`.
    expect((await json("/api/repos/rb/references?symbol=compile")).body.references.map((r: any) => r.line)).toEqual([2]);
    expect((await json("/api/repos/rb/references?symbol=valid")).body.total_count).toBe(0);
    expect((await json("/api/repos/rb/references?symbol=compile!!")).status).toBe(400);
  });

  it("answers 401 without a token, and hides repos outside a token's allowlist", async () => {
    const anon = await SELF.fetch("http://localhost/api/repos/demo/files/src/users.ts");
    expect(anon.status).toBe(401);

    const created = await api("/api/tokens", { method: "POST", json: { name: "other only", scopes: ["search"], repos: ["other"] } });
    const { token } = (await created.json()) as { token: string };
    const as = (path: string) => SELF.fetch(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } });
    const hidden = await as("/api/repos/demo/files/src/users.ts");
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ error: { code: "repo_not_found", message: 'Unknown repo "demo". Available: other.' } });
    expect((await as("/api/repos/other/files/lib/users.ts?start=1&end=1")).status).toBe(200);
    const cross = await as("/api/repos/other/symbols?name=UserService");
    expect(((await cross.json()) as { symbols: { repo: string }[] }).symbols.map((x: any) => x.repo)).toEqual(["other"]);
  });
});
