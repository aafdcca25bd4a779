import { describe, expect, it } from "vitest";
import { coverage, rerankByCoverage, type RerankCandidate } from "./rerank";

const cand = (chunkId: string, score: number, content: string, kind = "function", symbol: string | null = null): RerankCandidate => ({
  chunkId,
  score,
  path: `src/${chunkId}.ts`,
  kind,
  symbol,
  container: null,
  content,
});

describe("coverage", () => {
  const df = new Map([
    ["timer", 2],
    ["race", 3],
    ["handler", 40],
  ]);
  it("weights terms by IDF and matches stems", () => {
    const both = coverage(cand("a", 0, "race the handlers against timers"), ["timer", "race", "handler"], df, 100);
    const rare = coverage(cand("b", 0, "const timer = 1"), ["timer", "race", "handler"], df, 100);
    const common = coverage(cand("c", 0, "handler handler handler"), ["timer", "race", "handler"], df, 100);
    expect(both).toBeCloseTo(1);
    expect(rare).toBeGreaterThan(common);
  });
  it("discounts chunks without a definition", () => {
    const def = coverage(cand("a", 0, "timer race"), ["timer", "race"], df, 100);
    const mod = coverage(cand("a", 0, "timer race", "module"), ["timer", "race"], df, 100);
    expect(mod).toBeLessThan(def);
    expect(mod).toBeGreaterThan(0);
  });
  it("discounts declarations (types, interfaces, enums, structs) more than module blocks", () => {
    const fn = coverage(cand("a", 0, "timer race"), ["timer", "race"], df, 100);
    const mod = coverage(cand("a", 0, "timer race", "module"), ["timer", "race"], df, 100);
    const decl = coverage(cand("a", 0, "timer race", "interface"), ["timer", "race"], df, 100);
    expect(coverage(cand("a", 0, "timer race", "struct"), ["timer", "race"], df, 100)).toBe(decl);
    // A struct with a method body in its chunk (C++, C#) is a class; one with only fields and
    // function pointers is data.
    const withMethod = "struct timer_race {\n  explicit timer_race(int n) noexcept : n_(n) {}\n  int n_;\n};";
    const withPointer = "struct timer_race {\n  void (*race)(void* arg, int n);\n  int n;\n};";
    expect(coverage(cand("a", 0, withMethod, "struct"), ["timer", "race"], df, 100)).toBe(fn);
    expect(coverage(cand("a", 0, withPointer, "struct"), ["timer", "race"], df, 100)).toBe(decl);
    expect(coverage(cand("a", 0, "public struct TimerRace\n{\n    public int Race() { return 1; }\n}", "struct"), ["timer", "race"], df, 100)).toBe(fn);
    expect(decl).toBeGreaterThan(0);
    expect(decl).toBeLessThan(mod);
    expect(mod).toBeLessThan(fn);
  });
});

describe("rerankByCoverage", () => {
  it("puts a function above a type with the same fused score and the same words", () => {
    const df = new Map([
      ["token", 5],
      ["claims", 3],
    ]);
    const out = rerankByCoverage(
      [cand("payload", 0.03, "token claims", "type"), cand("verify", 0.03, "token claims", "function")],
      ["token", "claims"],
      df,
      100,
    );
    expect(out.map((c) => c.chunkId)).toEqual(["verify", "payload"]);
  });
  it("lifts the candidate covering more of the query over a close fused neighbour", () => {
    const df = new Map([
      ["timer", 2],
      ["race", 3],
      ["reject", 3],
    ]);
    const out = rerankByCoverage(
      [cand("one", 0.03, "timer timer timer"), cand("two", 0.0299, "race a timer and reject")],
      ["timer", "race", "reject"],
      df,
      100,
    );
    expect(out.map((c) => c.chunkId)).toEqual(["two", "one"]);
    expect(out[0].score).toBeGreaterThan(0.0299);
  });
  it("keeps a clearly better fused candidate first", () => {
    const df = new Map([
      ["timer", 2],
      ["race", 3],
    ]);
    const out = rerankByCoverage([cand("one", 0.05, "timer"), cand("two", 0.01, "race timer")], ["timer", "race"], df, 100);
    expect(out[0].chunkId).toBe("one");
  });
  it("adds its term to a single candidate, so scores of several repos stay comparable", () => {
    const out = rerankByCoverage([cand("one", 0.02, "timer")], ["timer"], new Map([["timer", 1]]), 10);
    expect(out[0].score).toBeGreaterThan(0.02);
  });
  it("puts a changelog below code with the same words only for a bug report", () => {
    const df = new Map([
      ["timer", 2],
      ["race", 3],
    ]);
    const notes = { ...cand("notes", 0.03, "timer race"), path: "CHANGELOG.rst", kind: "window", language: "text" };
    const code = { ...cand("code", 0.025, "timer race"), language: "python" };
    expect(rerankByCoverage([notes, code], ["timer", "race"], df, 100)[0].chunkId).toBe("notes");
    expect(rerankByCoverage([notes, code], ["timer", "race"], df, 100, { report: true })[0].chunkId).toBe("code");
  });
});
