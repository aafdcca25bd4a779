import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashEmbed } from "../../embed/local";
import { LocalVectorStore, sparseScores } from "./local";

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
    await env.DB.prepare("INSERT INTO local_vectors (repo, id, vector) SELECT repo, 'b', vector FROM local_vectors WHERE repo = ? AND id = 'a'").bind(repo).run();
    expect((await store.query(repo, q, 5, { snapshot: { commit: "c1", indexedAt: 1 } })).map((m) => m.id)).toEqual(["a"]);
    // ... and are read once the snapshot changes.
    expect((await store.query(repo, q, 5, { snapshot: { commit: "c1", indexedAt: 2 } })).map((m) => m.id).sort()).toEqual(["a", "b"]);
  });
});
