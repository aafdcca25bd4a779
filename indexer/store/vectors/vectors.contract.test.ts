import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../../embed/local";
import type { VectorRecord, VectorStore } from "../contract";
import { LocalVectorStore } from "./local";
import { FakeVectorize } from "./vectorize-fake";
import { VectorizeVectorStore } from "./vectorize";

const DIMS = 64;
const rec = (id: string, text: string): VectorRecord => ({
  id,
  vector: hashEmbed(text, "document", DIMS),
  metadata: { path: `${id}.ts`, language: "typescript" },
});

// One suite, run against every VectorStore implementation.
const stores: [string, () => VectorStore][] = [
  ["local (D1)", () => new LocalVectorStore(env.DB, DIMS)],
  ["vectorize (fake binding)", () => new VectorizeVectorStore(new FakeVectorize(DIMS))],
];

describe.each(stores)("VectorStore contract: %s", (name, make) => {
  const repo = `vs-${name.split(" ")[0]}`;

  it("returns nearest neighbours by cosine, best first, within the repo only", async () => {
    const store = make();
    await store.upsert(repo, [rec("a", "parse cookie header value"), rec("b", "router match path params"), rec("c", "serialize cookie options")]);
    await store.upsert(`${repo}-other`, [rec("z", "parse cookie header value")]);
    const res = await store.query(repo, hashEmbed("parse cookie", "query", DIMS), 2);
    expect(res.map((m) => m.id)).toEqual(["a", "c"]);
    expect(res[0].score).toBeGreaterThan(res[1].score);
    expect(res[0].score).toBeLessThanOrEqual(1.0001);
  });

  it("upsert replaces a vector with the same id, delete removes it", async () => {
    const store = make();
    const r = `${repo}-u`;
    await store.upsert(r, [rec("a", "alpha beta"), rec("b", "gamma delta")]);
    await store.upsert(r, [rec("a", "gamma delta epsilon")]);
    expect((await store.query(r, hashEmbed("alpha beta", "query", DIMS), 5)).find((m) => m.id === "a")!.score).toBeLessThan(0.5);
    await store.delete(r, ["b"]);
    expect((await store.query(r, hashEmbed("gamma delta", "query", DIMS), 5)).map((m) => m.id)).toEqual(["a"]);
  });

  it("accepts more records than one platform call takes (batches of <= 1000)", async () => {
    const store = make();
    const r = `${repo}-big`;
    const many = Array.from({ length: 1205 }, (_, i) => rec(`id-${i}`, `token${i} shared`));
    await store.upsert(r, many);
    const res = await store.query(r, hashEmbed("token1204", "query", DIMS), 100);
    expect(res).toHaveLength(100);
    expect(res[0].id).toBe("id-1204");
    await store.delete(
      r,
      many.map((m) => m.id),
    );
    expect(await store.query(r, hashEmbed("token1204", "query", DIMS), 10)).toEqual([]);
  });

  it("rejects vectors of the wrong dimension", async () => {
    const store = make();
    await expect(store.upsert(`${repo}-d`, [{ id: "x", vector: new Float32Array(DIMS + 1), metadata: { path: "x", language: "text" } }])).rejects.toThrow(
      /dimension/,
    );
  });
});

describe("VectorizeVectorStore against the fake binding's limits", () => {
  it("splits upserts at 1000, caps topK at 100 without metadata, rejects ids over 64 bytes", async () => {
    const fake = new FakeVectorize(DIMS);
    const store = new VectorizeVectorStore(fake);
    await store.upsert(
      "r",
      Array.from({ length: 2001 }, (_, i) => rec(`v${i}`, `w${i}`)),
    );
    expect(fake.calls.filter((c) => c.method === "upsert").map((c) => c.size)).toEqual([1000, 1000, 1]);
    await store.query("r", hashEmbed("w1", "query", DIMS), 500);
    expect(fake.calls.at(-1)).toEqual({ method: "query", size: 100 });
    await expect(store.upsert("r", [rec("x".repeat(65), "t")])).rejects.toThrow(/64 bytes/);
    // The fake itself refuses what Vectorize refuses, so the store's batching is what keeps it working.
    await expect(fake.upsert(Array.from({ length: 1001 }, (_, i) => ({ id: `q${i}`, values: new Array(DIMS).fill(0.1) })))).rejects.toThrow(/max 1000/);
    await expect(fake.query(new Array(DIMS).fill(0.1), { topK: 21, returnMetadata: "all" })).rejects.toThrow(/topK/);
  });
});

describe("LocalVectorStore cache", () => {
  it("serves the cached matrix for an active snapshot and drops it on its own writes", async () => {
    const repo = "vs-cache";
    const now = Date.now();
    await env.DB.prepare(
      "INSERT INTO repos (id, name, source_kind, status, active_commit, active_indexed_at, created_at, updated_at) VALUES (?, ?, 'archive', 'ready', 'c1', ?, ?, ?)",
    )
      .bind(repo, repo, now, now, now)
      .run();
    const store = new LocalVectorStore(env.DB, DIMS);
    await store.upsert(repo, [rec("a", "alpha")]);
    expect((await store.query(repo, hashEmbed("alpha", "query", DIMS), 5)).map((m) => m.id)).toEqual(["a"]);
    // A row written behind the store's back (another isolate) is not seen until the snapshot flips...
    const other = new LocalVectorStore(env.DB, DIMS);
    await env.DB.prepare("INSERT INTO local_vectors (repo, id, vector) VALUES (?, 'b', ?)")
      .bind(repo, new Uint8Array(hashEmbed("alpha beta", "document", DIMS).buffer))
      .run();
    expect((await other.query(repo, hashEmbed("alpha", "query", DIMS), 5)).map((m) => m.id)).toEqual(["a"]);
    // ...and is seen once the active snapshot changes.
    await env.DB.prepare("UPDATE repos SET active_commit = 'c2', active_indexed_at = ? WHERE id = ?")
      .bind(now + 1, repo)
      .run();
    expect((await other.query(repo, hashEmbed("alpha", "query", DIMS), 5)).map((m) => m.id).sort()).toEqual(["a", "b"]);
  });
});
