/**
 * @module worker/search/ranking/gate-thresholds
 *
 * The confidence gate's thresholds (worker/search/gate.ts), each with the measurement that chose
 * it. Re-exported by ranking/weights.ts, where every weight and threshold of search is imported
 * from; here because the gate decides whether a result list is confident, not its order.
 */

/**
 * The confidence gate's thresholds (worker/search/gate.ts): low when term coverage is below
 * `minTermCoverage` and the best vector similarity below `minVectorScore` (local-hash-v1 scale).
 */
export const GATE_THRESHOLDS = {
  /** Term coverage below this counts as weak lexical evidence. */
  minTermCoverage: 0.5,
  /** Best cosine similarity below this counts as weak semantic evidence (local-hash-v1 scale). */
  minVectorScore: 0.3,
  /**
   * With a lexical embedder: IDF-weighted term coverage (absent terms at df 0) below this is low
   * whatever the plain share and the similarity. Chosen from one run at 0a10881 of the
   * unanswerable sets (28 questions on hono, click, flask, requests), the fixture set and hono-50
   * (docs/evaluation.md, "Confidence gate calibration"): 0.2 / 0.25 / 0.3 refused 3 / 5 / 6 of 28
   * new unanswerable questions and 3 / 4 / 4 of the fixture's 8, and wrongly refused 1 / 1 / 3 of
   * hono-50's 50 and 2 / 2 / 2 of the fixture's 34 (1 at 0). Paraphrased questions without the
   * code's words look like unanswerable ones to a lexical embedder: the overlap is why it is low.
   */
  minWeightedCoverage: 0.25,
  /**
   * With a lexical embedder, for a question (not a report): low when the IDF-weighted coverage is
   * at least `disagreementMinCoverage` (the words are found) but no one of the first
   * `agreementTop` results is ranked within `maxAgreementRank` by both the lexical and the vector
   * channel. Chosen on one run at 7de9c4d that recorded every question's signals
   * (docs/evaluation.md, "Confidence gate calibration"): over the calibration questions (36
   * unanswerable: the first 28 and the fixture's 8; 152 answerable: fixture, hono-50 under both
   * rules, polyglot click and gin) rank 10 / 15 / 20 / 28 refused 8 / 6 / 5 / 3 more unanswerable
   * and 2 / 2 / 1 / 0 more answerable ones; 20 is also RANK_STABLE_K. Coverage 0.45 keeps the
   * paraphrases (hono-50's q34 and q40, coverage 0.37 to 0.40), whose words the code lacks and
   * which the channels disagree on too.
   */
  disagreementMinCoverage: 0.45,
  /** Rank within which both channels must put one of the first `agreementTop` results for them to agree. */
  maxAgreementRank: 20,
  /** Results read for the channels' agreement. */
  agreementTop: 3,
};

/**
 * The gate's absent-name rule (worker/search/gate.ts, `absentNames`): a question's term that no
 * searched snapshot holds, of at least `minChars` letters and not an English word
 * (worker/search/english-words.ts), names something the repos do not have. It applies only to a
 * question in English prose, with at least `minFunctionWords` distinct English function words
 * (ParsedQuery.functionWords): a question in another language (whose every word is "not
 * English") and a keyword or identifier query are left to the other rules. Measured in
 * docs/evaluation.md, "Confidence gate calibration", third round.
 */
export const ABSENT_NAME = { minChars: 3, minFunctionWords: 2 };
