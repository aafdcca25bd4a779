/**
 * @module worker/search/language/detect
 *
 * Which language a query's prose is written in, from its scripts and, for Latin script, its
 * function words: Hangul is Korean, kana (with or without kanji) Japanese, Han alone Chinese;
 * Latin-script text is Spanish, Portuguese, German or French when that language's stopwords
 * (./glossary.json) and letters (ñ, ã, ß, è ...) outnumber English's, else English. Pure; no
 * model, so a mixed query such as "hono の cors middleware" is decided by its script.
 */
import { foldLatin, LATIN_LANGUAGES, lookupLatinWord, stopwordsOf, tableOf, type GlossaryLanguage } from "./glossary";

/** A detected language: English or a glossary language. */
export type QueryLanguage = "en" | GlossaryLanguage;

const HANGUL = /\p{Script=Hangul}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[\p{L}\p{M}]+/gu;

/** Letters only one of the Latin-script languages uses (after lowercasing), each worth two stopwords. */
const MARKERS: Record<(typeof LATIN_LANGUAGES)[number], RegExp> = {
  es: /[ñ¿¡]/gu,
  pt: /[ãõ]/gu,
  de: /[ßäöü]/gu,
  fr: /[èêëàùûœî]/gu,
};

/** Fewest CJK characters that make a query CJK, and their least share of its non-space characters. */
const MIN_CJK_CHARS = 2;
const MIN_CJK_SHARE = 0.2;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/**
 * The language of `text` (prose; quoted code already taken out). CJK wins when it has at least
 * MIN_CJK_CHARS characters and MIN_CJK_SHARE of the non-space characters; Latin-script text
 * needs a score (stopwords, glossary words at half weight, marker letters) more than 1 above
 * English's stopword count.
 */
export function detectLanguage(text: string): QueryLanguage {
  const hangul = count(text, HANGUL);
  const kana = count(text, KANA);
  const han = count(text, HAN);
  const cjk = hangul + kana + han;
  const visible = text.replace(/\s+/g, "").length;
  if (cjk >= MIN_CJK_CHARS && cjk / Math.max(1, visible) >= MIN_CJK_SHARE) {
    if (hangul >= kana + han) return "ko";
    return kana > 0 ? "ja" : "zh";
  }
  const lower = text.toLowerCase();
  const words = (lower.match(LATIN_WORD) ?? []).map(foldLatin);
  if (!words.length) return "en";
  const english = words.filter((w) => stopwordsOf("en").has(w)).length;
  let best: QueryLanguage = "en";
  let bestScore = english + 1; // a tie goes to English: the query is then left alone
  for (const lang of LATIN_LANGUAGES) {
    const stops = stopwordsOf(lang);
    const table = tableOf(lang);
    let score = 2 * count(lower, MARKERS[lang]);
    for (const w of words) {
      if (stops.has(w)) score += 1;
      else if (w.length > 3 && lookupLatinWord(table, w) !== undefined) score += 0.5;
    }
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return best;
}
