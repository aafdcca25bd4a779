/**
 * @module worker/search/gate
 *
 * The confidence gate: results are trusted ("high") unless both the lexical evidence (term
 * coverage: the share of query terms that occur in the results) and the semantic evidence
 * (the best vector similarity) are below their thresholds. When the vectors come from a lexical
 * embedder (the local hashed one: character trigrams, no meaning), a term coverage of 0 is low
 * whatever the similarity: gibberish shares trigrams with code (`zxqvbn florp wibble` scored
 * 0.32 on hono) and such a similarity is no evidence of an answer.
 *
 * The lexical and vector channels must also agree on one of the first results when the words
 * are found: `channelAgreement` (the best max(bm25 rank, vector rank) of the first 3) above
 * `maxAgreementRank` is low. `bestChunkCoverage` (the share the best single result holds) is
 * reported in `confidence.signals` but decides nothing: measured, it did not separate answerable
 * from unanswerable questions (docs/evaluation.md, "Confidence gate calibration").
 *
 * Lexical evidence is also weighed by information: the IDF-weighted share of the query's terms
 * found in the results, a term absent from every searched snapshot weighing most (IDF at df 0).
 * A question that reuses a corpus's vocabulary but asks for something absent ("where is the
 * Redis store of the cache middleware") finds its common words everywhere, so the plain share is
 * high, but the word that says what it asks for, rare or absent, is missing. With a lexical
 * embedder that weighted share alone decides (its similarity is the same evidence again, of
 * trigrams); thresholds and their measurement in ranking/weights.ts.
 *
 * A question that names something no searched snapshot contains at all is low whatever the
 * embedder (`absentNames`): "redis", "pydantic" or "graphql" absent from every chunk, by stem
 * prefix too, says the repos lack what it asks for, while an absent English word ("postpone")
 * is only the asker's wording. Pure.
 */
import { tokenize } from "../../indexer/store/contract";
import { isEnglishWord } from "./english-words";
import { idf } from "./terms";
import { isToolingPath } from "./entry-points";
import { ABSENT_NAME, ENTRY_GATE_TOP, GATE_THRESHOLDS } from "./ranking/weights";
import type { Confidence } from "./types";

/** Inputs of the gate. */
export interface GateInput {
  /** Query terms (after selection; for short queries, all terms). */
  terms: string[];
  /** Texts of the returned results (path, symbol and code), used for coverage. */
  resultTexts: string[];
  /**
   * Token sets of the same results (`tokenize` of each text), when the caller has them cached;
   * then `resultTexts` is not tokenized again (only its length is read).
   */
  resultTokens?: ReadonlySet<string>[];
  /**
   * Whether the vector scores come from a lexical embedder (character trigrams and tokens, e.g.
   * local-hash-v1): then they cannot carry a result list that contains no query term.
   */
  lexicalVectors?: boolean;
  /** Best vector similarity, null when the vector channel did not run. */
  bestVectorScore: number | null;
  /**
   * Document frequencies of the searched snapshots and their chunk count, for the IDF-weighted
   * coverage (a term without an entry is absent: df 0). Without them only the plain share counts.
   */
  df?: ReadonlyMap<string, number>;
  totalDocs?: number;
  thresholds?: typeof GATE_THRESHOLDS;
  /**
   * Whether the question asks where the program starts (worker/search/entry-points.ts), with the
   * results' paths and whether each is an entry the repository declares: then a list led by a
   * build or tooling script, with no entry in its top ENTRY_GATE_TOP, is not an answer.
   */
  entryQuestion?: boolean;
  resultPaths?: string[];
  resultIsEntry?: boolean[];
  /** Whether the query is a pasted bug report: its words describe symptoms over many files, so scattered evidence is no sign of absence. */
  isReport?: boolean;
  /**
   * Whether each result is named by the query or the repo rather than found by the channels (a
   * trace, option or message anchor, a declared entry, a definition whose name the question
   * writes as code): such a result needs no agreement. The lexical channel finds a named
   * definition by its name, while a lexical embedder's trigrams of a long body need not place it
   * near the question (fmt's `for_each_codepoint`, docs/evaluation.md "Fourth round").
   */
  resultNamed?: boolean[];
  /** Channel ranks of each result (`ranks` of the response), for the channels' agreement. */
  resultRanks?: Partial<Record<string, number>>[];
  /**
   * Distinct English function words of the question (ParsedQuery.functionWords): the absent-name
   * rule reads only English prose, at least ABSENT_NAME.minFunctionWords of them.
   */
  functionWords?: number;
}

