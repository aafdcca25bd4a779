/**
 * @module indexer/embed/local
 *
 * The local `EmbeddingProvider`: signed feature hashing of weighted code features
 * (`features.ts`) into a fixed number of dimensions, L2-normalised. No model download, no
 * network, deterministic across runs and machines. It captures lexical and sub-word overlap
 * (identifier parts, stems, trigrams), not meaning; it is the offline default.
 *
 * Hashing trick with a sign hash: Weinberger et al., "Feature Hashing for Large Scale
 * Multitask Learning", ICML 2009. FNV-1a 32-bit (Fowler, Noll, Vo) as the hash.
 */
import type { EmbeddingProvider } from "../store/contract";
import { FeatureTable } from "./feature-table";
import { STEM_WEIGHT, termCounts, TOKEN_WEIGHT, TRIGRAM_WEIGHT } from "./features";

/** Model name recorded in `repos.embedding_model` for vectors built by this provider. */
export const LOCAL_EMBEDDING_MODEL = "local-hash-v1";

/** Texts per `embed` call; the local provider has no backend limit, this only bounds memory. */
const LOCAL_MAX_BATCH = 256;

/** FNV-1a 32-bit hash of a string's UTF-16 code units, with a seed mixed into the offset basis. */
export function fnv1a(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Scales a vector to unit length in place (a zero vector stays zero). Returns it. */
export function l2Normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

/**
 * Hashes one text's features into a unit vector of `dimensions`: each feature of `textFeatures`
 * with its summed weight, added to its slot in the order `textFeatures` first meets it. Terms
 * are mapped to feature numbers once (`FeatureTable`), so the sums are those of `textFeatures`,
 * in the same order (the same float32 vector), without a Map of feature names per text.
 */
export function hashEmbed(text: string, kind: "document" | "query", dimensions: number): Float32Array {
  const table = featureTable(dimensions);
  table.startText();
  for (const [term, n] of termCounts(text, kind)) {
    const damp = 1 + Math.log(n);
    const ids = table.termIds(term);
    table.add(ids[0]!, TOKEN_WEIGHT * damp);
    table.add(ids[1]!, STEM_WEIGHT * damp);
    const grams = ids.length - 2;
    for (let i = 0; i < grams; i++) table.add(ids[2 + i]!, (TRIGRAM_WEIGHT * damp) / grams);
  }
  const v = new Float32Array(dimensions);
  table.addInto(v);
  return l2Normalise(v);
}

/** The feature table of each dimension count. */
const tables = new Map<number, FeatureTable>();

function featureTable(dimensions: number): FeatureTable {
  let t = tables.get(dimensions);
  if (!t) tables.set(dimensions, (t = new FeatureTable((f) => (fnv1a(f) % dimensions) * 2 + (fnv1a(f, 0x9e3779b9) & 1 ? 0 : 1))));
  return t;
}

/** Local hashed-feature embeddings; `dimensions` comes from EMBEDDING_DIMENSIONS (default 384). */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly model = LOCAL_EMBEDDING_MODEL;
  /** Hashed word and trigram features: similarity is shared words, not meaning. */
  readonly lexical = true;
  readonly maxBatch = LOCAL_MAX_BATCH;
  constructor(readonly dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions < 16 || dimensions > 4096) {
      throw new TypeError(`EMBEDDING_DIMENSIONS must be an integer in 16..4096 for the local provider; got ${dimensions}`);
    }
  }

  async embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]> {
    return texts.map((t) => hashEmbed(t, kind, this.dimensions));
  }
}
