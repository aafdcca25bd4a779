/**
 * @module indexer/store/vectors/vectorize-fake
 *
 * An in-memory fake of the Vectorize (V2) binding for tests. It follows the documented shapes
 * and refuses what the platform refuses: more than 1,000 vectors per upsert, ids over 64
 * bytes, vectors of the wrong dimension, topK over 100 (over 20 when values or metadata are
 * returned), namespaces over 64 bytes. Queries are exact cosine, like a small index.
 */
import type { VectorizeLike } from "./vectorize";

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

/** Fake Vectorize index of `dimensions`. `calls` records each method call for assertions. */
export class FakeVectorize implements VectorizeLike, Pick<Vectorize, "describe"> {
  readonly calls: { method: string; size: number }[] = [];
  readonly #data = new Map<string, { namespace: string; values: number[]; metadata?: Record<string, unknown> }>();
  constructor(readonly dimensions: number) {}

  async upsert(vectors: VectorizeVector[]): Promise<VectorizeAsyncMutation> {
    this.calls.push({ method: "upsert", size: vectors.length });
    if (vectors.length > 1000) throw new Error("VECTOR_UPSERT_ERROR: too many vectors (max 1000 per request)");
    for (const v of vectors) {
      if (bytes(v.id) > 64) throw new Error(`VECTOR_UPSERT_ERROR: id too long (${bytes(v.id)} bytes, max 64)`);
      if (v.values.length !== this.dimensions) throw new Error(`VECTOR_UPSERT_ERROR: expected ${this.dimensions} dimensions, got ${v.values.length}`);
      if (v.namespace && bytes(v.namespace) > 64) throw new Error("VECTOR_UPSERT_ERROR: namespace too long");
    }
    for (const v of vectors) this.#data.set(v.id, { namespace: v.namespace ?? "", values: Array.from(v.values), metadata: v.metadata });
    return { mutationId: crypto.randomUUID() };
  }

  async query(vector: VectorFloatArray | number[], options: VectorizeQueryOptions = {}): Promise<VectorizeMatches> {
    this.calls.push({ method: "query", size: options.topK ?? 5 });
    const topK = options.topK ?? 5;
    const heavy = options.returnValues || (options.returnMetadata !== undefined && options.returnMetadata !== false && options.returnMetadata !== "none");
    if (topK > (heavy ? 20 : 100)) throw new Error(`VECTOR_QUERY_ERROR: topK ${topK} exceeds ${heavy ? 20 : 100}`);
    if (vector.length !== this.dimensions) throw new Error("VECTOR_QUERY_ERROR: query vector dimension mismatch");
    const q = Array.from(vector);
    const norm = (a: number[]) => Math.sqrt(a.reduce((s, x) => s + x * x, 0)) || 1;
    const qn = norm(q);
    const matches = [...this.#data.entries()]
      .filter(([, v]) => (options.namespace ?? "") === v.namespace)
      .map(([id, v]) => ({ id, score: v.values.reduce((s, x, i) => s + x * q[i], 0) / (qn * norm(v.values)) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    return { matches, count: matches.length };
  }

  async describe(): Promise<VectorizeIndexInfo> {
    return { vectorCount: this.#data.size, dimensions: this.dimensions, processedUpToDatetime: 0, processedUpToMutation: 0 };
  }

  async deleteByIds(ids: string[]): Promise<VectorizeAsyncMutation> {
    this.calls.push({ method: "deleteByIds", size: ids.length });
    if (ids.length > 1000) throw new Error("VECTOR_DELETE_ERROR: too many ids (max 1000 per request)");
    for (const id of ids) this.#data.delete(id);
    return { mutationId: crypto.randomUUID() };
  }
}