/** The signals the gate reads besides the plain coverage and the similarity (`confidence.signals`). */
export interface GateSignals {
  weightedCoverage: number | null;
  bestChunkCoverage: number | null;
  channelAgreement: number | null;
}

/**
 * The IDF-weighted share of `terms` that the best single result holds (terms absent from the
 * snapshots weigh as df 0): a question's rare words meet in the chunk that answers it, while a
 * question about something absent finds them, if at all, scattered over files. Null without statistics.
 */
export function bestChunkCoverage(
  terms: string[],
  sets: readonly ReadonlySet<string>[],
  df: ReadonlyMap<string, number> | undefined,
  totalDocs: number | undefined,
): number | null {
  if (!df || !totalDocs || !terms.length || !sets.length) return null;
  const weights = terms.map((t) => idf(df.get(t) ?? 0, totalDocs));
  const all = weights.reduce((a, b) => a + b, 0);
  if (all <= 0) return null;
  let best = 0;
  for (const set of sets) {
    let found = 0;
    terms.forEach((t, i) => {
      if (set.has(t)) found += weights[i];
    });
    best = Math.max(best, found / all);
  }
  return best;
}

/** The best max(bm25 rank, vector rank) over the first `top` results that both channels found; null when none. */
export function channelAgreement(ranks: readonly Partial<Record<string, number>>[], top: number): number | null {
  let best: number | null = null;
  for (const r of ranks.slice(0, top)) {
    if (r.bm25 === undefined || r.vector === undefined) continue;
    const both = Math.max(r.bm25, r.vector);
    if (best === null || both < best) best = both;
  }
  return best;
}

/** IDF-weighted share of `terms` not in `missing` (absent terms weigh as df 0); null without statistics. */
export function weightedCoverage(
  terms: string[],
  missing: ReadonlySet<string>,
  df: ReadonlyMap<string, number> | undefined,
  totalDocs: number | undefined,
): number | null {
  if (!df || !totalDocs || !terms.length) return null;
  let all = 0;
  let found = 0;
  for (const t of terms) {
    const w = idf(df.get(t) ?? 0, totalDocs);
    all += w;
    if (!missing.has(t)) found += w;
  }
  return all > 0 ? found / all : null;
}

/**
 * The terms of a question that name something absent from every searched snapshot: no `df`
 * entry (term-stats.ts gives one to a term whose stem prefix occurs, so `queuing` is present
 * where `queue` is), only letters and at least ABSENT_NAME.minChars of them (`s3`, `404s` and
 * GraphQL's `ql` say too little), and not an English word. Terms in query order, unique.
 */
export function absentNames(terms: readonly string[], df: ReadonlyMap<string, number>): string[] {
  return [...new Set(terms)].filter((t) => t.length >= ABSENT_NAME.minChars && /^[a-z]+$/.test(t) && !df.has(t) && !isEnglishWord(t));
}

