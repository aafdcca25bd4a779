import { describe, expect, it } from "vitest";
import { capPerFile, reciprocalRankFusion, RRF_K } from "./fuse";
import type { ChannelResult } from "./types";

const ch = (channel: ChannelResult["channel"], ids: string[]): ChannelResult => ({ channel, hits: ids.map((chunkId, i) => ({ chunkId, score: 100 - i })) });

describe("reciprocalRankFusion", () => {
  // Table: channel lists -> expected fused order and scores (1/(60+rank) summed).
  const table: { name: string; channels: ChannelResult[]; order: string[]; scores: Record<string, number> }[] = [
    {
      name: "agreement beats a single first place",
      channels: [ch("bm25", ["a", "b", "c"]), ch("vector", ["b", "a", "d"]), ch("symbol", ["b"])],
      order: ["b", "a", "c", "d"],
      scores: { b: 1 / 62 + 1 / 61 + 1 / 61, a: 1 / 61 + 1 / 62, c: 1 / 63, d: 1 / 63 },
    },
    {
      name: "one channel keeps its order",
      channels: [ch("bm25", ["x", "y", "z"])],
      order: ["x", "y", "z"],
      scores: { x: 1 / 61, y: 1 / 62, z: 1 / 63 },
    },
    {
      name: "duplicates within a channel count once, at their best rank",
      channels: [ch("path", ["p", "p", "q"])],
      order: ["p", "q"],
      scores: { p: 1 / 61, q: 1 / 62 },
    },
    { name: "no channels, no hits", channels: [], order: [], scores: {} },
  ];
  for (const row of table) {
    it(row.name, () => {
      const fused = reciprocalRankFusion(row.channels);
      expect(fused.map((f) => f.chunkId)).toEqual(row.order);
      for (const f of fused) expect(f.score).toBeCloseTo(row.scores[f.chunkId], 12);
    });
  }

  it("records the 1-based rank per channel and uses k = 60", () => {
    expect(RRF_K).toBe(60);
    const [b] = reciprocalRankFusion([ch("bm25", ["a", "b"]), ch("vector", ["b"])]);
    expect(b).toMatchObject({ chunkId: "b", ranks: { bm25: 2, vector: 1 } });
  });

  it("breaks score ties by the number of channels, then deterministically", () => {
    // a: rank 1 in bm25 only; b: rank 1 in vector only -> same score, order by id.
    expect(reciprocalRankFusion([ch("bm25", ["b"]), ch("vector", ["a"])]).map((f) => f.chunkId)).toEqual(["a", "b"]);
  });
});

describe("capPerFile", () => {
  const items = ["f1:a", "f1:b", "f2:a", "f1:c", "f2:b", "f2:c", "f3:a"];
  const file = (s: string) => s.split(":")[0];
  it("keeps at most `cap` items per file, in order", () => {
    expect(capPerFile(items, 2, file)).toEqual(["f1:a", "f1:b", "f2:a", "f2:b", "f3:a"]);
    expect(capPerFile(items, 1, file)).toEqual(["f1:a", "f2:a", "f3:a"]);
  });
  it("is disabled by a cap of 0", () => {
    expect(capPerFile(items, 0, file)).toEqual(items);
  });
});
