import { describe, expect, it } from "vitest";
import { confidenceGate } from "./gate";
import { GATE_THRESHOLDS } from "./ranking/weights";

const t = { ...GATE_THRESHOLDS, minTermCoverage: 0.5, minVectorScore: 0.3, minWeightedCoverage: 0, minBestChunkCoverage: 0, maxAgreementRank: 0 };

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