/** Computes the confidence of a result list. With no results the level is always low. */
export function confidenceGate(input: GateInput): Confidence {
  const t = input.thresholds ?? GATE_THRESHOLDS;
  const sets = input.resultTokens ?? input.resultTexts.map((text) => new Set(tokenize(text)));
  const missingTerms = input.terms.filter((term) => !sets.some((set) => set.has(term)));
  const termCoverage = input.terms.length ? (input.terms.length - missingTerms.length) / input.terms.length : 0;
  const best = input.bestVectorScore;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const weighted = weightedCoverage(input.terms, new Set(missingTerms), input.df, input.totalDocs);
  const rounded = (x: number | null) => (x === null ? null : round(x));
  const signals: GateSignals = {
    weightedCoverage: rounded(weighted),
    bestChunkCoverage: rounded(bestChunkCoverage(input.terms, sets, input.df, input.totalDocs)),
    channelAgreement: input.resultRanks ? channelAgreement(input.resultRanks, t.agreementTop) : null,
  };
  const base = { termCoverage: round(termCoverage), bestVectorScore: best === null ? null : round(best), missingTerms, signals };
  if (!input.resultTexts.length) return { level: "low", ...base, reason: "No results." };
  const prose = !input.isReport && (input.functionWords ?? 0) >= ABSENT_NAME.minFunctionWords;
  const names = prose && input.df ? absentNames(input.terms, input.df) : [];
  if (names.length) {
    const quoted = names
      .slice(0, 5)
      .map((n) => `"${n}"`)
      .join(", ");
    return {
      level: "low",
      ...base,
      reason: `The question names ${quoted}, which no indexed file of the searched repos contains (nor a word of the same stem): what it asks about is likely not there.`,
    };
  }
  const lexicalWeak = termCoverage < t.minTermCoverage;
  if (termCoverage === 0 && input.lexicalVectors) {
    const why = input.terms.length
      ? `no query term occurs in the results; missing terms: ${missingTerms.slice(0, 10).join(", ")}`
      : "the query has no searchable words";
    const sem = best === null ? "" : ` (the lexical embedder's similarity ${round(best)} is no evidence without them)`;
    return { level: "low", ...base, reason: `Term coverage 0: ${why}${sem}.` };
  }
  if (input.lexicalVectors && weighted !== null && weighted < t.minWeightedCoverage) {
    const miss = missingTerms.length ? `; missing terms: ${missingTerms.slice(0, 10).join(", ")}` : "";
    return {
      level: "low",
      ...base,
      reason: `IDF-weighted term coverage ${round(weighted)} < ${t.minWeightedCoverage}: the query's most informative words are not in the results${miss}.`,
    };
  }
  // Words found apart: the question's informative words are in the results (weighted coverage
  // at least `disagreementMinCoverage`), yet the vector channel ranks none of the first results
  // near where the lexical channel does. An answer's chunk is found by both; words that only
  // occur, each in unrelated code, are found by one channel at a time. A paraphrase without the
  // code's words (low coverage) makes the channels disagree too, so this needs the words found.
  const agree = signals.channelAgreement;
  if (
    input.lexicalVectors &&
    !input.isReport &&
    best !== null &&
    input.resultRanks &&
    weighted !== null &&
    weighted >= t.disagreementMinCoverage &&
    !(input.resultNamed ?? []).slice(0, t.agreementTop).some(Boolean) &&
    (agree === null || agree > t.maxAgreementRank)
  ) {
    const ch = agree === null ? "none of them is found by both" : `the best agree only at rank ${agree}`;
    return {
      level: "low",
      ...base,
      reason: `The channels disagree: the query's words are in the results (IDF-weighted coverage ${round(weighted)}), but no one of the first ${t.agreementTop} results is ranked within ${t.maxAgreementRank} by both the lexical and the vector channel (${ch}): the words occur apart, not in code about one thing.`,
    };
  }
  const semanticWeak = best === null || best < t.minVectorScore;
  if (lexicalWeak && semanticWeak) {
    const sem = best === null ? "no vector evidence" : `best vector similarity ${round(best)} < ${t.minVectorScore}`;
    const miss = missingTerms.length ? `; missing terms: ${missingTerms.slice(0, 10).join(", ")}` : "";
    return { level: "low", ...base, reason: `Term coverage ${round(termCoverage)} < ${t.minTermCoverage} and ${sem}${miss}.` };
  }
  const paths = input.resultPaths ?? [];
  if (input.entryQuestion && paths.length && isToolingPath(paths[0]) && !(input.resultIsEntry ?? []).slice(0, ENTRY_GATE_TOP).some(Boolean)) {
    return {
      level: "low",
      ...base,
      reason: `The question asks where the program starts, but the top result (${paths[0]}) is a build or tooling script and none of the top ${ENTRY_GATE_TOP} is an entry the repository declares (manifest, main function or conventional name).`,
    };
  }
  const why = !lexicalWeak ? `term coverage ${round(termCoverage)} >= ${t.minTermCoverage}` : `best vector similarity ${round(best!)} >= ${t.minVectorScore}`;
  const idfNote = weighted === null ? "" : ` (IDF-weighted ${round(weighted)})`;
  return { level: "high", ...base, reason: `Evidence: ${why}${idfNote}.` };
}
