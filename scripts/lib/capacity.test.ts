import { describe, expect, it } from "vitest";
import { bindingLimits, plan, scaleOutLimits, type Assumptions, type Measured } from "./capacity.ts";

const measured: Measured = { d1BytesPerSourceByte: 4, vectorsPerSourceByte: 1e-3, rowsWrittenPerSourceByte: 0.01, provenance: "test" };
const assumptions: Assumptions = {
  searchesPerRepoPerDay: 10,
  rowsReadPerSearch: 1_000,
  monthlyChurn: 0.1,
  bytesPerToken: 4,
  filesPerBatch: 8,
  bytesPerFile: 8_000,
  shardHighWaterBytes: 8e9,
  dimensions: 1024,
  otherBindings: 50,
};

describe("capacity model", () => {
  it("fills shards to the high-water mark, each with its own vector index", () => {
    const p = plan({ repos: 1_000, sourceBytes: 20e9 }, measured, assumptions);
    expect(p.d1Bytes).toBe(80e9);
    expect(p.shards).toBe(10);
    expect(p.vectors).toBe(20e6);
    expect(p.vectorIndexes).toBe(10);
    expect(p.vectorsPerIndex).toBe(2e6);
    expect(p.reposPerIndex).toBe(100);
    expect(p.nextLimit?.limit).toBe("D1 storage per account (1 TB)");
    expect(p.nextLimit?.sourceBytes).toBe(250e9);
    expect(p.coldIndexQueueMessages).toBe(Math.ceil(20e9 / 8_000 / 8));
  });

  it("prices D1 storage above the included 5 GB at $0.75 per GB-month", () => {
    const p = plan({ repos: 10, sourceBytes: 2.5e9 }, measured, assumptions);
    expect(p.monthlyUsd.d1Storage).toBeCloseTo(((10e9 - 5e9) / 1e9) * 0.75, 6);
    expect(p.monthlyUsd.total).toBeCloseTo(
      Object.entries(p.monthlyUsd)
        .filter(([k]) => k !== "total")
        .reduce((s, [, v]) => s + v, 0),
      6,
    );
  });

  it("charges nothing beyond the base fee inside the included allowances", () => {
    const p = plan({ repos: 1, sourceBytes: 1e6 }, measured, assumptions);
    expect(p.monthlyUsd.d1Storage + p.monthlyUsd.d1Writes + p.monthlyUsd.d1Reads + p.monthlyUsd.vectorize + p.monthlyUsd.queues).toBe(0);
    expect(p.monthlyUsd.workers).toBe(5);
  });

  it("adds shards when a shard's vector index would pass 10M vectors or 50,000 namespaces before its D1 fills", () => {
    const dense = { ...measured, vectorsPerSourceByte: 0.01 };
    const p = plan({ repos: 1_000, sourceBytes: 20e9 }, dense, assumptions);
    expect(p.shards).toBe(20);
    expect(p.vectorsPerIndex).toBe(10e6);
    expect(plan({ repos: 600_000, sourceBytes: 20e9 }, measured, assumptions).shards).toBe(12);
    const limits = scaleOutLimits(dense, assumptions);
    expect(limits[0]).toMatchObject({ limit: "vectors per index (10,000,000), a shard's own index", sourceBytes: 2e9 });
    expect(scaleOutLimits(measured, assumptions).map((b) => b.limit)).toEqual([
      "D1 storage per account (1 TB)",
      "bindings per Worker (~5,000; 2 per shard, 50 others)",
      "D1 databases per account (50,000)",
      "Vectorize indexes per account (50,000)",
      "vectors per index (10,000,000), a shard's own index",
    ]);
  });

  it("orders the limits by the source size at which each binds", () => {
    const b = bindingLimits(measured, assumptions);
    expect(b.map((x) => x.limit)).toEqual([
      "one D1 shard at the high-water mark",
      "one D1 database (10 GB)",
      "one Vectorize index shared by every shard (10,000,000 vectors)",
      "D1 storage per account (1 TB)",
    ]);
    expect(b[0].sourceBytes).toBe(2e9);
    expect(b[2].sourceBytes).toBe(10e9);
  });
});
