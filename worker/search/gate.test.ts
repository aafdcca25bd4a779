import { describe, expect, it } from "vitest";
import { absentNames, bestChunkCoverage, channelAgreement, confidenceGate } from "./gate";
import { GATE_THRESHOLDS } from "./ranking/weights";

const t = { ...GATE_THRESHOLDS, minTermCoverage: 0.5, minVectorScore: 0.3, minWeightedCoverage: 0, maxAgreementRank: Infinity };

describe("confidenceGate", () => {
  it("is high when the results contain the query terms", () => {
    const c = confidenceGate({
      terms: ["parse", "cookie"],
      resultTexts: ["src/cookie.ts parseCookie const parseCookie = ..."],
      bestVectorScore: 0.1,
      thresholds: t,
    });
    expect(c).toMatchObject({ level: "high", termCoverage: 1, missingTerms: [] });
  });
  it("is high on strong vector evidence even when terms are missing", () => {
    const c = confidenceGate({ terms: ["lock", "router"], resultTexts: ["class SmartRouter"], bestVectorScore: 0.8, thresholds: t });
    expect(c.level).toBe("high");
    expect(c.missingTerms).toEqual(["lock"]);
  });
  it("is low when both signals are weak, naming the missing terms", () => {
    const c = confidenceGate({ terms: ["kubernetes", "helm", "router"], resultTexts: ["class SmartRouter"], bestVectorScore: 0.1, thresholds: t });
    expect(c.level).toBe("low");
    expect(c.termCoverage).toBeCloseTo(1 / 3, 3);
    expect(c.missingTerms).toEqual(["kubernetes", "helm", "router"].filter((x) => x !== "router"));
    expect(c.reason).toMatch(/kubernetes, helm/);
  });
  it("is low without results and without vector evidence", () => {
    expect(confidenceGate({ terms: ["x"], resultTexts: [], bestVectorScore: null }).level).toBe("low");
    expect(confidenceGate({ terms: ["a", "b", "c"], resultTexts: ["a"], bestVectorScore: null, thresholds: t }).reason).toMatch(/no vector evidence/);
  });
  it("is low at term coverage 0 with a lexical embedder, whatever the similarity", () => {
    const input = { terms: ["zxqvbn", "florp"], resultTexts: ["class SmartRouter"], bestVectorScore: 0.8, thresholds: t };
    expect(confidenceGate(input).level).toBe("high"); // a semantic embedder's similarity still counts
    const c = confidenceGate({ ...input, lexicalVectors: true });
    expect(c).toMatchObject({ level: "low", termCoverage: 0, missingTerms: ["zxqvbn", "florp"] });
    expect(c.reason).toMatch(/^Term coverage 0: no query term occurs in the results; missing terms: zxqvbn, florp/);
    // One query term present: the vector evidence counts again.
    expect(confidenceGate({ ...input, terms: ["zxqvbn", "router"], lexicalVectors: true }).level).toBe("high");
  });
  it("uses the caller's token sets instead of tokenizing the texts", () => {
    const c = confidenceGate({
      terms: ["parse", "cookie"],
      resultTexts: ["(not tokenized)"],
      resultTokens: [new Set(["parse", "cookie"])],
      bestVectorScore: null,
      thresholds: t,
    });
    expect(c).toMatchObject({ level: "high", termCoverage: 1 });
  });
  it("has thresholds in range", () => {
    expect(GATE_THRESHOLDS.minTermCoverage).toBeGreaterThan(0);
    expect(GATE_THRESHOLDS.minTermCoverage).toBeLessThanOrEqual(1);
  });
});

