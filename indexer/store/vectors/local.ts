/**
 * @module indexer/store/vectors/local
 *
 * The local `VectorStore`: vectors in the D1 table `local_vectors` (Float32 little-endian
 * blobs), searched exactly by cosine (dot product of unit vectors). The default without
 * Vectorize. Decoded vectors are cached per isolate, keyed by repo and its active snapshot
 * (`repos.active_commit` + `active_indexed_at`), so queries do not re-read every row. While a
 * repo has no active snapshot nothing is cached. A caller that already read the snapshot passes
 * it (`options.snapshot`), which saves the D1 round trip that reads the key.
 *
 * When the key changes (a snapshot flip) or rows were written through this store, the matrix is
 * rebuilt incrementally: the repo's ids are listed, and only vectors the cached matrix lacks, or
 * that were written through a store of this isolate since it was built, are read; the others
 * are copied from it. A chunk id is content-addressed (repo, path, blob SHA, chunk format), so
 * its vector changes only when another model re-embeds it: the cached matrix is reused only
 * while the snapshot's model is known and the same. The rebuilt matrix holds the same ids in the
 * same order (by id) as a full read, so scores and ties are identical to one. A
 * one-file change thus reads one file's vectors instead of the repo's (the first search after
 * a flip loaded every vector before: seconds on a 20,000-chunk repo).
 *
 * Scoring is a sparse dot product over a column-major matrix: only the query's non-zero
 * dimensions are visited (a hashed query vector of a short query has few), each as one pass
 * over a contiguous column, accumulated in float64 in ascending dimension order. That is the
 * same sum, term for term, as the dense row-by-row loop (a skipped term adds an exact zero),
 * so scores and ranking are bit-identical to it.
 */
import type { VectorMatch, VectorQueryOptions, VectorRecord, VectorStore } from "../contract";

/** Bound parameters per D1 statement (D1 limit: 100). */
const D1_MAX_PARAMS = 100;
/** Target size of the blobs bound in one statement, bytes (D1 statement limit: 100 KB). */
const STATEMENT_BLOB_BYTES = 60_000;

interface CachedMatrix {
  key: string;
  /** The embedding model of the snapshot it was built for, when known. */
  model: string | null;
  ids: string[];
  dims: number;
  /** Column-major: dimension j of vector i is columns[j*n + i], n = ids.length. */
  columns: Float32Array;
}

/** Per-isolate cache of decoded vectors, by repo. */
const cache = new Map<string, CachedMatrix>();
/**
 * Per repo: ids upserted or deleted through a store of this isolate since its matrix was built
 * (re-read at the next query). Past WRITTEN_MAX ids the repo's matrix is dropped instead.
 */
const written = new Map<string, Set<string>>();
const WRITTEN_MAX = 100_000;
/** Reuse the cached matrix only when at most this share of the repo's ids must be read anyway. */
const MAX_FRESH_SHARE = 0.5;

/** Notes writes of `ids` for `repo`: its cached vectors of those ids are stale. */
function noteWrites(repo: string, ids: Iterable<string>): void {
  const set = written.get(repo) ?? new Set<string>();
  for (const id of ids) set.add(id);
  if (set.size > WRITTEN_MAX) {
    cache.delete(repo);
    written.delete(repo);
  } else written.set(repo, set);
}

/** Two lowercase hex digits of each byte value, as one UTF-16 unit pair read little-endian. */
const HEX_PAIRS = (() => {
  const t = new Uint16Array(256);
  const digits = "0123456789abcdef";
  for (let i = 0; i < 256; i++) t[i] = digits.charCodeAt(i >> 4) | (digits.charCodeAt(i & 15) << 8);
  return t;
})();
const latin1 = new TextDecoder("latin1");

/**
 * Encodes a vector as the hex of its little-endian Float32 bytes (the platform is
 * little-endian), written with SQLite's `unhex()` into the same BLOB. The D1 binding sends a
 * bound blob as a JSON array of numbers (about 3.6 characters a byte, built and parsed number
 * by number); hex is 2 characters a byte in one string: measured, the vectors of a hono index
 * cost 8 times less to send (docs/indexing-speed.md, "Where the time goes").
 */
function encodeHex(v: Float32Array): string {
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const pairs = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) pairs[i] = HEX_PAIRS[bytes[i]];
  return latin1.decode(pairs);
}

/** Value of each hexadecimal digit by character code; -1 for other characters. */
const HEX_VALUES = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) {
    t["0123456789ABCDEF".charCodeAt(i)] = i;
    t["0123456789abcdef".charCodeAt(i)] = i;
  }
  return t;
})();

