/**
 * @module worker/search/gate
 *
 * The confidence gate: results are trusted ("high") unless both the lexical evidence (term
 * coverage: the share of query terms that occur in the results) and the semantic evidence
 * (the best vector similarity) are below their thresholds. When the vectors come from a lexical
 * embedder (the local hashed one: character trigrams, no meaning), a term coverage of 0 is low
 * whatever the similarity: gibberish shares trigrams with code (`zxqvbn florp wibble` scored
 * 0.32 on hono) and such a similarity is no evidence of an answer. Pure.
 */
import { tokenize } from "../../indexer/store/contract";
import { GATE_THRESHOLDS } from "./ranking/weights";
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
  thresholds?: typeof GATE_THRESHOLDS;
}

/** Computes the confidence of a result list. With no results the level is always low. */
export function confidenceGate(input: GateInput): Confidence {
  const t = input.thresholds ?? GATE_THRESHOLDS;
  const sets = input.resultTokens ?? input.resultTexts.map((text) => new Set(tokenize(text)));
  const missingTerms = input.terms.filter((term) => !sets.some((set) => set.has(term)));
  const termCoverage = input.terms.length ? (input.terms.length - missingTerms.length) / input.terms.length : 0;
  const best = input.bestVectorScore;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const base = { termCoverage: round(termCoverage), bestVectorScore: best === null ? null : round(best), missingTerms };
  if (!input.resultTexts.length) return { level: "low", ...base, reason: "No results." };
  const lexicalWeak = termCoverage < t.minTermCoverage;
  if (termCoverage === 0 && input.lexicalVectors) {
    const why = input.terms.length
      ? `no query term occurs in the results; missing terms: ${missingTerms.slice(0, 10).join(", ")}`
      : "the query has no searchable words";
    const sem = best === null ? "" : ` (the lexical embedder's similarity ${round(best)} is no evidence without them)`;
    return { level: "low", ...base, reason: `Term coverage 0: ${why}${sem}.` };
  }
  const semanticWeak = best === null || best < t.minVectorScore;
  if (lexicalWeak && semanticWeak) {
    const sem = best === null ? "no vector evidence" : `best vector similarity ${round(best)} < ${t.minVectorScore}`;
    const miss = missingTerms.length ? `; missing terms: ${missingTerms.slice(0, 10).join(", ")}` : "";
    return { level: "low", ...base, reason: `Term coverage ${round(termCoverage)} < ${t.minTermCoverage} and ${sem}${miss}.` };
  }
  const why = !lexicalWeak ? `term coverage ${round(termCoverage)} >= ${t.minTermCoverage}` : `best vector similarity ${round(best!)} >= ${t.minVectorScore}`;
  return { level: "high", ...base, reason: `Evidence: ${why}.` };
}
