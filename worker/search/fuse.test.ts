import { describe, expect, it } from "vitest";
import { capPerFile, mergeChannelLists, reciprocalRankFusion } from "./fuse";
import { RRF_K } from "./ranking/weights";
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

describe("mergeChannelLists", () => {
  const scored = (channel: ChannelResult["channel"], hits: [string, number][]): ChannelResult => ({
    channel,
    hits: hits.map(([chunkId, score]) => ({ chunkId, score })),
  });

  it("ranks the union by channel score, so a weak repo's first hit is not first", () => {
    const strong = scored("bm25", [
      ["s1", 9],
      ["s2", 8],
      ["s3", 7],
    ]);
    const weak = scored("bm25", [["w1", 2]]);
    expect(mergeChannelLists([weak, strong], 30).hits.map((h) => h.chunkId)).toEqual(["s1", "s2", "s3", "w1"]);
    // Per-repo RRF would have given w1 the same score as s1; over the merged list it is last.
    const fused = reciprocalRankFusion([mergeChannelLists([weak, strong], 30)]);
    expect(fused.map((f) => f.chunkId)).toEqual(["s1", "s2", "s3", "w1"]);
    expect(fused[3].ranks).toEqual({ bm25: 4 });
  });

  it("interleaves equal scores by their rank in their own list, then by list order", () => {
    const a = scored("symbol", [
      ["a1", 3],
      ["a2", 3],
      ["a3", 1],
    ]);
    const b = scored("symbol", [
      ["b1", 3],
      ["b2", 2],
    ]);
    expect(mergeChannelLists([a, b], 30).hits.map((h) => h.chunkId)).toEqual(["a1", "b1", "a2", "b2", "a3"]);
  });

  it("cuts to the depth, drops repeated ids and keeps a single list unchanged", () => {
    const a = scored("vector", [
      ["x", 0.9],
      ["y", 0.5],
    ]);
    const b = scored("vector", [
      ["x", 0.8],
      ["z", 0.7],
    ]);
    expect(mergeChannelLists([a, b], 2).hits.map((h) => h.chunkId)).toEqual(["x", "z"]);
    const only = scored("path", [
      ["p", 1],
      ["q", 2],
    ]);
    expect(mergeChannelLists([only], 1)).toBe(only);
  });

  it("reports skipped only when every list was skipped", () => {
    const skipped: ChannelResult = { channel: "vector", hits: [], skipped: "model mismatch" };
    expect(mergeChannelLists([skipped, scored("vector", [["v", 0.4]])], 30)).toEqual({ channel: "vector", hits: [{ chunkId: "v", score: 0.4 }] });
    expect(mergeChannelLists([skipped, skipped], 30).skipped).toBe("model mismatch");
  });
});

describe("capPerFile", () => {
  const items = ["f1:a", "f1:b", "f2:a", "f1:c", "f2:b", "f2:c", "f3:a"];
  const file = (s: string) => s.split(":")[0];
  it("puts at most `cap` items per file first, the surplus after them, each in order", () => {
    expect(capPerFile(items, 2, file)).toEqual(["f1:a", "f1:b", "f2:a", "f2:b", "f3:a", "f1:c", "f2:c"]);
    expect(capPerFile(items, 1, file)).toEqual(["f1:a", "f2:a", "f3:a", "f1:b", "f1:c", "f2:b", "f2:c"]);
  });
  it("keeps an exempt item in place past the cap, without taking one of its file's places", () => {
    const exempt = (s: string) => s === "f1:c";
    expect(capPerFile(items, 2, file, exempt)).toEqual(["f1:a", "f1:b", "f2:a", "f1:c", "f2:b", "f3:a", "f2:c"]);
    expect(capPerFile(["f1:c", "f1:a", "f1:b", "f2:a"], 1, file, exempt)).toEqual(["f1:c", "f1:a", "f2:a", "f1:b"]);
    // Many exempt chunks of one file (a class split into chunks named as the query names it)
    // leave the file's places to its other chunks.
    const named = (s: string) => s.startsWith("f1:n");
    expect(capPerFile(["f1:n1", "f1:n2", "f1:n3", "f2:a", "f1:grow", "f1:x", "f1:y"], 2, file, named)).toEqual([
      "f1:n1",
      "f1:n2",
      "f1:n3",
      "f2:a",
      "f1:grow",
      "f1:x",
      "f1:y",
    ]);
    expect(capPerFile(["f1:n1", "f1:a", "f1:b", "f1:c", "f2:a"], 2, file, named)).toEqual(["f1:n1", "f1:a", "f1:b", "f2:a", "f1:c"]);
  });
  it("is disabled by a cap of 0", () => {
    expect(capPerFile(items, 0, file)).toEqual(items);
  });
});
