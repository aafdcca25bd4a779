/**
 * @module evals/lib/multilingual
 *
 * The multilingual set (issue 47, evals/sets/multilingual/): every question is asked twice, as
 * written (Chinese, Japanese, Korean, Spanish, Portuguese, German or French) and as the English
 * question it translates, against the same index; the report sets R@1 and R@5 of both side by
 * side per language, and counts how the server read each translated query (glossary, provider,
 * or not at all). Runtime-neutral (the workerd CI test runs it too).
 */
import type { ApiClient } from "./client.ts";
import { runRetrievalSet, type QuestionDetail } from "./evaluate.ts";
import { summarizeRetrieval, type RetrievalSummary } from "./metrics.ts";
import { table } from "./report.ts";
import type { RetrievalSet } from "./types.ts";

/** Language names for the report, by ISO 639-1 code. */
export const LANGUAGE_NAMES: Record<string, string> = {
  zh: "Chinese",
  ja: "Japanese",
  ko: "Korean",
  es: "Spanish",
  pt: "Portuguese",
  de: "German",
  fr: "French",
};

/** The set with each question replaced by its English original. Throws naming a question without one. */
export function englishVersion(set: RetrievalSet): RetrievalSet {
  return {
    ...set,
    questions: set.questions.map((q) => {
      if (!q.english || !q.lang) throw new TypeError(`${set.name} ${q.id}: a multilingual question needs "lang" and "english"`);
      return { ...q, question: q.english };
    }),
  };
}

/** One translated question's outcome beside its English original's, and how the server read it. */
export interface PairedOutcome {
  set: string;
  lang: string;
  translated: QuestionDetail;
  english: QuestionDetail;
  /** `stats.queryLanguage` of the translated search: detected language, glossary or provider, the words searched; null when read as English. */
  reading: { detected: string; via: string; searchedAs: string } | null;
}

/** Asks `set` (indexed as `repo`) in both versions; sequential, like runRetrievalSet. */
export async function runMultilingualSet(client: ApiClient, set: RetrievalSet, repo: string, k = 10): Promise<PairedOutcome[]> {
  const readings = new Map<string, PairedOutcome["reading"]>();
  const translated = await runRetrievalSet(client, set, repo, {
    k,
    onQuestion: (o, _r, response) => readings.set(o.id, response.stats?.queryLanguage ?? null),
  });
  const english = await runRetrievalSet(client, englishVersion(set), repo, { k });
  return set.questions.map((q, i) => ({
    set: set.name,
    lang: q.lang!,
    translated: translated.details[i],
    english: english.details[i],
    reading: readings.get(q.id) ?? null,
  }));
}

/** R@1/R@5 of the translated and English versions over `pairs`. */
export function pairedSummary(pairs: PairedOutcome[]): { translated: RetrievalSummary; english: RetrievalSummary } {
  return { translated: summarizeRetrieval(pairs.map((p) => p.translated)), english: summarizeRetrieval(pairs.map((p) => p.english)) };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The report table: one row per language, one per set, then all; translated beside English. */
export function multilingualMarkdown(pairs: PairedOutcome[]): string {
  const row = (label: string, ps: PairedOutcome[]): string[] => {
    const s = pairedSummary(ps);
    const via = (v: string) => ps.filter((p) => (p.reading?.via ?? "none") === v).length;
    return [
      label,
      String(ps.length),
      pct(s.translated.recall1),
      pct(s.english.recall1),
      pct(s.translated.recall5),
      pct(s.english.recall5),
      `${via("glossary")} / ${via("provider")} / ${via("none")}`,
    ];
  };
  const langs = Object.keys(LANGUAGE_NAMES).filter((l) => pairs.some((p) => p.lang === l));
  const sets = [...new Set(pairs.map((p) => p.set))];
  const rows = [
    ...langs.map((l) =>
      row(
        LANGUAGE_NAMES[l],
        pairs.filter((p) => p.lang === l),
      ),
    ),
    ...sets.map((s) =>
      row(
        `set ${s}`,
        pairs.filter((p) => p.set === s),
      ),
    ),
    row("**All**", pairs),
  ];
  const header = ["Questions", "n", "R@1 translated", "R@1 English", "R@5 translated", "R@5 English", "Read via glossary / provider / as English"];
  const wrongLanguage = pairs.filter((p) => p.reading && p.reading.detected !== p.lang).map((p) => p.translated.id);
  const note = wrongLanguage.length ? `\n\nDetected the wrong language for: ${wrongLanguage.join(", ")}.` : "";
  return table(header, rows) + note;
}
