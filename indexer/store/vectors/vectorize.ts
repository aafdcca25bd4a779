/**
 * @module indexer/store/vectors/vectorize
 *
 * `VectorStore` over a Vectorize (V2) index: one namespace per repo, vector ids = chunk ids
 * (at most 64 bytes), metadata `{path, language}`, upserts and deletes in batches of at most
 * 1,000, queries with topK at most 100 and no metadata returned (Vectorize limits, see
 * developers.cloudflare.com/vectorize/platform/limits/). Vectorize writes are asynchronous:
 * vectors become queryable a few seconds after `upsert` resolves.
 */
import type { VectorMatch, VectorRecord, VectorStore } from "../contract";

/** Vectors per upsert call from a Worker (Vectorize limit). */
export const VECTORIZE_MAX_UPSERT = 1000;
/** Ids per deleteByIds call. */
export const VECTORIZE_MAX_DELETE = 1000;
/** topK without returned values or metadata (Vectorize limit; 20 when they are returned). */
export const VECTORIZE_MAX_TOPK = 100;
/** Vector id length limit, bytes. */
export const VECTORIZE_MAX_ID_BYTES = 64;
/** Namespace name length limit, bytes. */
export const VECTORIZE_MAX_NAMESPACE_BYTES = 64;

/** The part of the `Vectorize` binding this store uses (lets tests pass a fake with its shape). */
export type VectorizeLike = Pick<Vectorize, "upsert" | "query" | "deleteByIds">;

const byteLength = (s: string) => new TextEncoder().encode(s).byteLength;

/** Vectorize-backed store, namespace = repo id. */
export class VectorizeVectorStore implements VectorStore {
  constructor(private readonly index: VectorizeLike) {}

  async upsert(repo: string, records: VectorRecord[]): Promise<void> {
    const namespace = this.#namespace(repo);
    for (const r of records) {
      if (byteLength(r.id) > VECTORIZE_MAX_ID_BYTES) throw new Error(`Vector id "${r.id}" exceeds ${VECTORIZE_MAX_ID_BYTES} bytes`);
    }
    for (let i = 0; i < records.length; i += VECTORIZE_MAX_UPSERT) {
      await this.index.upsert(
        records.slice(i, i + VECTORIZE_MAX_UPSERT).map((r) => ({
          id: r.id,
          values: r.vector,
          namespace,
          metadata: { path: r.metadata.path, language: r.metadata.language },
        })),
      );
    }
  }

  async query(repo: string, vector: Float32Array, topK: number): Promise<VectorMatch[]> {
    const k = Math.max(1, Math.min(VECTORIZE_MAX_TOPK, Math.floor(topK)));
    const res = await this.index.query(vector, { topK: k, namespace: this.#namespace(repo), returnValues: false, returnMetadata: "none" });
    return res.matches.map((m) => ({ id: m.id, score: m.score }));
  }

  async delete(repo: string, ids: string[]): Promise<void> {
    this.#namespace(repo);
    // Ids are unique across the index (chunk ids hash the repo), so no namespace is needed.
    for (let i = 0; i < ids.length; i += VECTORIZE_MAX_DELETE) {
      await this.index.deleteByIds(ids.slice(i, i + VECTORIZE_MAX_DELETE));
    }
  }

  #namespace(repo: string): string {
    if (byteLength(repo) > VECTORIZE_MAX_NAMESPACE_BYTES)
      throw new Error(`Repo id "${repo}" is too long for a Vectorize namespace (${VECTORIZE_MAX_NAMESPACE_BYTES} bytes)`);
    return repo;
  }
}
