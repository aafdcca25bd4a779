/**
 * Filters never fail silently (issue 22): path_prefix in the forms shells, editors and Windows
 * write it, globs, and an explicit reason when a filter (or the index) leaves nothing to search.
 * Also: a chunk holding one very long line is still found by its symbol's name.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { indexDb } from "./ingest-helpers";
import { chunk, indexFixture } from "./search-fixture";

type Body = { results: { path: string; symbol: string | null }[]; confidence: { level: string; reason: string; missingTerms: string[] } };

async function search(json: Record<string, unknown>): Promise<Body> {
  const res = await api("/api/search", { method: "POST", json: { repo: "flt", k: 10, ...json } });
  expect(res.status).toBe(200);
  return res.json();
}

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${'<path d="M12 2L2 7l10 5 10-5-10-5z" fill="currentColor" stroke="none"/>'.repeat(300)}</svg>`;

beforeAll(async () => {
  await indexFixture("flt", "c1", [
    { path: "src/router/trie.ts", chunks: [chunk("function", 1, "export function insertRoute(path: string) {\n  return path.split('/');\n}", "insertRoute")] },
    { path: "src/router/regexp.ts", chunks: [chunk("function", 1, "export function matchRoute(path: string) {\n  return new RegExp(path);\n}", "matchRoute")] },
    { path: "src/index.ts", chunks: [chunk("function", 1, "export function createApp() {\n  return { route: insertRoute };\n}", "createApp")] },
    { path: "web/page.tsx", chunks: [chunk("function", 1, "export function Page() {\n  return route;\n}", "Page")] },
    { path: "src/router/trie.test.ts", chunks: [chunk("function", 1, "it('inserts a route', () => insertRoute('/a'));", "inserts")] },
    { path: "src/icons.ts", chunks: [chunk("module", 1, `export const brandIconSvg = "${SVG}";`, "brandIconSvg")] },
    ...Array.from({ length: 6 }, (_, i) => ({
      path: `src/icons/icon${i}.ts`,
      chunks: [chunk("module", 1, `export const icon${i} = "<svg><path d='M0 0'/></svg>"; // brand icon svg`, `icon${i}`)],
    })),
  ]);
  await indexFixture("flt-empty", "e1", []);
});

describe("path_prefix", () => {
  it.each(["src/router/", "./src/router/", "/src/router/", "src\\router\\", "src//router/", "src/router/**"])("%j finds the router's files", async (prefix) => {
    const r = await search({ q: "route path", path_prefix: prefix });
    expect(r.results.map((h) => h.path).sort()).toEqual(["src/router/regexp.ts", "src/router/trie.ts"]);
  });

  it("reads a glob with picomatch's meaning: * stays in its folder, ** crosses folders, braces choose", async () => {
    const direct = (await search({ q: "route path", path_prefix: "src/*" })).results.map((h) => h.path);
    expect(direct).toContain("src/index.ts");
    for (const p of direct) expect(p).toMatch(/^src\/[^/]+$/);
    expect((await search({ q: "route path", path_prefix: "src/**/trie.*" })).results.map((h) => h.path)).toEqual(["src/router/trie.ts"]);
    expect((await search({ q: "route", path_prefix: "**/*.{tsx,jsx}", mode: "bm25" })).results.map((h) => h.path)).toEqual(["web/page.tsx"]);
  });

  it("says the filter matched no file (and suggests the path's case) instead of listing the words as missing", async () => {
    const upper = await search({ q: "route path", path_prefix: "SRC/" });
    expect(upper.results).toEqual([]);
    expect(upper.confidence.reason).toMatch(
      /^filters matched no file: path_prefix "SRC\/" matches none of the \d+ indexed files; paths are case-sensitive, did you mean path_prefix "src\/"\?/,
    );
    expect(upper.confidence.missingTerms).toEqual([]);
    const none = await search({ q: "route path", path_prefix: "lib/**/*.go" });
    expect(none.confidence.reason).toMatch(/^filters matched no file: path glob "lib\/\*\*\/\*\.go"/);
  });

  it("says when the filters leave only test files", async () => {
    const r = await search({ q: "inserts route", path_prefix: "src/router/trie.test.ts" });
    expect(r.results).toEqual([]);
    expect(r.confidence.reason).toMatch(/only test files .*include_tests: true/);
    expect((await search({ q: "inserts route", path_prefix: "src/router/trie.test.ts", include_tests: true })).results.length).toBe(1);
  });

  it("says when the index is empty", async () => {
    const res = await api("/api/search", { method: "POST", json: { repo: "flt-empty", q: "route" } });
    const r = (await res.json()) as Body;
    expect(r.results).toEqual([]);
    expect(r.confidence.reason).toMatch(/^The index is empty: flt-empty holds? no indexed chunks/);
  });
});

describe("long lines", () => {
  it.each(["hybrid", "bm25"])("finds a chunk of one 20,000-character line by its symbol's name (%s)", async (mode) => {
    expect(SVG.length).toBeGreaterThan(20_000);
    const r = await search({ q: "brandIconSvg", mode });
    expect(r.results[0]?.symbol).toBe("brandIconSvg");
  });

  it("indexes only the head of a very long line", async () => {
    const row = await (
      await indexDb("flt")
    )
      .prepare("SELECT token_count AS n FROM chunks WHERE repo = 'flt' AND symbol = 'brandIconSvg'")
      .first<{ n: number }>();
    expect(row!.n).toBeLessThan(500);
  });
});