describe("IDF-weighted coverage", () => {
  const df = new Map([
    ["cache", 40],
    ["middleware", 300],
    ["store", 120],
  ]);
  const thresholds = { ...GATE_THRESHOLDS, minWeightedCoverage: 0.6 };
  it("is low with a lexical embedder when the informative word is absent from the index", () => {
    const c = confidenceGate({
      terms: ["cache", "middleware", "store", "redis"],
      resultTexts: ["src/middleware/cache/index.ts cache middleware store"],
      bestVectorScore: 0.45,
      lexicalVectors: true,
      df,
      totalDocs: 2500,
      thresholds,
    });
    expect(c.termCoverage).toBe(0.75);
    expect(c.level).toBe("low");
    expect(c.reason).toMatch(/IDF-weighted term coverage 0\.\d+ < 0\.6.*redis/);
  });
  it("stays high when only a common word is missing", () => {
    const c = confidenceGate({
      terms: ["cache", "store", "middleware"],
      resultTexts: ["src/cache.ts cache store"],
      bestVectorScore: 0.45,
      lexicalVectors: true,
      df,
      totalDocs: 2500,
      thresholds,
    });
    expect(c.level).toBe("high");
    expect(c.reason).toMatch(/IDF-weighted 0\.\d+/);
  });
  it("does not apply to a semantic embedder", () => {
    const c = confidenceGate({
      terms: ["cache", "redis"],
      resultTexts: ["cache"],
      bestVectorScore: 0.45,
      lexicalVectors: false,
      df,
      totalDocs: 2500,
      thresholds,
    });
    expect(c.level).toBe("high");
  });
});

describe("signals: evidence together in one result, and the channels' agreement", () => {
  const df = new Map([
    ["session", 5],
    ["cookie", 20],
    ["signed", 10],
    ["middleware", 300],
  ]);
  const terms = ["session", "cookie", "signed", "middleware"];
  // Each informative word in another file: the words are found, apart.
  const scattered = ["src/a.ts session middleware", "src/b.ts cookie middleware", "src/c.ts signed middleware"];
  const thresholds = { ...GATE_THRESHOLDS, minWeightedCoverage: 0, disagreementMinCoverage: 0.45, maxAgreementRank: 10 };
  const base = { terms, bestVectorScore: 0.4, lexicalVectors: true, df, totalDocs: 2500, thresholds };

  it("bestChunkCoverage is the best single result's IDF-weighted share", () => {
    const sets = scattered.map((t) => new Set(t.split(/[\s/.]+/)));
    const best = bestChunkCoverage(terms, sets, df, 2500)!;
    expect(best).toBeGreaterThan(0);
    expect(best).toBeLessThan(0.5);
    expect(bestChunkCoverage(terms, [new Set(terms)], df, 2500)).toBe(1);
    expect(bestChunkCoverage(terms, sets, undefined, undefined)).toBeNull();
  });
  it("channelAgreement is the best rank both channels give one of the first results", () => {
    expect(channelAgreement([{ bm25: 1 }, { bm25: 3, vector: 7 }, { vector: 1, bm25: 12 }], 3)).toBe(7);
    expect(channelAgreement([{ bm25: 1 }, { vector: 2 }], 3)).toBeNull();
    expect(
      channelAgreement(
        [
          { bm25: 9, vector: 9 },
          { bm25: 1, vector: 1 },
        ],
        1,
      ),
    ).toBe(9);
  });
  it("is low when the words are found but the channels agree on no first result", () => {
    const c = confidenceGate({ ...base, resultTexts: scattered, resultRanks: [{ bm25: 1 }, { vector: 1 }, { bm25: 20, vector: 30 }] });
    expect(c.termCoverage).toBe(1);
    expect(c.level).toBe("low");
    expect(c.reason).toMatch(/^The channels disagree: .* ranked within 10 by both .*the best agree only at rank 30/);
    expect(c.signals).toMatchObject({ weightedCoverage: 1, channelAgreement: 30 });
    expect(c.signals!.bestChunkCoverage).toBeLessThan(0.5);
    expect(confidenceGate({ ...base, resultTexts: scattered, resultRanks: [{ bm25: 1 }, { vector: 1 }] }).reason).toMatch(/none of them is found by both/);
  });
  it("stays high when both channels rank a first result high, or the words are not found (a paraphrase)", () => {
    expect(confidenceGate({ ...base, resultTexts: scattered, resultRanks: [{ bm25: 2, vector: 4 }] }).level).toBe("high");
    const paraphrase = confidenceGate({ ...base, bestVectorScore: 0.45, resultTexts: ["src/a.ts middleware"], resultRanks: [{ bm25: 1 }, { vector: 1 }] });
    expect(paraphrase.signals!.weightedCoverage).toBeLessThan(0.45);
    expect(paraphrase.reason).not.toMatch(/channels disagree/);
  });
  it("does not apply when a first result is named by the query or the repo (an anchor, a declared entry)", () => {
    const input = { ...base, resultTexts: scattered, resultRanks: [{}, { vector: 1 }] };
    expect(confidenceGate(input).level).toBe("low");
    expect(confidenceGate({ ...input, resultNamed: [true, false] }).level).toBe("high");
  });
  it("does not apply to a pasted report, a semantic embedder or a search without the vector channel", () => {
    const input = { ...base, resultTexts: scattered, resultRanks: [{ bm25: 1 }, { vector: 1 }] };
    expect(confidenceGate({ ...input, isReport: true }).level).toBe("high");
    expect(confidenceGate({ ...input, lexicalVectors: false }).level).toBe("high");
    expect(confidenceGate({ ...input, bestVectorScore: null, resultRanks: [{ bm25: 1 }, { bm25: 2 }] }).level).toBe("high");
  });
});

