/**
 * @module worker/search/plan
 *
 * The typed query plan between reading and ranking (issue #46, after zoekt's query tree with
 * boost nodes): a reader (worker/search/readers/) turns the query text into a `QueryPlan` once,
 * and the engine (worker/search/engine/) runs any plan without asking what kind of query it came
 * from. Every kind-dependent choice (term weighting, fusion weights, evidence to look up, which
 * ranking stages apply and how, the per-file cap's exemptions, the gate's rules, default
 * filters) is a field here, set by the reader. Types only.
 */
import type { StackFrame, Callee } from "./stack-frames";
import type { SupportKind } from "./support-prior";
import type { ChannelName } from "./types";

/** A member named with its container: `container.name`, `container::name` or `container#name`. */
export interface QualifiedName {
  container: string;
  name: string;
}

/** What a reader read in the query: the words the channels and the stages look up (`ChannelScope.query`). */
export interface ParsedQuery {
  /** The query text: markup and environment listings removed, long paths shortened (stripMarkup, stripListings, shortenPaths). */
  text: string;
  /** Query-side tokens (tokenizeQuery): stop words and a report's own aliases and placeholders (reporterLocals) dropped, deduplicated. */
  terms: string[];
  /** Candidate symbol names, most code-like first (original case kept). */
  identifiers: string[];
  /** Lowercased path fragments named in the query: `src/router`, `router.ts`. */
  pathHints: string[];
  /** Whether a question (not a report) talks about tests (then tests are not excluded by default). */
  mentionsTests: boolean;
  /**
   * Whether the report reader read it (a pasted bug report: more than 24 terms, or at least 6 in
   * a text shaped like a report). Kept for the readers and their tests: nothing after the readers
   * reads it (the plan's fields say what follows from it; eslint forbids reading it elsewhere).
   */
  isReport: boolean;
  /**
   * Query tokens the text marks as code (codeEvidenceWords): their rarity in the index is
   * evidence, unlike a rare English word's (terms.ts).
   */
  codeTerms: string[];
  /** Lowercased names the first line (a report's title) marks as code (codeNames); empty but for the report reader. */
  titleNames: string[];
  /**
   * Whether the symbol channel ranks, among equally named definitions, the names defined fewest
   * times first (the report reader: a report names many things, its rarest are most specific).
   */
  fewestDefinitionsFirst: boolean;
  /** Stack frames pasted in the query, innermost first (parseStackFrames). */
  frames: StackFrame[];
  /** The function a Python `TypeError` says a call's arguments did not bind to (signatureCallee); null but for the report reader. */
  callee: Callee | null;
  /** Long command-line options written in the query (`--collect-only`), as written (optionFlags). */
  optionFlags: string[];
  /**
   * Literal runs to look up as phrases: of pasted exception messages (messagePhrases) and, in a
   * question, of double-quoted phrases (quotedPhrases); at most MAX_MESSAGE_PHRASES.
   */
  phrases: string[];
  /** Members written with their container (`JsonReader.skipValue`, `LineBuffer::fill`, `Base#compile!`), as written (qualifiedNames). */
  qualified: QualifiedName[];
  /**
   * Members a report's code uses on an object it constructed, of a class its title names ("Wrong
   * Derivative kind attribute", `d = Derivative(A, x)`, `d.kind`; receiverMembers); empty but for the report reader.
   */
  receivers: QualifiedName[];
  /**
   * Distinct English function words of the query ("where", "does", "the": the query stop list,
   * isQueryStopWord): English prose has several, a keyword or identifier query and a question in
   * another language few or none (the gate's absent-name rule reads it). 0 for a report.
   */
  functionWords: number;
  /**
   * Lowercased names the text writes as code (codeNames: identifier-shaped words, dotted names'
   * parts, calls, inline code; and qualified members' names), unlike `identifiers` without the
   * joined runs of prose words: a result whose symbol is one of them is the thing the question
   * names (the gate's agreement rule, worker/search/gate.ts). Empty for a report.
   */
  spelledNames: string[];
}

/** How the query's terms are weighed and selected (worker/search/terms.ts). */
export interface TermPlan {
  /** Occurrences of each query term in the text, a multi-line text's first line (its title) counted three times: BM25's query-term frequency. */
  counts: Map<string, number>;
  /** Terms marked as code that term selection favours (the others' IDF capped, unmarked numbers left out: selectTerms); undefined: plain IDF selection. */
  selectionCodeTerms: ReadonlySet<string> | undefined;
  /** Terms whose IDF the coverage stage leaves uncapped (proseCappedDf): the others are English. */
  weightCodeTerms: ReadonlySet<string>;
}

/** The evidence a plan asks the engine to look up in the index, each for the stages that read it. */
export interface EvidencePlan {
  /** Stack frames whose chunks to find (stack-trace.ts); empty: none. */
  frames: StackFrame[];
  /** The callee a `TypeError` names, read as the trace's innermost frame (withCallee); null: none. */
  callee: Callee | null;
  /** Command-line options whose declaring files to find (option-flags.ts). */
  options: string[];
  /** Message phrases whose raising files to find (error-messages.ts). */
  messages: string[];
  /** Whether to look up the repos' declared entry points (the question asks where the program starts, entry-points.ts). */
  entryPoints: boolean;
}

/** The reader's settings of the ranking stages (worker/search/ranking/); a stage reads only its own element. */
export interface StagePlan {
  /** Coverage (rerank.ts): `report` applies the report prose prior to docs and changelogs. */
  coverage: { report: boolean };
  /** Support prior (support-prior.ts): supporting kinds the query asks for, spared; with `codeInDocs` code in a docs folder is not demoted. */
  support: { spared: SupportKind[]; codeInDocs: boolean };
  /** Whether a file matching in several chunks ranks higher (file-evidence.ts). */
  fileEvidence: boolean;
  /** Whether the files of the pasted trace's frames rank higher (stack-trace.ts). */
  trace: boolean;
  /** Whether the member a query addresses in its container ranks first (qualified-prior.ts). */
  qualified: boolean;
  /** Receivers whose definitions are lifted (receiver-prior.ts); empty: the stage does not run. */
  receivers: QualifiedName[];
  /**
   * The defect stage (ranking/defect.ts), which runs when the query says something is broken:
   * whether prose files are demoted with data and tooling files (not for a report, whose prose
   * the coverage stage's report prior already demotes).
   */
  defect: { prose: boolean };
}

/** What the confidence gate reads of the plan (worker/search/gate.ts, its input fields of the same names). */
export interface GatePlan {
  /** The gate's report rules: scattered evidence is no sign of absence. */
  isReport: boolean;
  /** The gate's entry rule: a list led by tooling with no declared entry is not an answer. */
  entryQuestion: boolean;
  /** English function words (the absent-name rule). */
  functionWords: number;
  /** Lowercased names the query writes as code: a result defining one is named, like an anchor. */
  spelledNames: string[];
}

/** A query plan: what one reader decided for one query text. */
export interface QueryPlan {
  /** The reader that wrote the plan ("question", "report", "identifier", ...); `explain` names it. */
  reader: string;
  /** What the reader read (the channels' `ChannelScope.query`). */
  query: ParsedQuery;
  terms: TermPlan;
  /** RRF weight per channel (fuse.ts), before the request's own overrides. */
  fusion: Partial<Record<ChannelName, number>>;
  evidence: EvidencePlan;
  stages: StagePlan;
  /** Symbols the per-file cap never hides (a definition the question names is what it asks for). */
  capExempt: string[];
  gate: GatePlan;
  /** Filters' defaults: whether tests are searched when the request does not say. */
  includeTests: boolean;
}
