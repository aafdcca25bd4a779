import { describe, expect, it } from "vitest";
import { applyQualifiedPrior } from "./qualified-prior";
import { QUALIFIED_PRIOR } from "./ranking/weights";
import { qualifiedNames } from "./query";

describe("applyQualifiedPrior", () => {
  const candidates = [
    { id: "bench", symbol: "GsonSkipParser", container: "ParseBenchmark", score: 1 },
    { id: "tree", symbol: "skipValue", container: "JsonTreeReader", score: 0.9 },
    { id: "reader", symbol: "skipValue", container: "com.google.gson.stream.JsonReader", score: 0.6 },
  ];

  it("lifts the definition of the member in the container the question names", () => {
    const out = applyQualifiedPrior(candidates, qualifiedNames("how does JsonReader.skipValue skip nested arrays"));
    expect(out.map((c) => [c.id, c.score])).toEqual([
      ["reader", 0.6 * QUALIFIED_PRIOR],
      ["bench", 1],
      ["tree", 0.9],
    ]);
  });

  it("matches the member's case exactly and the container's loosely, and leaves the rest alone", () => {
    expect(applyQualifiedPrior(candidates, qualifiedNames("jsonreader.skipValue"))[0].id).toBe("reader");
    expect(applyQualifiedPrior(candidates, qualifiedNames("JsonReader.skipvalue"))).toEqual(candidates);
    expect(applyQualifiedPrior(candidates, [])).toBe(candidates);
  });

  it("lifts a member and its container named apart, not a constructor named after its class", () => {
    expect(applyQualifiedPrior(candidates, [], ["JsonReader", "skipValue"])[0].id).toBe("reader");
    const ctor = [
      { id: "other", symbol: "x", container: null, score: 1 },
      { id: "ctor", symbol: "JsonReader", container: "JsonReader", score: 0.9 },
    ];
    expect(applyQualifiedPrior(ctor, [], ["JsonReader", "skipValue"])).toEqual(ctor);
  });

  it("takes a qualified name as the whole address: its parts do not count apart", () => {
    const ruby = [
      { id: "compile", symbol: "compile", container: "Base", score: 1 },
      { id: "bang", symbol: "compile!", container: "Base", score: 0.9 },
    ];
    const out = applyQualifiedPrior(ruby, qualifiedNames("Base#compile!"), ["Base", "compile", "compile!"]);
    expect(out.map((c) => c.id)).toEqual(["bang", "compile"]);
  });
});
