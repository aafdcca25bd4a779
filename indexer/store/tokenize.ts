/**
 * @module indexer/store/tokenize
 *
 * The one code-aware tokenizer, shared by the index side (FTS rows) and the query side (MATCH
 * expressions). Postings only work while both sides tokenize exactly alike, so this module is
 * part of the storage contract: changing its output needs a CHUNK_FORMAT_VERSION bump.
 *
 *   getUserById  -> getuserbyid get user by id
 *   snake_case   -> snakecase snake case
 *   src/app.ts   -> src app ts
 *   HTTP2Server  -> http2server http 2 server
 */

const IDENT_RE = /[\p{L}\p{N}_$]+/gu;
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Words dropped from natural-language queries (never from the index). */
const QUERY_STOP_WORDS = new Set(
  (
    "a an and are as at be by can do does for from how i in into is it its of on or that the this to " +
    "was what when where which who why will with where's what's there their them then than we you your " +
    "my me our us should would could may might must have has had been being not no yes code file files " +
    "find show get me please function functions method methods implemented implementation defined"
  ).split(" "),
);

/** Splits one identifier at camelCase, PascalCase, acronym, digit and `_`/`$` boundaries. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .split(/[\s_$]+/)
    .filter(Boolean);
}

/** Overlapping character bigrams of a CJK run (a single character stays a unigram). */
function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

function pushWord(word: string, out: string[]): void {
  if (CJK_RE.test(word)) {
    for (const run of word.match(CJK_RUN_RE) ?? []) out.push(...cjkBigrams(run));
    const rest = word.replace(CJK_RUN_RE, " ").trim();
    if (rest) for (const w of rest.split(/\s+/)) pushWord(w, out);
    return;
  }
  const parts = splitIdentifier(word);
  // `_`/`$` are separators for FTS5 unicode61, so the whole form drops them.
  const whole = word.toLowerCase().replace(/[_$]/g, "");
  if (whole) out.push(whole);
  if (parts.length > 1) for (const p of parts) out.push(p.toLowerCase());
}

/**
 * Index-side tokenization: every identifier in full (lowercased) followed by its parts when it
 * has more than one. Output tokens contain only letters and digits, so FTS5's unicode61
 * tokenizer keeps each one whole.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IDENT_RE)) pushWord(m[0], out);
  return out;
}

/**
 * Query-side tokenization: as `tokenize`, minus stop words, deduplicated in first-seen order.
 * A query made only of stop words keeps them, so it still matches something.
 */
export function tokenizeQuery(text: string): string[] {
  const all = tokenize(text);
  const kept = all.filter((t) => !QUERY_STOP_WORDS.has(t));
  return [...new Set(kept.length ? kept : all)];
}