/**
 * The Float32 values of a vector read as SQL `hex(vector)`, or null when it does not hold `dims`
 * of them (another model's row). Vectors are read as hex text because D1 hands a BLOB to the
 * Worker as an array with one JS number per byte: reading a 20,000-chunk repo's vectors that
 * way took over 10 s locally, a string per row is one value.
 */
export function decodeHexVector(hex: string, dims: number): Float32Array | null {
  if (hex.length !== dims * 8) return null;
  const bytes = new Uint8Array(dims * 4);
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) bytes[i] = (HEX_VALUES[hex.charCodeAt(j)] << 4) | HEX_VALUES[hex.charCodeAt(j + 1)];
  return new Float32Array(bytes.buffer);
}

/**
 * Dot product of every stored vector with `vector`, as float32 scores (index = row). Visits only
 * the non-zero dimensions of `vector`, in ascending order, accumulating in float64: the same
 * additions in the same order as `sum over j of row[j] * vector[j]` minus exact zeros.
 */
export function sparseScores(m: Pick<CachedMatrix, "ids" | "dims" | "columns">, vector: Float32Array): Float32Array {
  const n = m.ids.length;
  const acc = new Float64Array(n);
  for (let j = 0; j < m.dims; j++) {
    const q = vector[j];
    if (q === 0) continue;
    const base = j * n;
    for (let i = 0; i < n; i++) acc[i] += m.columns[base + i] * q;
  }
  return Float32Array.from(acc);
}

/** Indices of the `k` largest scores, best first (simple selection; n is at most a few 10k). */
export function topKIndices(scores: Float32Array, k: number): number[] {
  const idx: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    if (idx.length < k) {
      idx.push(i);
      if (idx.length === k) idx.sort((a, b) => scores[b] - scores[a]);
      continue;
    }
    if (scores[i] <= scores[idx[k - 1]]) continue;
    let j = k - 1;
    while (j > 0 && scores[idx[j - 1]] < scores[i]) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = i;
  }
  return idx.length < k ? idx.sort((a, b) => scores[b] - scores[a]) : idx;
}

/** Exact-cosine vector store over D1. `dimensions` is the configured vector length. */
export class LocalVectorStore implements VectorStore {
  constructor(
    private readonly db: D1Database,
    readonly dimensions: number,
  ) {}

