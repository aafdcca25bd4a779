/**
 * @module indexer/store/token-stash
 *
 * A batch tokenizes each chunk's index text (`chunkIndexText`) twice with the local embedding:
 * for its vector (embed/features.ts, before the D1 rows are built) and for the BM25 body column
 * (contract.ts `chunkColumns`). The first caller keeps the tokens with `tokenizeKept`, the
 * second takes them with `takeTokens`: one tokenizing per chunk instead of two (about 0.2 s of
 * a cold hono index, docs/indexing-speed.md "Round 3"). Keyed by the exact text, and `tokenize` is
 * pure, so the tokens are those a fresh call would give. With any other embedder nothing is
 * kept and `takeTokens` tokenizes.
 *
 * Bounded by the characters of the texts kept (STASH_MAX_CHARS, a few MB with their tokens);
 * past it the oldest go first, and their second caller tokenizes again.
 */
import { tokenize } from "./tokenize";

/** Characters of kept texts before the oldest are dropped: the chunks of several 40-file batches. */
const STASH_MAX_CHARS = 4_000_000;

const kept = new Map<string, readonly string[]>();
let keptChars = 0;

/** `tokenize(text)`, kept for one later `takeTokens(text)`. The array must not be changed. */
export function tokenizeKept(text: string): readonly string[] {
  const hit = kept.get(text);
  if (hit) return hit;
  const tokens = tokenize(text);
  kept.set(text, tokens);
  keptChars += text.length;
  for (const [old] of kept) {
    if (keptChars <= STASH_MAX_CHARS) break;
    kept.delete(old);
    keptChars -= old.length;
  }
  return tokens;
}

/** The tokens `tokenizeKept` kept for `text` (then forgotten), or `tokenize(text)`. */
export function takeTokens(text: string): readonly string[] {
  const hit = kept.get(text);
  if (!hit) return tokenize(text);
  kept.delete(text);
  keptChars -= text.length;
  return hit;
}
