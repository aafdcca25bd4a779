/**
 * Multi-repo fusion (candidates ranked over the union of the repos, not per repo) and the
 * confidence gate on queries whose words are not in the code or that have no searchable words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { chunk, indexFixture } from "./search-fixture";

const search = async (params: Record<string, string>) => {
  const res = await api(`/api/search?${new URLSearchParams(params)}`);
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  // The relevant repo: several chunks about CORS handling.
  await indexFixture("fz-rel", "r1", [
    {
      path: "src/middleware/cors/index.ts",
      chunks: [
        chunk(
          "function",
          1,
          "export const cors = (options: CorsOptions) => {\n  return async function corsMiddleware(c, next) {\n    c.header('Access-Control-Allow-Origin', options.origin)\n    if (c.req.method === 'OPTIONS') return preflight(c, options)\n    await next()\n  }\n}",
          "cors",
        ),
        chunk(
          "function",
          8,
          "function preflight(c, options: CorsOptions) {\n  // CORS preflight: answer OPTIONS with the allowed methods and headers\n  c.header('Access-Control-Allow-Methods', options.allowMethods.join(','))\n  c.header('Access-Control-Allow-Headers', options.allowHeaders.join(','))\n  return c.body(null, 204)\n}",
          "preflight",
        ),
      ],
    },
    {
      path: "src/middleware/cors/options.ts",
      chunks: [
        chunk(
          "function",
          1,
          "export function corsOptions(init: Partial<CorsOptions>): CorsOptions {\n  // defaults of the cors middleware: any origin, simple methods, preflight headers echoed\n  return { origin: '*', allowMethods: ['GET', 'HEAD', 'POST'], allowHeaders: [], ...init }\n}",
          "corsOptions",
        ),
      ],
    },
    {
      path: "src/middleware/cors/vary.ts",
      chunks: [
        chunk(
          "function",
          1,
          "export function varyOrigin(c) {\n  // cors responses that depend on the Origin header must say so\n  c.header('Vary', 'Origin', { append: true })\n}",
          "varyOrigin",
        ),
      ],
    },
    {
      path: "src/router.ts",
      chunks: [
        chunk(
          "function",
          1,
          "export function addRoute(method: string, path: string, handler: Handler) {\n  routes.push({ method, path, handler })\n}",
          "addRoute",
        ),
      ],
    },
  ]);
  // A tiny repo with one weak match: a single word of the query.
  // Words that share stems and trigrams with a gibberish query, but not the words themselves.
  await indexFixture("fz-odd", "o1", [{ path: "odd.ts", chunks: [chunk("window", 1, "wibbles florps zxqvbns")] }]);
  await indexFixture("fz-weak", "w1", [
    { path: "a.ts", chunks: [chunk("function", 1, "export function safeHelper() {\n  return 'middleware'\n}", "safeHelper")] },
  ]);
});

describe("multi-repo search", () => {
  it("ranks over the union of candidates: a weak repo's best hit does not outrank the relevant repo's top results", async () => {
    const { status, body } = await search({ q: "cors middleware preflight headers", repos: "fz-rel,fz-weak", k: "10" });
    expect(status).toBe(200);
    const order = body.results.map((r: any) => `${r.repo}:${r.path}:${r.symbol}`);
    const weak = order.indexOf("fz-weak:a.ts:safeHelper");
    const relTop = order.filter((o: string) => o.startsWith("fz-rel:src/middleware/cors/")).slice(0, 3);
    expect(relTop).toHaveLength(3);
    // Every one of the relevant repo's three best CORS chunks ranks above the weak hit (or it is absent).
    for (const r of relTop) expect(weak === -1 || order.indexOf(r) < weak).toBe(true);
    expect(body.results[0].repo).toBe("fz-rel");
    // Channel ranks are ranks over the union: only one chunk can be first in a channel.
    const firstInBm25 = body.results.filter((r: any) => r.ranks.bm25 === 1);
    expect(firstInBm25.length).toBeLessThanOrEqual(1);
    expect(body.results.find((r: any) => r.repo === "fz-weak")?.ranks.bm25 ?? 99).toBeGreaterThan(1);
  });

  it("keeps a repo's own ranking when it is searched alone", async () => {
    const alone = await search({ q: "cors middleware preflight headers", repo: "fz-rel", k: "10" });
    const both = await search({ q: "cors middleware preflight headers", repos: "fz-rel,fz-weak", k: "10" });
    const rel = (b: any) => b.results.filter((r: any) => r.repo === "fz-rel").map((r: any) => r.chunkId);
    expect(rel(both.body)).toEqual(rel(alone.body).slice(0, rel(both.body).length));
  });
});

describe("confidence on queries the code cannot answer", () => {
  it("is low for gibberish whose trigrams resemble code, whatever the local embedder's similarity", async () => {
    // fz-odd holds inflections of the gibberish (same stems and trigrams), so the vector channel
    // finds them, but no query word occurs: the lexical similarity must not make it high.
    const { body } = await search({ q: "zxqvbn florp wibble", repos: "fz-odd,fz-rel", k: "3" });
    expect(body.results[0].path).toBe("odd.ts");
    expect(body.results[0].ranks.vector).toBe(1);
    expect(body.confidence.bestVectorScore).toBeGreaterThan(0.1);
    expect(body.confidence).toMatchObject({ level: "low", termCoverage: 0, missingTerms: ["zxqvbn", "florp", "wibble"] });
    // The zero-coverage rule of the lexical embedder, not the threshold rule, decided it.
    expect(body.confidence.reason).toMatch(
      /^Term coverage 0: no query term occurs in the results; missing terms: zxqvbn, florp, wibble \(the lexical embedder/,
    );
  });

  for (const q of ["\u{1F525}\u{1F525}", "!@#$", "?? ... !!"]) {
    it(`answers a query without searchable words (${JSON.stringify(q)}) with no results, low and a reason`, async () => {
      const { status, body } = await search({ q, repo: "fz-rel", k: "3" });
      expect(status).toBe(200);
      expect(body.results).toEqual([]);
      expect(body.confidence).toMatchObject({ level: "low", termCoverage: 0, bestVectorScore: null });
      expect(body.confidence.reason).toMatch(/no searchable words/);
      expect(body.stats.queryTerms).toEqual([]);
    });
  }

  it("still answers a real question over the same repo with high confidence", async () => {
    const { body } = await search({ q: "cors preflight", repo: "fz-rel", k: "3" });
    expect(body.results[0].path).toBe("src/middleware/cors/index.ts");
    expect(body.confidence.level).toBe("high");
  });
});
