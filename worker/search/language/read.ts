/**
 * @module worker/search/language/read
 *
 * The offline language reader: a query mostly written in Chinese, Japanese, Korean, Spanish,
 * Portuguese, German or French becomes English code-search words through the glossary
 * (./glossary.json), so `如何验证签名的 cookie` searches as `how verify signed cookie`. Code
 * passes through untouched: backtick and ASCII-quoted spans, identifier-shaped tokens
 * (`setSignedCookie`, `app.use`, `--verbose`, `a/b.ts`), ASCII runs inside CJK text and lines
 * that are English (a pasted error message). CJK text is segmented by longest glossary match
 * (no spaces to split on; Korean particles stay unmatched); German compounds are split the same
 * way. Words the glossary does not know are dropped and listed in `unmapped`, except English
 * words and proper nouns, which pass. Pure: no I/O, no clock.
 */
import { isEnglishWord } from "../english-words";
import { detectLanguage, type QueryLanguage } from "./detect";
import { CJK_LANGUAGES, foldLatin, lookupLatinWord, stopwordsOf, tableOf, type GlossaryLanguage, type LanguageTable } from "./glossary";

/** One glossary match: the query's words and the English they became. */
export interface MappedTerm {
  source: string;
  english: string;
}

/** What the reader made of a query. */
export interface LanguageReading {
  /** The prose's language; `en` means the query is used as it is. */
  language: QueryLanguage;
  /** The text to search: the query itself for English, else the English words and passed-through code in query order. */
  englishText: string;
  /** Glossary matches, in query order. */
  terms: MappedTerm[];
  /** Code and English kept verbatim (identifiers, quoted spans, English lines and words). */
  passthrough: string[];
  /** Words of the query's language the glossary does not know (dropped). */
  unmapped: string[];
}

