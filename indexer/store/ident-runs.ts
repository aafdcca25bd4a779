/**
 * @module indexer/store/ident-runs
 *
 * The words the tokenizer starts from (tokenize.ts): maximal runs of letters, digits, `_` and
 * `$`, exactly the matches of `/[\p{L}\p{N}_$]+/gu`, found by one scan over the char codes.
 * ASCII is decided from a table and other code points by that class once each, so the common
 * case runs no regular expression; the scan also reports whether a run is lowercase ASCII
 * letters only, the tokenizer's fast path (the regex iterator was about 6% of workerd's CPU in
 * a cold index of hono, docs/indexing-speed.md "Round 3"). Part of the storage contract with
 * tokenize.ts: its output must stay that of the regex (ident-runs.test.ts compares them).
 */

/** One code point of the identifier class. */
const IDENT_CHAR_RE = /^[\p{L}\p{N}_$]$/u;

/** 1 for the ASCII characters of the class. */
const ASCII_IDENT = Uint8Array.from({ length: 128 }, (_, c) => (IDENT_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 0));

/** The class of non-ASCII code points seen so far; bounded (a text rarely uses more than a few hundred). */
const wide = new Map<number, boolean>();
const WIDE_MAX = 50_000;

function isIdentCodePoint(cp: number): boolean {
  if (cp < 128) return ASCII_IDENT[cp] === 1;
  let v = wide.get(cp);
  if (v === undefined) {
    v = IDENT_CHAR_RE.test(String.fromCodePoint(cp));
    if (wide.size >= WIDE_MAX) wide.clear();
    wide.set(cp, v);
  }
  return v;
}

/**
 * Calls `emit(word, lowerAscii)` for each match of `/[\p{L}\p{N}_$]+/gu` in `text`, in order;
 * `lowerAscii` is true when the word is made of `a`-`z` only. A surrogate pair is one code
 * point, as with the `u` flag; a lone surrogate is not in the class.
 */
export function forEachIdentRun(text: string, emit: (word: string, lowerAscii: boolean) => void): void {
  let start = -1;
  let lower = true;
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    if (isIdentCodePoint(cp)) {
      if (start < 0) {
        start = i;
        lower = true;
      }
      if (c < 97 || c > 122) lower = false;
    } else if (start >= 0) {
      emit(text.slice(start, i), lower);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) emit(text.slice(start), lower);
}
