import { describe, expect, it } from "vitest";
import { channelLines, stageLines } from "./why-words";

describe("why this result, in words", () => {
  it("names the channels best rank first", () => {
    expect(channelLines({ vector: 4, bm25: 2 })).toEqual([
      "Found by its words (keyword match) at rank 2.",
      "Found by its meaning (embedding match) at rank 4.",
    ]);
    expect(channelLines({})).toEqual(["No search channel ranked it; a ranking stage brought it in."]);
  });

  it("says what each stage that changed the score saw, not a raw record", () => {
    const lines = stageLines([
      { stage: "coverage", factor: 2 },
      { stage: "support", factor: 1 },
      { stage: "imports", factor: 0.5 },
      { stage: "new-stage", factor: 1.5 },
    ]);
    expect(lines).toEqual([
      "Raised ×2: it holds many of the query's words (stage “coverage”).",
      "Lowered ×0.5: it only imports names, and the question is about behaviour (stage “imports”).",
      "Raised ×1.5: a ranking stage favoured it (stage “new-stage”).",
    ]);
    for (const l of lines) expect(l).not.toMatch(/stages 0|factor \d/);
    expect(stageLines([{ stage: "coverage", factor: 1 }])).toEqual(["No ranking stage changed its score."]);
  });
});
