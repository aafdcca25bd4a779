/// <reference types="vite/client" />
/**
 * CI gate for the language reader (issue 47): indexes the fixture corpus (evals/fixture-repo)
 * through the REST API inside workerd and asks the multilingual set's fixture questions
 * (evals/sets/multilingual/fixture.json) as written (Chinese, Japanese, Korean, Spanish,
 * Portuguese, German, French) and as their English originals. CI has no model provider, so this
 * is the offline (glossary) path. Floors are the measured values (README, "Evaluation") minus a
 * margin; the gap to English is held too, so a reader that stops mapping fails here.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiClient } from "./lib/client.ts";
import { indexCorpus } from "./lib/evaluate.ts";
import { checkGoldSpan } from "./lib/gold.ts";
import { multilingualMarkdown, pairedSummary, runMultilingualSet } from "./lib/multilingual.ts";
import { parseRetrievalSet } from "./lib/sets.ts";
import fixtureSet from "./sets/multilingual/fixture.json";

const raw = import.meta.glob<string>("./fixture-repo/**", { query: "?raw", import: "default", eager: true });
const files = Object.entries(raw).map(([key, text]) => ({ path: key.replace("./fixture-repo/", ""), text }));
const byPath = new Map(files.map((f) => [f.path, f.text]));
const set = parseRetrievalSet("fixture", fixtureSet);

/** Floors from the first measured run (translated R@5 0.813, English 0.938) minus a margin (README, "Evaluation"). */
const FLOOR = { translatedRecall5: 0.7, maxGapToEnglishRecall5: 0.25 };

describe("multilingual set on the fixture", () => {
  it("has gold ranges that exist and a translation of an English question in seven languages", () => {
    const problems: string[] = [];
    for (const q of set.questions) {
      if (!q.english || !q.lang) problems.push(`${q.id}: no english or lang`);
      for (const g of q.gold) {
        const text = byPath.get(g.file);
        const why = text === undefined ? "file missing" : checkGoldSpan(text, g);
        if (why) problems.push(`${q.id} ${g.file} ${g.symbol}: ${why}`);
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(set.questions.map((q) => q.lang))).toEqual(new Set(["zh", "ja", "ko", "es", "pt", "de", "fr"]));
  });

  it("finds the translated questions' code nearly as often as the English ones'", async () => {
    const client = new ApiClient({ baseUrl: "http://localhost", token: env.ADMIN_TOKEN, fetch: (url, init) => SELF.fetch(url, init) });
    const encoder = new TextEncoder();
    const indexed = await indexCorpus(
      client,
      "eval-ml-fixture",
      files.map((f) => ({ path: f.path, bytes: encoder.encode(f.text) })),
      { pollMs: 50 },
    );
    expect(indexed.status.status).toBe("ready");
    const pairs = await runMultilingualSet(client, set, "eval-ml-fixture");
    console.log(multilingualMarkdown(pairs));
    // Every translated question was read as its own language by the glossary (no provider in CI).
    expect(pairs.map((p) => [p.translated.id, p.reading?.detected, p.reading?.via])).toEqual(set.questions.map((q) => [q.id, q.lang, "glossary"]));
    const s = pairedSummary(pairs);
    const misses = pairs.filter((p) => (p.translated.rank ?? 99) > 5).map((p) => p.translated.id);
    expect(s.translated.recall5, `translated missed in top 5: ${misses.join(", ")}`).toBeGreaterThanOrEqual(FLOOR.translatedRecall5);
    expect(s.english.recall5 - s.translated.recall5).toBeLessThanOrEqual(FLOOR.maxGapToEnglishRecall5);
  });
});
