/**
 * @module worker/search/language/glossary
 *
 * The multilingual glossary (./glossary.json, data maintained by hand) as lookup tables, built
 * once per isolate on first use: per CJK language a form -> English map for longest-match
 * segmentation, per Latin-script language whole-word phrases and prefixes (`verific*`), and the
 * stopword sets the detector counts.
 */
import glossary from "./glossary.json";

/** Languages the glossary covers besides English (ISO 639-1). */
export const GLOSSARY_LANGUAGES = ["zh", "ja", "ko", "es", "pt", "de", "fr"] as const;
/** A glossary language. */
export type GlossaryLanguage = (typeof GLOSSARY_LANGUAGES)[number];
/** Languages written without spaces between words (or, Korean, with particles glued to words): matched inside the text. */
export const CJK_LANGUAGES: ReadonlySet<string> = new Set(["zh", "ja", "ko"]);
/** Languages written in Latin script, told apart by stopwords. */
export const LATIN_LANGUAGES = ["es", "pt", "de", "fr"] as const;

/** One glossary entry as stored: `en` (space-separated English words) and each language's forms. */
type RawTerm = { en: string } & Partial<Record<GlossaryLanguage, string[]>>;

/** Lookup tables of one language. */
export interface LanguageTable {
  /** CJK: form -> English; Latin: whole phrase (words joined by one space, folded) -> English. */
  exact: Map<string, string>;
  /** Latin only: [prefix, English], longest prefix first. */
  prefixes: [string, string][];
  /** Longest form in characters (CJK) or words (Latin). */
  maxLength: number;
}

/**
 * Folds a Latin-script word for lookup: NFD, accents removed, lowercase (`Überprüfung` ->
 * `uberprufung`). Not for CJK: NFD would split Japanese voiced kana and Hangul syllables.
 */
export function foldLatin(word: string): string {
  return word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

let tables: Map<string, LanguageTable> | null = null;
let stopwords: Map<string, Set<string>> | null = null;

function build(): Map<string, LanguageTable> {
  const out = new Map<string, LanguageTable>();
  for (const lang of GLOSSARY_LANGUAGES) {
    const t: LanguageTable = { exact: new Map(), prefixes: [], maxLength: 0 };
    const cjk = CJK_LANGUAGES.has(lang);
    for (const term of glossary.terms as RawTerm[]) {
      for (const raw of term[lang] ?? []) {
        const form = cjk ? raw.toLowerCase() : foldLatin(raw).replace(/['’]/g, " ").replace(/\s+/g, " ").trim();
        if (!cjk && form.endsWith("*")) {
          t.prefixes.push([form.slice(0, -1), term.en]);
          continue;
        }
        // The first entry to claim a form keeps it: entries are ordered from specific to general.
        if (!t.exact.has(form)) t.exact.set(form, term.en);
        t.maxLength = Math.max(t.maxLength, cjk ? form.length : form.split(" ").length);
      }
    }
    t.prefixes.sort((a, b) => b[0].length - a[0].length);
    out.set(lang, t);
  }
  return out;
}

/** The lookup tables of `lang` (built on first use). */
export function tableOf(lang: GlossaryLanguage): LanguageTable {
  tables ??= build();
  return tables.get(lang)!;
}

/** The stopwords of `lang` (`en` and the Latin-script languages), folded. Empty for CJK. */
export function stopwordsOf(lang: string): Set<string> {
  stopwords ??= new Map(Object.entries(glossary.stopwords as Record<string, string[]>).map(([l, ws]) => [l, new Set(ws.map(foldLatin))]));
  return stopwords.get(lang) ?? new Set();
}

/** The English of one folded Latin-script word: its exact form, else the longest prefix form it starts with. */
export function lookupLatinWord(table: LanguageTable, word: string): string | undefined {
  const exact = table.exact.get(word);
  if (exact !== undefined) return exact;
  for (const [prefix, en] of table.prefixes) if (word.startsWith(prefix)) return en;
  return undefined;
}

/** Glossary size, for docs and tests: entries and forms per language. */
export function glossaryStats(): { entries: number; forms: Record<string, number> } {
  const forms: Record<string, number> = {};
  for (const lang of GLOSSARY_LANGUAGES) forms[lang] = (glossary.terms as RawTerm[]).reduce((n, t) => n + (t[lang]?.length ?? 0), 0);
  return { entries: glossary.terms.length, forms };
}
