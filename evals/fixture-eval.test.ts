/// <reference types="vite/client" />
/**
 * CI gate for retrieval quality: indexes the fixture corpus (evals/fixture-repo) through the
 * product's REST API inside workerd, asks the golden set (evals/sets/fixture.json) and fails
 * below a floor. The floors are the measured values (README, "Evaluation") minus a margin, so a
 * change that loses retrieval quality fails here; raise them when quality improves.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiClient } from "./lib/client.ts";
import { indexCorpus, runRetrievalSet } from "./lib/evaluate.ts";
import { checkGoldSpan } from "./lib/gold.ts";
import { parseRetrievalSet } from "./lib/sets.ts";
import fixtureSet from "./sets/fixture.json";

/** Fixture files as text, keyed `./fixture-repo/<path>`; bundled at build time by Vite. */
const raw = import.meta.glob<string>("./fixture-repo/**", { query: "?raw", import: "default", eager: true });
const files = Object.entries(raw).map(([key, text]) => ({ path: key.replace("./fixture-repo/", ""), text }));
const byPath = new Map(files.map((f) => [f.path, f.text]));
const set = parseRetrievalSet("fixture", fixtureSet);

/** Floors, from the first measured run (R@5 0.882, MRR@10 0.812, lexical R@5 1.0) minus a margin. */
const FLOOR = { recall5: 0.8, mrr10: 0.7, lexicalRecall5: 0.9, wrongRefusalsMax: 2 };

describe("fixture golden set", () => {
  it("has gold ranges that exist and name their symbol", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    const problems: string[] = [];
    for (const q of set.questions) {
      for (const g of q.gold) {
        const text = byPath.get(g.file);
        const why = text === undefined ? "file missing" : checkGoldSpan(text, g);
        if (why) problems.push(`${q.id} ${g.file} ${g.symbol}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
    const cats = set.questions.map((q) => q.category);
    expect(cats.filter((c) => c === "unanswerable").length).toBeGreaterThanOrEqual(8);
  });

  it("is answered above the floor after indexing the fixture through the API", async () => {
    const client = new ApiClient({ baseUrl: "http://localhost", token: env.ADMIN_TOKEN, fetch: (url, init) => SELF.fetch(url, init) });
    const encoder = new TextEncoder();
    const indexed = await indexCorpus(
      client,
      "eval-fixture",
      files.map((f) => ({ path: f.path, bytes: encoder.encode(f.text) })),
      { pollMs: 50 },
    );
    expect(indexed.status.status).toBe("ready");
    expect((indexed.status.progress as { filesDone: number }).filesDone).toBeGreaterThanOrEqual(40);

    const { report, details } = await runRetrievalSet(client, set, "eval-fixture");
    const misses = details.filter((d) => d.category !== "unanswerable" && (d.rank === null || d.rank > 5)).map((d) => d.id);
    expect(report.overall.n).toBe(set.questions.filter((q) => q.category !== "unanswerable").length);
    expect(report.overall.recall5, `missed in top 5: ${misses.join(", ")}`).toBeGreaterThanOrEqual(FLOOR.recall5);
    expect(report.overall.mrr10).toBeGreaterThanOrEqual(FLOOR.mrr10);
    expect(report.byCategory.lexical!.recall5).toBeGreaterThanOrEqual(FLOOR.lexicalRecall5);
    expect(report.gate.refusedAnswerable).toBeLessThanOrEqual(FLOOR.wrongRefusalsMax);
  });
});
