/**
 * The vector index of each shard (indexes.ts) with Vectorize: one fake index per shard, each
 * refusing what Vectorize refuses (vectorize-fake.ts). A repo's vectors written through shard
 * n's store are found through shard n's store only; with one shared `VECTORIZE` every shard
 * finds them. The local store's routing (shard n's `local_vectors`) is tested in workerd
 * (test/worker/vector-shards.test.ts).
 */
import { describe, expect, it } from "vitest";
import { sameVectorIndex, shardVectorStore, vectorIndexName, vectorIndexSize, vectorizeBindings, type VectorIndexEnv } from "./indexes";
import { FakeVectorize } from "./vectorize-fake";

const DIMS = 4;
const d1 = () => ({ prepare: () => undefined }) as unknown as D1Database;
const vectorize = { vectorStore: "vectorize", embeddingDimensions: DIMS } as const;
const local = { vectorStore: "local", embeddingDimensions: DIMS } as const;

function shardedEnv(extra: Record<string, unknown> = {}): VectorIndexEnv & Record<string, unknown> {
  return { DB: d1(), SHARD_0: d1(), SHARD_1: d1(), SHARD_2: d1(), SHARD_BINDINGS: "SHARD_0,SHARD_1,SHARD_2", ...extra };
}

const record = (id: string, x: number) => ({ id, vector: Float32Array.from([x, 1, 0, 0]), metadata: { path: `${id}.ts`, language: "typescript" } });

describe("vector index per shard", () => {
  it("keeps each shard's vectors in its own Vectorize index", async () => {
    const indexes = [new FakeVectorize(DIMS), new FakeVectorize(DIMS), new FakeVectorize(DIMS)];
    const env = shardedEnv({
      VECTORIZE_BINDINGS: "VECTORIZE,VECTORIZE_1,VECTORIZE_2",
      VECTORIZE: indexes[0],
      VECTORIZE_1: indexes[1],
      VECTORIZE_2: indexes[2],
    });
    expect([0, 1, 2].map((n) => vectorIndexName(env, vectorize, n))).toEqual(["VECTORIZE", "VECTORIZE_1", "VECTORIZE_2"]);
    await shardVectorStore(env, vectorize, 1).upsert("repo-a", [record("a1", 1), record("a2", 0.5)]);
    await shardVectorStore(env, vectorize, 2).upsert("repo-b", [record("b1", 1)]);
    expect(indexes.map((i) => i.calls.filter((c) => c.method === "upsert").length)).toEqual([0, 1, 1]);
    const q = Float32Array.from([1, 1, 0, 0]);
    expect((await shardVectorStore(env, vectorize, 1).query("repo-a", q, 10)).map((m) => m.id)).toEqual(["a1", "a2"]);
    expect(await shardVectorStore(env, vectorize, 0).query("repo-a", q, 10)).toEqual([]);
    expect(await shardVectorStore(env, vectorize, 2).query("repo-a", q, 10)).toEqual([]);
    expect((await shardVectorStore(env, vectorize, 2).query("repo-b", q, 10)).map((m) => m.id)).toEqual(["b1"]);
    await shardVectorStore(env, vectorize, 1).delete("repo-a", ["a1"]);
    expect((await shardVectorStore(env, vectorize, 1).query("repo-a", q, 10)).map((m) => m.id)).toEqual(["a2"]);
    expect(sameVectorIndex(env, vectorize, 1, 2)).toBe(false);
    expect(await Promise.all([0, 1, 2].map((n) => vectorIndexSize(env, vectorize, n)))).toEqual([0, 1, 1]);
  });

  it("shares the one VECTORIZE index across shards when VECTORIZE_BINDINGS is unset", async () => {
    const shared = new FakeVectorize(DIMS);
    const env = shardedEnv({ VECTORIZE: shared });
    expect(vectorizeBindings(env)).toEqual(["VECTORIZE", "VECTORIZE", "VECTORIZE"]);
    await shardVectorStore(env, vectorize, 0).upsert("repo-a", [record("a1", 1)]);
    expect((await shardVectorStore(env, vectorize, 2).query("repo-a", Float32Array.from([1, 0, 0, 0]), 5)).map((m) => m.id)).toEqual(["a1"]);
    expect(sameVectorIndex(env, vectorize, 0, 2)).toBe(true);
    expect(await Promise.all([0, 1, 2].map((n) => vectorIndexSize(env, vectorize, n)))).toEqual([1, 1, 1]);
  });

  it("names the local index after its shard's D1 binding", () => {
    const env = shardedEnv();
    expect([0, 1, 2].map((n) => vectorIndexName(env, local, n))).toEqual(["SHARD_0", "SHARD_1", "SHARD_2"]);
    expect(sameVectorIndex(env, local, 0, 1)).toBe(false);
    expect(vectorIndexName({ DB: d1() }, local, 0)).toBe("DB");
  });

  it("refuses a binding list that does not match the shards, a missing binding and a shard that does not exist", () => {
    const short = shardedEnv({ VECTORIZE_BINDINGS: "VECTORIZE,VECTORIZE_1", VECTORIZE: new FakeVectorize(DIMS), VECTORIZE_1: new FakeVectorize(DIMS) });
    expect(() => shardVectorStore(short, vectorize, 0)).toThrow(/VECTORIZE_BINDINGS names 2 Vectorize indexes for 3 shards/);
    const missing = shardedEnv({
      VECTORIZE_BINDINGS: "VECTORIZE,VECTORIZE_1,VECTORIZE_2",
      VECTORIZE: new FakeVectorize(DIMS),
      VECTORIZE_1: new FakeVectorize(DIMS),
    });
    expect(() => shardVectorStore(missing, vectorize, 1)).not.toThrow();
    expect(() => shardVectorStore(missing, vectorize, 2)).toThrow(
      /"VECTORIZE_2", which is not a Vectorize binding: add \[\[vectorize\]\] binding = "VECTORIZE_2"/,
    );
    expect(() => shardVectorStore(shardedEnv(), vectorize, 0)).toThrow(/VECTOR_STORE=vectorize needs the VECTORIZE binding/);
    expect(() => shardVectorStore(shardedEnv(), local, 3)).toThrow(RangeError);
  });
});
