import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../../embed/local";
import { decodeHexVector, LocalVectorStore, sparseScores } from "./local";

const DIMS = 64;

/** The dense row-by-row dot product the sparse one must equal bit for bit. */
function denseScores(rows: Float32Array[], q: Float32Array): Float32Array {
  const out = new Float32Array(rows.length);
  rows.forEach((r, i) => {
    let s = 0;
    for (let j = 0; j < r.length; j++) s += r[j] * q[j];
    out[i] = s;
  });
  return out;
}

function columnMajor(rows: Float32Array[], dims: number): Float32Array {
  const n = rows.length;
  const columns = new Float32Array(n * dims);
  rows.forEach((r, i) => r.forEach((x, j) => (columns[j * n + i] = x)));
  return columns;
}

describe("sparseScores", () => {
  it("equals the dense dot product exactly, for sparse and dense queries", () => {
    const texts = ["parse cookie header value", "router match path params", "serialize cookie options", "stream server sent events", "jwt verify signature"];
    const rows = texts.map((t) => hashEmbed(t, "document", DIMS));
    const m = { ids: texts, dims: DIMS, columns: columnMajor(rows, DIMS) };
    const dense = new Float32Array(DIMS).map((_, j) => Math.sin(j + 1) / 4);
    for (const q of [hashEmbed("cookie", "query", DIMS), hashEmbed("parse the cookie header and verify the jwt signature", "query", DIMS), dense]) {
      expect([...sparseScores(m, q)]).toEqual([...denseScores(rows, q)]);
    }
  });
});

describe("LocalVectorStore snapshot hint", () => {
  it("keys its cache by the snapshot the caller read, and reloads when it changes", async () => {
    const repo = "vs-hint";
    const store = new LocalVectorStore(env.DB, DIMS);
    const meta = { path: "a.ts", language: "typescript" };
    await store.upsert(repo, [{ id: "a", vector: hashEmbed("parse cookie", "document", DIMS), metadata: meta }]);
    const q = hashEmbed("cookie", "query", DIMS);
    // No repos row exists: only the hint names the snapshot.
    expect((await store.query(repo, q, 5, { snapshot: { commit: "c1", indexedAt: 1 } })).map((m) => m.id)).toEqual(["a"]);
    // Rows written behind the store's back are not seen under the same snapshot (cached) ...
    await env.DB.prepare("INSERT INTO local_vectors (repo, id, vector) SELECT repo, 'b', vector FROM local_vectors WHERE repo = ? AND id = 'a'")
      .bind(repo)
      .run();
    expect((await store.query(repo, q, 5, { snapshot: { commit: "c1", indexedAt: 1 } })).map((m) => m.id)).toEqual(["a"]);
    // ... and are read once the snapshot changes.
    expect((await store.query(repo, q, 5, { snapshot: { commit: "c1", indexedAt: 2 } })).map((m) => m.id).sort()).toEqual(["a", "b"]);
  });
});

describe("LocalVectorStore incremental rebuild", () => {
  const meta = { path: "a.ts", language: "typescript" };
  const texts: Record<string, string> = {
    a: "parse cookie header value",
    b: "router match path params",
    c: "serialize cookie options",
    d: "stream server sent events",
    e: "jwt verify signature cookie",
  };
  const record = (id: string) => ({ id, vector: hashEmbed(texts[id], "document", DIMS), metadata: meta });
  const q = hashEmbed("cookie header signature", "query", DIMS);
  /** Scores by the dense dot product over what the table holds now, best first (ties by id). */
  async function expected(repo: string): Promise<{ id: string; score: number }[]> {
    const { results } = await env.DB.prepare("SELECT id, vector FROM local_vectors WHERE repo = ? ORDER BY id")
      .bind(repo)
      .all<{ id: string; vector: ArrayBuffer }>();
    const rows = results.map((r) => new Float32Array(new Uint8Array(r.vector).slice().buffer));
    const scores = denseScores(rows, q);
    return results.map((r, i) => ({ id: r.id, score: scores[i] })).sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
  }
  /** Overwrites a row behind the store's back (no store of this isolate notes it). */
  const tamper = (repo: string, id: string) =>
    env.DB.prepare("UPDATE local_vectors SET vector = ? WHERE repo = ? AND id = ?")
      .bind(new Uint8Array(hashEmbed("zebra", "document", DIMS).buffer), repo, id)
      .run();

  it("after a flip, reads only the vectors it lacks and ranks as a full read would", async () => {
    const repo = "vs-incremental";
    const store = new LocalVectorStore(env.DB, DIMS);
    await store.upsert(repo, ["a", "b", "c"].map(record));
    const snap = (t: number) => ({ snapshot: { commit: "c1", indexedAt: t, model: "m1" } });
    expect(await store.query(repo, q, 10, snap(1))).toEqual(await expected(repo));
    // The next snapshot adds d and e and drops b, through the store.
    await store.upsert(repo, ["d", "e"].map(record));
    await store.delete(repo, ["b"]);
    expect(await store.query(repo, q, 10, snap(2))).toEqual(await expected(repo));
    // A vector the cached matrix holds is copied, not read again: a row changed behind the
    // store's back keeps its cached vector across the next flip under the same model ...
    const before = (await store.query(repo, q, 10, snap(2))).find((m) => m.id === "a")!.score;
    await tamper(repo, "a");
    await store.upsert(repo, [record("b")]);
    const after = await store.query(repo, q, 10, snap(3));
    expect(after.find((m) => m.id === "a")!.score).toBe(before);
    expect(after.map((m) => m.id).sort()).toEqual(["a", "b", "c", "d", "e"]);
    // ... and a flip to another model reads every vector again.
    const remodelled = await store.query(repo, q, 10, { snapshot: { commit: "c1", indexedAt: 4, model: "m2" } });
    expect(remodelled).toEqual(await expected(repo));
    expect(remodelled.find((m) => m.id === "a")!.score).not.toBe(before);
  });

  it("re-reads a vector written through the store under the same snapshot", async () => {
    const repo = "vs-rewrite";
    const store = new LocalVectorStore(env.DB, DIMS);
    await store.upsert(repo, ["a", "c"].map(record));
    const snap = { snapshot: { commit: "c1", indexedAt: 1, model: "m1" } };
    const first = await store.query(repo, q, 10, snap);
    await store.upsert(repo, [{ ...record("a"), vector: hashEmbed("zebra", "document", DIMS) }]);
    const second = await store.query(repo, q, 10, snap);
    expect(second).toEqual(await expected(repo));
    expect(second.find((m) => m.id === "a")!.score).not.toBe(first.find((m) => m.id === "a")!.score);
  });
});

describe("decodeHexVector", () => {
  it("reads back the vector SQLite's hex() gives of its stored blob, and rejects another length", async () => {
    const v = hashEmbed("parse cookie header", "document", DIMS);
    const row = await env.DB.prepare("SELECT hex(?) AS hex").bind(new Uint8Array(v.buffer)).first<{ hex: string }>();
    expect([...decodeHexVector(row!.hex, DIMS)!]).toEqual([...v]);
    expect([...decodeHexVector(row!.hex.toLowerCase(), DIMS)!]).toEqual([...v]);
    expect(decodeHexVector(row!.hex, DIMS * 2)).toBeNull();
  });
});