  async upsert(repo: string, records: VectorRecord[]): Promise<void> {
    if (!records.length) return;
    for (const r of records) this.#check(r.vector);
    // Hex takes 2 bytes of the statement per vector byte.
    const rowsPerStatement = Math.max(1, Math.min(Math.floor(D1_MAX_PARAMS / 3), Math.floor(STATEMENT_BLOB_BYTES / (this.dimensions * 8))));
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < records.length; i += rowsPerStatement) {
      const rows = records.slice(i, i + rowsPerStatement);
      const sql = `INSERT OR REPLACE INTO local_vectors (repo, id, vector) VALUES ${rows.map(() => "(?, ?, unhex(?))").join(", ")}`;
      statements.push(this.db.prepare(sql).bind(...rows.flatMap((r) => [repo, r.id, encodeHex(r.vector)])));
    }
    await this.db.batch(statements);
    noteWrites(
      repo,
      records.map((r) => r.id),
    );
  }

  async query(repo: string, vector: Float32Array, topK: number, options: VectorQueryOptions = {}): Promise<VectorMatch[]> {
    this.#check(vector);
    const m = await this.#matrix(repo, options.snapshot);
    const n = m.ids.length;
    if (!n || topK <= 0) return [];
    const scores = sparseScores(m, vector);
    return topKIndices(scores, Math.min(topK, n)).map((i) => ({ id: m.ids[i], score: scores[i] }));
  }

  async delete(repo: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const per = D1_MAX_PARAMS - 1;
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < ids.length; i += per) {
      const part = ids.slice(i, i + per);
      statements.push(this.db.prepare(`DELETE FROM local_vectors WHERE repo = ? AND id IN (${part.map(() => "?").join(", ")})`).bind(repo, ...part));
    }
    await this.db.batch(statements);
    noteWrites(repo, ids);
  }

  #check(v: Float32Array): void {
    if (v.length !== this.dimensions) throw new Error(`Vector has ${v.length} dimensions; this store holds ${this.dimensions} (EMBEDDING_DIMENSIONS)`);
  }

  async #matrix(repo: string, known?: VectorQueryOptions["snapshot"]): Promise<CachedMatrix> {
    const snap = known
      ? { c: known.commit, t: known.indexedAt, m: known.model ?? null }
      : await this.db
          .prepare("SELECT active_commit AS c, active_indexed_at AS t, embedding_model AS m FROM repos WHERE id = ?")
          .bind(repo)
          .first<{ c: string | null; t: number | null; m: string | null }>();
    const key = snap?.c ? `${snap.c}:${snap.t ?? 0}:${this.dimensions}` : "";
    const model = snap?.m ?? null;
    const hit = cache.get(repo);
    if (key && hit?.key === key && !written.get(repo)?.size) return hit;
    // Writes noted from here on land in a new set and are re-read by the next query.
    const rewritten = written.get(repo) ?? new Set<string>();
    written.delete(repo);
    const base = hit && model !== null && hit.model === model && hit.dims === this.dimensions ? hit : undefined;
    const m = base ? await this.#rebuild(repo, base, rewritten) : await this.#readAll(repo);
    m.key = key;
    m.model = model;
    if (key) cache.set(repo, m);
    else cache.delete(repo);
    return m;
  }

  /** Every vector of `repo`, in id order (the primary key's); rows of another length (another model's) are left out. */
  async #readAll(repo: string): Promise<CachedMatrix> {
    const { results } = await this.db
      .prepare("SELECT id, hex(vector) AS hex FROM local_vectors WHERE repo = ? ORDER BY id")
      .bind(repo)
      .all<{ id: string; hex: string }>();
    const dims = this.dimensions;
    // Rows of another length were built by another model; search skips the vector channel
    // for such repos until re-embedded (worker/search), so they are left out here.
    const rows = results.flatMap((r) => {
      const v = decodeHexVector(r.hex, dims);
      return v ? [{ id: r.id, v }] : [];
    });
    const n = rows.length;
    const columns = new Float32Array(n * dims);
    rows.forEach((r, i) => {
      for (let j = 0; j < dims; j++) columns[j * n + i] = r.v[j];
    });
    return { key: "", model: null, ids: rows.map((r) => r.id), dims, columns };
  }

  /**
   * The matrix `#readAll` would give, reading only the vectors `base` lacks or holds stale
   * (`rewritten`); the rest are copied from `base`. Falls back to `#readAll` when most must be read.
   */
  async #rebuild(repo: string, base: CachedMatrix, rewritten: ReadonlySet<string>): Promise<CachedMatrix> {
    const { results } = await this.db.prepare("SELECT id FROM local_vectors WHERE repo = ? ORDER BY id").bind(repo).all<{ id: string }>();
    const oldIndex = new Map(base.ids.map((id, i) => [id, i]));
    const listed = results.map((r) => r.id);
    const fresh = listed.filter((id) => !oldIndex.has(id) || rewritten.has(id));
    if (fresh.length > listed.length * MAX_FRESH_SHARE) return this.#readAll(repo);
    const dims = this.dimensions;
    const read = new Map<string, Float32Array>();
    const per = D1_MAX_PARAMS - 1;
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < fresh.length; i += per) {
      const part = fresh.slice(i, i + per);
      statements.push(
        this.db.prepare(`SELECT id, hex(vector) AS hex FROM local_vectors WHERE repo = ? AND id IN (${part.map(() => "?").join(", ")})`).bind(repo, ...part),
      );
    }
    if (statements.length) {
      for (const r of await this.db.batch<{ id: string; hex: string }>(statements)) {
        for (const row of r.results) {
          const v = decodeHexVector(row.hex, dims);
          if (v) read.set(row.id, v);
        }
      }
    }
    // A fresh id whose row is gone (deleted meanwhile) or of another length is left out, as in #readAll.
    const ids = listed.filter((id) => read.has(id) || (oldIndex.has(id) && !rewritten.has(id)));
    const n = ids.length;
    const oldN = base.ids.length;
    const columns = new Float32Array(n * dims);
    const from = ids.map((id) => (read.has(id) ? -1 : oldIndex.get(id)!));
    const vectors = ids.map((id) => read.get(id));
    for (let j = 0; j < dims; j++) {
      const out = j * n;
      const src = j * oldN;
      for (let i = 0; i < n; i++) columns[out + i] = from[i] >= 0 ? base.columns[src + from[i]] : vectors[i]![j];
    }
    return { key: "", model: null, ids, dims, columns };
  }
}
