/**
 * @module worker/search/readers/question
 *
 * The question reader: a question in prose ("where is the router built", "how are retries
 * configured"), the reader of every text no other reader accepts. A question may ask for tests,
 * supporting files, an entry point or imports; it quotes phrases to find; the definitions it
 * names are what it asks for (the per-file cap does not hide them, the gate counts them as
 * named); a `Type.member` it writes is an address (the qualified stage).
 */
import { isQueryStopWord } from "../../../indexer/store/contract";
import { asksForEntryPoint } from "./entry-question";
import { MAX_MESSAGE_PHRASES, messagePhrases, quotedPhrases } from "../error-messages";
import { isTestPath } from "../filters";
import type { QueryPlan } from "../plan";
import { CHANNEL_WEIGHTS } from "../ranking/weights";
import { askedSupportKinds, supportKind } from "../support-prior";
import { TEST_WORDS } from "./code-marks";
import { readWords, termCounts, type TextFacts } from "./reading";
import type { QueryReader } from "./reader";

/** Exception messages' literal runs, then double-quoted phrases, at most MAX_MESSAGE_PHRASES. */
function phrasesOf(raw: string): string[] {
  const messages = messagePhrases(raw);
  const seen = new Set(messages.map((m) => m.toLowerCase()));
  return [...messages, ...quotedPhrases(raw).filter((q) => !seen.has(q.toLowerCase()))].slice(0, MAX_MESSAGE_PHRASES);
}

/**
 * The plan of a text read as a question, under the name `reader`: the question reader's, and
 * the identifier reader's (a query of names only is read the same way; its plan differs by name).
 */
export function questionPlan(f: TextFacts, reader: string): QueryPlan {
  const words = readWords(f, { locals: new Set(), compounds: () => [], twoPartModules: false });
  // Words, not identifiers' parts: `TestMode` and `TestClient` name code, not tests; a test
  // file's path (`mode_test.go`) asks for tests.
  const mentionsTests = f.words.some((w) => TEST_WORDS.has(w.toLowerCase())) || words.pathHints.some((p) => isTestPath(p));
  const functionWords = new Set(
    f.text
      .toLowerCase()
      .match(/[a-z]+(?:'[a-z]+)?/g)
      ?.filter((w) => isQueryStopWord(w)),
  ).size;
  const spelledNames = [...new Set([...f.code, ...f.qualified.map((q) => q.name)].map((n) => n.toLowerCase()))];
  const query = {
    text: f.text,
    ...words,
    mentionsTests,
    isReport: false,
    titleNames: [],
    fewestDefinitionsFirst: false,
    callee: null,
    phrases: phrasesOf(f.raw),
    qualified: f.qualified,
    receivers: [],
    functionWords,
    spelledNames,
  };
  const entryQuestion = asksForEntryPoint(f.text);
  return {
    reader,
    query,
    terms: { counts: termCounts(f.raw), selectionCodeTerms: undefined, weightCodeTerms: new Set(query.codeTerms) },
    fusion: { ...CHANNEL_WEIGHTS },
    // A question's frames are not looked up: a question pastes a frame to ask about it, not to say where it failed.
    evidence: { frames: [], callee: null, options: query.optionFlags, messages: query.phrases, entryPoints: entryQuestion },
    stages: {
      coverage: { report: false },
      support: { spared: [...new Set([...askedSupportKinds(f.text), ...words.pathHints.flatMap((h) => supportKind(h) ?? [])])], codeInDocs: true },
      fileEvidence: false,
      trace: false,
      qualified: true,
      receivers: [],
      defect: { prose: true },
    },
    // A definition a question names (`redisReconnect`, `LineBuffer::fill`) is what it asks for.
    capExempt: query.identifiers,
    gate: { isReport: false, entryQuestion, functionWords, spelledNames },
    includeTests: mentionsTests,
  };
}

export const questionReader: QueryReader = {
  name: "question",
  accepts: () => true,
  read: (f) => questionPlan(f, "question"),
};