/** Backtick spans, and quoted spans whose content is printable ASCII (code, not prose). */
const CODE_SPAN = /`([^`\n]+)`|["“「『]([\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)["”」』]/g;
/** A whitespace token that is code: camelCase, Header-Case, snake_case, dotted or pathed, a call, a flag, digits. */
const IDENTIFIER = /[a-z][A-Z]|^\p{Lu}[a-z]+-\p{Lu}|\w_\w|[A-Za-z]\.[A-Za-z]|[/\\:]|\(\)|^--?[a-z]|\d|[<>=[\]{}#$@]/u;
/** A run of CJK letters (Han, kana, Hangul) with the marks and prolonged sound signs inside words. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;
const TRIM_PUNCT = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
/** Sentence punctuation around a Latin-script token (a leading - or . belongs to a flag or a path). */
const TOKEN_PUNCT = /^[¿¡"'“”«»‘’([]+|[.,;:!?"'“”«»‘’)\]]+$/gu;
/** Shortest piece of a German compound that counts as a word of it. */
const MIN_COMPOUND_PART = 4;

/** Reads `text`; see the module comment. English (or code-only) text comes back unchanged. */
export function readQueryLanguage(text: string): LanguageReading {
  const spans: string[] = [];
  const prose = text.replace(CODE_SPAN, (_m, a?: string, b?: string) => {
    spans.push((a ?? b)!);
    return ` \u0000${spans.length - 1}\u0000 `;
  });
  const language = detectLanguage(prose.replace(/\u0000\d+\u0000/g, " "));
  const reading: LanguageReading = { language, englishText: text, terms: [], passthrough: [], unmapped: [] };
  if (language === "en") return reading;
  const out: string[] = [];
  const keep = (s: string) => {
    const t = s.trim();
    if (!t) return;
    out.push(t);
    reading.passthrough.push(t);
  };
  const map = (source: string, english: string) => {
    out.push(english);
    reading.terms.push({ source, english });
  };
  // Code spans come back in place, between the prose around them.
  for (const piece of prose.split(/\u0000(\d+)\u0000/)) {
    if (/^\d+$/.test(piece)) keep(spans[Number(piece)]);
    else if (CJK_LANGUAGES.has(language)) readCjk(piece, tableOf(language), keep, map, reading.unmapped);
    else readLatin(piece, language, keep, map, reading.unmapped);
  }
  reading.englishText = dedupeWords(out).join(" ") || text;
  return reading;
}

type Keep = (s: string) => void;
type MapTerm = (source: string, english: string) => void;

/** CJK prose: non-CJK runs pass whole; CJK runs are segmented by longest glossary match. */
function readCjk(piece: string, table: LanguageTable, keep: Keep, map: MapTerm, unmapped: string[]): void {
  let i = 0;
  let ascii = "";
  let unknown = "";
  const flushUnknown = () => {
    if (unknown) unmapped.push(unknown);
    unknown = "";
  };
  const flushAscii = () => {
    if (ascii.replace(TRIM_PUNCT, "").trim()) keep(ascii.replace(/^[\s\p{P}]+|[\s,.;:!?。、，？！]+$/gu, ""));
    ascii = "";
  };
  while (i < piece.length) {
    const ch = piece[i];
    if (!CJK_CHAR.test(ch) && !/[\u3000-\u303f\uff00-\uffef]/.test(ch)) {
      flushUnknown();
      ascii += ch;
      i++;
      continue;
    }
    flushAscii();
    let hit = 0;
    for (let len = Math.min(table.maxLength, piece.length - i); len > 0; len--) {
      const form = piece.slice(i, i + len);
      const en = table.exact.get(form.toLowerCase());
      if (en !== undefined) {
        flushUnknown();
        map(form, en);
        hit = len;
        break;
      }
    }
    if (hit) i += hit;
    else {
      // CJK punctuation ends an unknown run; a letter extends it.
      if (CJK_CHAR.test(ch)) unknown += ch;
      else flushUnknown();
      i++;
    }
  }
  flushUnknown();
  flushAscii();
}

/** Latin-script prose, line by line: English lines pass whole, others word by word. */
function readLatin(piece: string, language: GlossaryLanguage, keep: Keep, map: MapTerm, unmapped: string[]): void {
  const table = tableOf(language);
  const stops = stopwordsOf(language);
  for (const line of piece.split("\n")) {
    if (!line.trim()) continue;
    // An English line needs English evidence (two stopwords, or code and three words: an error
    // message); a fragment between code spans ("gesetzt?") has none.
    const evidence = englishStopwords(line) >= 2 || (line.split(/\s+/).some((t) => IDENTIFIER.test(t)) && line.trim().split(/\s+/).length >= 3);
    if (evidence && detectLanguage(line) === "en" && !hasOwnWords(line, language)) {
      keep(line);
      continue;
    }
    // Words in order; an identifier-shaped token is one word, kept whole.
    const words: { raw: string; folded: string; code: boolean; first: boolean }[] = [];
    let sentenceStart = true;
    for (const token of line.split(/\s+/)) {
      if (/^[¿¡]/.test(token)) sentenceStart = true; // a Spanish question or exclamation opens a sentence
      const bare = token.replace(TOKEN_PUNCT, "");
      if (!bare) continue;
      if (IDENTIFIER.test(bare) && !glossaryHyphenated(bare, table)) words.push({ raw: bare, folded: "", code: true, first: false });
      else {
        for (const w of bare.match(/[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*/gu) ?? []) {
          words.push({ raw: w, folded: foldLatin(w), code: false, first: sentenceStart });
          sentenceStart = false;
        }
      }
      if (/[.!?:]$/.test(token)) sentenceStart = true;
    }
    for (let i = 0; i < words.length;) {
      const w = words[i];
      if (w.code) {
        keep(w.raw);
        i++;
        continue;
      }
      // The longest phrase first ("mot de passe", "linea de comandos").
      let n = Math.min(table.maxLength, words.length - i);
      for (; n > 1; n--) {
        const slice = words.slice(i, i + n);
        if (slice.some((x) => x.code)) continue;
        const en = table.exact.get(slice.map((x) => x.folded).join(" "));
        if (en !== undefined) {
          map(slice.map((x) => x.raw).join(" "), en);
          break;
        }
      }
      if (n > 1) {
        i += n;
        continue;
      }
      readLatinWord(w, language, table, stops, keep, map, unmapped);
      i++;
    }
  }
}

/** How many English stopwords `line` holds. */
function englishStopwords(line: string): number {
  const en = stopwordsOf("en");
  return (line.match(/[\p{L}\p{M}]+/gu) ?? []).filter((w) => en.has(foldLatin(w))).length;
}

/** A Header-Case token whose parts are words of the language ("Sicherheits-Header"), not a header name ("Content-Type"). */
function glossaryHyphenated(token: string, table: LanguageTable): boolean {
  if (!/^\p{Lu}[a-z]+-\p{Lu}/u.test(token) || /[^\p{L}-]/u.test(token)) return false;
  return token.split("-").some((part) => {
    const f = foldLatin(part);
    return f.length > 3 && (table.exact.has(f) || table.prefixes.some(([p]) => f.startsWith(p) && f.length - p.length <= 3));
  });
}

/** Whether `line` holds a stopword or glossary word of `language` that is not English too. */
function hasOwnWords(line: string, language: GlossaryLanguage): boolean {
  const stops = stopwordsOf(language);
  const en = stopwordsOf("en");
  return (line.match(/[\p{L}\p{M}]+/gu) ?? []).some((w) => {
    const f = foldLatin(w);
    return stops.has(f) && !en.has(f) && !isEnglishWord(f);
  });
}

function readLatinWord(
  w: { raw: string; folded: string; first: boolean },
  language: GlossaryLanguage,
  table: LanguageTable,
  stops: Set<string>,
  keep: Keep,
  map: MapTerm,
  unmapped: string[],
): void {
  if (stops.has(w.folded) && !table.exact.has(w.folded)) return;
  // German compounds first: "Signaturprüfung" is two words, not the prefix "signatur*".
  if (language === "de" && splitCompound(w.raw, w.folded, table, map)) return;
  const en = table.exact.get(w.folded) ?? lookupLatinWord(table, w.folded);
  if (en !== undefined) return map(w.raw, en);
  if (w.folded.includes("-")) {
    for (const part of w.raw.split("-")) readLatinWord({ raw: part, folded: foldLatin(part), first: false }, language, table, stops, keep, map, unmapped);
    return;
  }
  if (isEnglishWord(w.folded)) return keep(w.raw);
  // A capitalized word inside a sentence names something (Hono, Flask), except in German, which capitalizes every noun.
  if (language !== "de" && !w.first && /^\p{Lu}/u.test(w.raw)) return keep(w.raw);
  unmapped.push(w.raw);
}

/**
 * A German compound as glossary words by longest match ("Signaturprüfung": signature verify):
 * an inner part is an exact form or a prefix stem, with a linking s ("Sitzungs-"); the last part
 * may add an ending of up to MAX_ENDING letters ("konfiguriert"). False when no part matches.
 */
function splitCompound(raw: string, folded: string, table: LanguageTable, map: MapTerm): boolean {
  let found = false;
  for (let i = 0; i < folded.length;) {
    let hit = 0;
    for (let end = folded.length; end - i >= MIN_COMPOUND_PART; end--) {
      const part = folded.slice(i, end);
      const en = table.exact.get(part) ?? stemOf(table, part, end === folded.length ? MAX_ENDING : 1);
      if (en !== undefined) {
        map(raw.slice(i, end), en);
        hit = end - i;
        found = true;
        break;
      }
    }
    i += hit || 1;
  }
  return found;
}

/** Most letters an inflection adds to a prefix stem at the end of a compound. */
const MAX_ENDING = 3;

/** The English of a prefix stem that `part` is, plus at most `ending` letters (inside a compound: a linking s). */
function stemOf(table: LanguageTable, part: string, ending: number): string | undefined {
  return table.prefixes.find(
    ([p]) => part.startsWith(p) && (part.length === p.length || (part.length - p.length <= ending && (ending > 1 || part.endsWith("s")))),
  )?.[1];
}

/** Words in order with repeats removed (each English word once; multi-word pieces split). */
function dedupeWords(pieces: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const piece of pieces) {
    // Passed-through code keeps its spaces; mapped English is split so that words repeat once.
    if (/[^\w\s-]/.test(piece) || piece.includes("  ")) {
      if (!seen.has(piece)) out.push(piece);
      seen.add(piece);
      continue;
    }
    for (const word of piece.split(/\s+/)) {
      if (!word || seen.has(word.toLowerCase())) continue;
      seen.add(word.toLowerCase());
      out.push(word);
    }
  }
  return out;
}
