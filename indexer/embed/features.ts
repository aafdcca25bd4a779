/**
 * @module indexer/embed/features
 *
 * Weighted text features for the local hashed embedding (`local.ts`): code tokens from the
 * shared tokenizer, a light suffix-stripped stem of each word (so `routing`, `routes` and
 * `router` meet), and character trigrams (typos, partial words). Pure and deterministic.
 */
import { stem, tokenizeKept, tokenizeQuery } from "../store/contract";

/** Weight of a whole token or identifier part. */
export const TOKEN_WEIGHT = 1.0;
/** Weight of a stem feature: emitted for every token, so `routes` (stem `route`) meets `route`. */
export const STEM_WEIGHT = 0.6;
/** Total weight of one token's trigrams, spread evenly over them. */
export const TRIGRAM_WEIGHT = 0.5;
/** Words shorter than this get no trigrams: they would only add noise. */
const TRIGRAM_MIN_LENGTH = 4;

/**
 * Keywords and noise words so frequent in code that, without corpus statistics (IDF), they
 * would dominate every vector. Dropped from both documents and queries.
 */
const CODE_NOISE = new Set(
  (
    "const let var function return if else for while do switch case break continue new this self " +
    "import export from default class extends implements interface type public private protected " +
    "static readonly async await yield try catch finally throw throws true false null undefined nil none " +
    "void int string number boolean bool any unknown object def fn func pub mut use mod impl struct enum " +
    "package go val end elif lambda pass in of as is not and or the a an to be it"
  ).split(" "),
);

/**
 * Features of a text as a map from feature string to weight (before hashing). Term frequency
 * is damped (1 + ln tf) so one repeated identifier cannot dominate a chunk.
 */
export function textFeatures(text: string, kind: "document" | "query"): Map<string, number> {
  const out = new Map<string, number>();
  const add = (f: string, w: number) => out.set(f, (out.get(f) ?? 0) + w);
  for (const [t, n] of termCounts(text, kind)) {
    const damp = 1 + Math.log(n);
    const f = tokenFeatures(t);
    add(f.word, TOKEN_WEIGHT * damp);
    add(f.stem, STEM_WEIGHT * damp);
    const grams = f.grams.length;
    for (let i = 0; i < grams; i++) add(f.grams[i], (TRIGRAM_WEIGHT * damp) / grams);
  }
  return out;
}

/** A term's feature names in the order `textFeatures` adds them: word, stem, then its trigrams. */
export function tokenFeatureNames(term: string): string[] {
  const f = buildTokenFeatures(term);
  return [f.word, f.stem, ...f.grams];
}

/**
 * Each kept token of `text` (noise words dropped) with its count, in first-seen order: the terms
 * `textFeatures` weighs, in its order.
 */
export function termCounts(text: string, kind: "document" | "query"): Map<string, number> {
  const tf = new Map<string, number>();
  // A document is a chunk being indexed: its tokens are kept for its BM25 row (token-stash.ts).
  for (const t of kind === "query" ? tokenizeQuery(text) : tokenizeKept(text)) {
    if (!CODE_NOISE.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  return tf;
}

/** The feature names one token contributes (its weights depend on the chunk, so they are not kept). */
interface TokenFeatures {
  word: string;
  stem: string;
  grams: readonly string[];
}

/**
 * Feature names by token. A repo's chunks share most of their tokens, and building the names
 * (a stem, a padded copy, its trigrams) cost more than using them. Bounded like tokenize's word
 * cache: emptied past TOKEN_CACHE_MAX tokens (about 4 MB; a Worker isolate has 128 MB).
 */
const tokenCache = new Map<string, TokenFeatures>();
const TOKEN_CACHE_MAX = 10_000;

function tokenFeatures(token: string): TokenFeatures {
  const hit = tokenCache.get(token);
  if (hit) return hit;
  const t = ownCopy(token);
  const f = buildTokenFeatures(t);
  if (tokenCache.size >= TOKEN_CACHE_MAX) tokenCache.clear();
  tokenCache.set(t, f);
  return f;
}

/** A long token may be a slice that keeps its whole text alive (V8): a copy to keep instead. */
export function ownCopy(token: string): string {
  return token.length > 12 ? Array.from(token).join("") : token;
}

function buildTokenFeatures(t: string): TokenFeatures {
  const grams: string[] = [];
  if (t.length >= TRIGRAM_MIN_LENGTH && !/^\d+$/.test(t)) {
    const padded = `^${t}$`;
    for (let i = 0; i < padded.length - 2; i++) grams.push(`g:${padded.slice(i, i + 3)}`);
  }
  return { word: `w:${t}`, stem: `s:${stem(t)}`, grams };
}
