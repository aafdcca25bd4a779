/**
 * @module worker/search/language/detect
 *
 * Which language a query's prose is written in, from its scripts and, for Latin script, its
 * function words: Hangul is Korean, kana (with or without kanji) Japanese, Han alone Chinese;
 * Latin-script text is Spanish, Portuguese, German or French when that language's stopwords
 * (./glossary.json) and letters (ñ, ã, ß, è ...) outnumber English's, else English; words that
 * are English too (die, a, token) count for no language. Pure; no
 * model, so a mixed query such as "hono の cors middleware" is decided by its script.
 */
import { hasEntry, LISTS } from "../english-words";
import { foldLatin, LATIN_LANGUAGES, lookupLatinWord, stopwordsOf, tableOf, type GlossaryLanguage } from "./glossary";

/** A detected language: English or a glossary language. */
export type QueryLanguage = "en" | GlossaryLanguage;

const HANGUL = /\p{Script=Hangul}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const LATIN_WORD = /[\p{L}\p{M}]+/gu;
/** A token that is code: dotted, pathed, called, with digits or sigils, camelCase or snake_case. */
const CODE_TOKEN = /[._/\\$()#<>[\]{}=:@]|\d|[a-z][A-Z]/;

/** Letters only one of the Latin-script languages uses (after lowercasing), each worth two stopwords. */
const MARKERS: Record<(typeof LATIN_LANGUAGES)[number], RegExp> = {
  es: /[ñ¿¡]/gu,
  pt: /[ãõ]/gu,
  de: /[ßäöü]/gu,
  fr: /[èêëàùûœî]/gu,
};

/**
 * Latin-script text is judged on its first 2,000 characters: a question comes first, and a long
 * pasted report after it would cost tens of ms to scan (89 ms for a 24,770-character SWE-bench
 * statement, measured in Node on a machine at load average 20) for no different answer.
 */
const DETECT_MAX_CHARS = 2_000;

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
  const head = text.slice(0, DETECT_MAX_CHARS);
  const lower = head.toLowerCase();
  // Words of prose only: an identifier, path or stack frame (com.google.gson, /var/www, $Adapter)
  // is code in any language and would count "com" or "das" inside it.
  const prose = head
    .split(/\s+/)
    .map((t) => t.replace(/^[¿¡"'“«(]+|[.,;:!?"'”»)]+$/gu, ""))
    .filter((t) => t && !CODE_TOKEN.test(t))
    .join(" ")
    .toLowerCase();
  const words = (prose.match(LATIN_WORD) ?? []).map(foldLatin);
  if (!words.length) return "en";
  const enStops = stopwordsOf("en");
  const english = words.filter((w) => enStops.has(w)).length;
  // A word that is English too ("die", "a", "token", "render") is no evidence for another
  // language: without this, stack traces and English error messages read as German or Portuguese.
  const englishToo = new Map<string, boolean>();
  const foreign = (w: string) => {
    let e = englishToo.get(w);
    // SCOWL's entries only (not isEnglishWord's prefixed derivations): 25 binary searches a word.
    if (e === undefined) englishToo.set(w, (e = enStops.has(w) || (/^[a-z]+$/.test(w) && LISTS.some((t) => hasEntry(t, w)))));
    return !e;
  };
  let best: QueryLanguage = "en";
  let bestScore = english + 1; // a tie goes to English: the query is then left alone
  for (const lang of LATIN_LANGUAGES) {
    const stops = stopwordsOf(lang);
    const table = tableOf(lang);
    let score = 2 * count(lower, MARKERS[lang]);
    for (const w of words) {
      if (stops.has(w)) score += foreign(w) ? 1 : 0;
      else if (w.length > 3 && lookupLatinWord(table, w) !== undefined && foreign(w)) score += 0.5;
    }
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return best;
}
