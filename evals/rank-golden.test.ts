/// <reference types="vite/client" />
/**
 * Golden ranks (like zoekt's internal/e2e/e2e_rank_test.go): a fixed list of queries over the
 * fixture corpus (evals/fixture-repo), indexed through the REST API inside workerd; the top 5 of
 * each, with the explanation of every result (channel ranks, fused score, each ranking stage's
 * factor), must equal evals/golden/rank-fixture.json. A change that moves a rank fails here until
 * the golden file is refreshed on purpose: `npx vitest run evals/rank-golden.test.ts -u`, and the
 * diff reviewed with the eval tables.
 *
 * The queries are this test's own (not the eval set's), covering a name, a question, a pasted
 * error, a path-scoped query, a short report and two entry-point questions (the `entry` stage).
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiClient } from "./lib/client.ts";
import { indexCorpus } from "./lib/evaluate.ts";

const raw = import.meta.glob<string>("./fixture-repo/**", { query: "?raw", import: "default", eager: true });
const files = Object.entries(raw).map(([key, text]) => ({ path: key.replace("./fixture-repo/", ""), text }));

const QUERIES: { q: string; path_prefix?: string; mode?: string }[] = [
  { q: "verifyToken" },
  { q: "how is the jwt signature checked against several secrets" },
  { q: "where is the late fee computed for overdue invoices" },
  { q: "jittered exponential backoff delay" },
  { q: "cursor pagination encode decode" },
  { q: "retry a failed charge later" },
  { q: "rate limit requests per customer", path_prefix: "api/src/http/" },
  { q: "webhook signature hmac", mode: "bm25" },
  { q: "which migration creates the invoices table" },
  { q: "where does the api server start" },
  { q: "where is the entry point of the billing worker" },
  {
    q: "TypeError: Cannot read properties of undefined (reading 'scopes')\n    at requireScope (api/src/auth/middleware.ts:43:20)\n    at handler (api/src/orders/order-routes.ts:30:5)",
  },
];

describe("golden ranks", () => {
  it("ranks the fixed queries as the golden file says", async () => {
    const client = new ApiClient({ baseUrl: "http://localhost", token: env.ADMIN_TOKEN, fetch: (url, init) => SELF.fetch(url, init) });
    const encoder = new TextEncoder();
    const indexed = await indexCorpus(
      client,
      "rank-golden",
      files.map((f) => ({ path: f.path, bytes: encoder.encode(f.text) })),
      { pollMs: 50 },
    );
    expect(indexed.status.status).toBe("ready");
    const out: unknown[] = [];
    for (const query of QUERIES) {
      const res = await SELF.fetch("http://localhost/api/search", {
        method: "POST",
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ repo: "rank-golden", k: 5, explain: true, ...query }),
      });
      expect(res.status).toBe(200);
      type Explain = { ranks: Record<string, number>; fused: number; stages: { stage: string; factor: number }[] };
      const body = (await res.json()) as {
        results: { path: string; startLine: number; endLine: number; symbol: string | null; score: number; explain: Explain }[];
        confidence: { level: string };
      };
      // One line per result: channel ranks, fused score, the stages that changed the score.
      const why = (e: Explain) =>
        [
          ...Object.entries(e.ranks).map(([c, r]) => `${c}#${r}`),
          `fused ${e.fused}`,
          ...e.stages.filter((s) => s.factor !== 1).map((s) => `${s.stage} x${s.factor}`),
        ].join(", ");
      out.push({
        query,
        confidence: body.confidence.level,
        results: body.results.map((r) => `${r.path}:${r.startLine}-${r.endLine} ${r.symbol ?? "-"} ${r.score} (${why(r.explain)})`),
      });
    }
    await expect(`${JSON.stringify(out, null, 1)}\n`).toMatchFileSnapshot("./golden/rank-fixture.json");
  });
});