describe("entry-point questions", () => {
  const input = {
    terms: ["main", "entry", "point"],
    resultTexts: ["build/build.ts entryPoints main entry point", "src/index.ts main"],
    bestVectorScore: 0.4,
    thresholds: t,
  };
  it("is low when a build script leads and no top result is a declared entry", () => {
    const c = confidenceGate({ ...input, entryQuestion: true, resultPaths: ["build/build.ts", "src/index.ts"], resultIsEntry: [false, false] });
    expect(c.level).toBe("low");
    expect(c.reason).toMatch(/top result \(build\/build\.ts\) is a build or tooling script/);
  });
  it("is high when an entry is among the first results, or the question does not ask for one", () => {
    expect(confidenceGate({ ...input, entryQuestion: true, resultPaths: ["build/build.ts", "src/index.ts"], resultIsEntry: [false, true] }).level).toBe("high");
    expect(confidenceGate({ ...input, entryQuestion: false, resultPaths: ["build/build.ts", "src/index.ts"], resultIsEntry: [false, false] }).level).toBe(
      "high",
    );
  });
});

describe("absent names", () => {
  // A real question of hono's kind, with the real word lists: "cache", "middleware" and "store"
  // occur in the repo, "backed" is English, "redis" is neither.
  const df = new Map([
    ["cache", 40],
    ["middleware", 300],
    ["store", 25],
  ]);
  const question = ["cache", "middleware", "backed", "redis", "store"];
  const results = ["src/middleware/cache/index.ts export const cache = (options) => { const store = caches.open(name) }"];

  it("names the terms no snapshot holds that are not English", () => {
    expect(absentNames(question, df)).toEqual(["redis"]);
    // An English word absent from the repo is the asker's wording, not a missing thing.
    expect(absentNames(["router", "postpone", "compiling"], new Map([["router", 9]]))).toEqual([]);
    // Digits and short parts say too little (`s3`, `404s`, GraphQL's `ql`).
    expect(absentNames(["graph", "schema", "s3", "404s", "ql"], new Map([["graph", 3]]))).toEqual([]);
  });

  it("makes a question that names an absent thing low, whatever the embedder", () => {
    const input = { terms: question, resultTexts: results, bestVectorScore: 0.8, df, totalDocs: 1000, thresholds: t, functionWords: 3 };
    const c = confidenceGate(input);
    expect(c.level).toBe("low");
    expect(c.reason).toBe(
      'The question names "redis", which no indexed file of the searched repos contains (nor a word of the same stem): what it asks about is likely not there.',
    );
    // A pasted report's absent words are its own names (variables, paths): the rule does not read them.
    expect(confidenceGate({ ...input, isReport: true }).level).toBe("high");
    // Keywords without English function words, or a question in another language: the rule is off.
    expect(confidenceGate({ ...input, functionWords: 1 }).level).toBe("high");
    // Present in the repo: nothing is absent.
    expect(confidenceGate({ ...input, df: new Map([...df, ["redis", 2]]) }).level).toBe("high");
  });
});
