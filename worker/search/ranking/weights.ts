/**
 * @module worker/search/ranking/weights
 *
 * Every weight, prior, depth and threshold of the ranking, in one place, each with the source or
 * the measurement that chose it (docs/ranking.md, "Weights", lists them with the same figures;
 * the experiment rounds named are in docs/experiments/). The modules that apply them import them
 * from here and hold no ranking constant of their own; limits that only bound work (cache sizes,
 * ids per statement, lookups per query) stay beside the code they bound; the confidence gate's
 * thresholds are in ranking/gate-thresholds.ts, re-exported here. Changing a value here
 * changes results: re-run the golden ranks (`npx vitest run evals/rank-golden.test.ts`) and the
 * eval tables (docs/evaluation.md) and say which figures moved.
 */
import type { ChannelName } from "../types";

// ---------------------------------------------------------------------------------------------
// Channels and fusion
// ---------------------------------------------------------------------------------------------

/** RRF constant, k = 60 as in Cormack, Clarke and Buettcher, SIGIR 2009. */
export const RRF_K = 60;

/**
 * RRF weight per channel, from the hono-50 ablation (docs/evaluation.md, "hono-50 ablation"): the
 * lexical channel is the strongest with the local embedder, the others refine it.
 */
export const CHANNEL_WEIGHTS: Record<ChannelName, number> = { bm25: 1, vector: 0.5, symbol: 0.25, path: 0.25 };

/** Column weights of BM25's term frequency: symbol names, path, body. 4/2/1 chosen on hono-50; 1/1/1, 4/0/1 and 2/0.5/1 moved it by at most one question (docs/experiments/round-02.md). */
export const BM25_WEIGHTS = { symbol: 4, path: 2, body: 1 };
/** BM25's term-frequency saturation, FTS5's value (sqlite.org/fts5.html; Robertson and Zaragoza 2009). */
export const BM25_K1 = 1.2;
/** BM25's length normalisation, FTS5's value (sqlite.org/fts5.html). */
export const BM25_B = 0.75;

/** Most terms OR-ed into one BM25 query (a long report keeps its most informative ones by IDF). */
export const MAX_BM25_TERMS = 24;

/**
 * Query-term frequency saturation of Okapi BM25, k3: a term occurring qtf times in the query
 * weighs qtf (k3 + 1) / (k3 + qtf) (Robertson et al., "Okapi at TREC-3", 1994; 7 is the value
 * the Lemur toolkit defaults to). Term selection of a long report multiplies IDF by it: a report
 * repeats the subject of the bug ("module", "init" ten times in one about `__init__.py`
 * discovery), while the English words rarest in code ("unfortunately", "happy") occur once.
 */
export const BM25_K3 = 7;

/**
 * Document share at which the IDF of an English word stops growing when a query marks some terms
 * as code: a word of a bug report that is rare in code ("awesome", "thumbs", "copyright") is rare
 * because code is not English, not because it names the code; identifiers keep their full IDF.
 * 0.1% of the chunks (docs/ranking.md, "Bug reports"; docs/experiments/round-07.md measured it for questions).
 */
export const PROSE_IDF_CAP_SHARE = 0.001;

/** Smallest candidate depth per channel; the depth is max(30, 3 max(k, RANK_STABLE_K)). */
export const MIN_CANDIDATE_DEPTH = 30;
/**
 * Results up to which the ranking does not depend on `k`: the candidate depth and the reranked
 * head are sized for this many results whatever smaller `k` asks, so the top 3 of k = 3 are the
 * top 3 of k = 20 (with depth and head sized by k, a fused candidate's ranks in the other
 * channels came and went with k: cors() was #5 at k = 8 and #2 at k = 20).
 */
export const RANK_STABLE_K = 20;
/** Fused candidates reranked per result asked for (the head is max(HEAD_PER_RESULT x k, MIN_HEAD)). */
export const HEAD_PER_RESULT = 4;
/** Fewest fused candidates reranked. */
export const MIN_HEAD = 40;

/** Fused score of an anchor chunk (trace, option or message) at least: a first rank in one channel, 1 / (RRF_K + 1). */
export const ANCHOR_SCORE = 1 / (RRF_K + 1);
/** Most option-declaring files whose declaration may join the fused head. */
export const MAX_OPTION_ANCHORS = 4;
/** Most files raising a pasted message whose raising chunk may join the fused head. */
export const MAX_MESSAGE_ANCHORS = 2;

/** Path channel: a term naming more than this share of the files names nothing in particular. */
export const PATH_MAX_FILE_SHARE = 0.2;
/** Path channel: queries with at most this many terms may name files by a bare word (`router`). */
export const PATH_SHORT_QUERY_TERMS = 3;
/** Path channel: chunks nominated per named file. */
export const PATH_CHUNKS_PER_FILE = 2;

// ---------------------------------------------------------------------------------------------
// What counts as a bug report (ParsedQuery.isReport)
// ---------------------------------------------------------------------------------------------

/** Queries with more terms than this are bug reports whatever their shape (= MAX_BM25_TERMS: past it, term selection cuts). */
export const LONG_REPORT_TERMS = 24;
/** Fewest terms for a query to be a report by its shape alone (a fenced block, `>>>`, a traceback, several lines). */
export const MIN_SHAPED_REPORT_TERMS = 6;
/** Non-blank lines from which a query is shaped like a report. */
export const REPORT_MIN_LINES = 3;
/** Most words of a query the identifier reader reads ("JsonReader skipValue" is two); its plan is the question's, so this moves no rank. */
export const MAX_IDENTIFIER_WORDS = 4;
/**
 * Fewest words of an issue-template line that are cut from the start of a longer report line
 * (worker/search/issue-templates.ts): one word ("Output", "Environment") starts sentences too.
 */
export const TEMPLATE_MIN_PREFIX_WORDS = 2;
/**
 * Fewest words of a whole issue-template line found inside a longer report line, making up at
 * least half of it, for the line to count as the template's (an older wording of it;
 * issue-templates.ts): four words in a row of a template's sentence are not a reporter's own.
 */
export const TEMPLATE_MIN_CONTAINED_WORDS = 4;
/**
 * Least similarity of a report line to a template line of at least TEMPLATE_MIN_CONTAINED_WORDS
 * words for the line to count as a reworded template line: 2M / (a + b), M the words the two
 * have in common in order (longest common subsequence), a and b their word counts; the measure
 * of Python's `difflib.SequenceMatcher.ratio()`, stricter than `get_close_matches`'s 0.6.
 * pytest's "`pip list` of the virtual environment you are using" against today's "output of
 * `pip list` from the virtual environment you are using" is 2 x 8 / (9 + 11) = 0.8.
 */
export const TEMPLATE_REWORDED_RATIO = 0.75;

// ---------------------------------------------------------------------------------------------
// Stage 1, coverage (worker/search/rerank.ts)
// ---------------------------------------------------------------------------------------------

/** Tunables of the coverage rerank; `weight` 0 disables it. */
export const RERANK = {
  /** RRF weight of the coverage ranking (the channel fusion has weight 1). */
  weight: 1,
  /** Multiplier for terms found in the symbol name or container (1: no boost; 1.5 and 2 measured worse). */
  symbolBoost: 1,
  /** Share of the coverage score kept by module blocks, windows and doc sections (no definition). */
  nonDefinitionFactor: 0.8,
  /**
   * Share of the coverage score kept by declarations without behaviour (types, interfaces,
   * enums, structs): short, dense with the names a question repeats, rarely what it asks for (0.8 and
   * 0.6 measured; docs/ranking.md "Retrieval").
   */
  declarationFactor: 0.6,
  /**
   * Prior multiplying the final score of those declarations (0.7 to 0.9 measured alike). Module
   * blocks, windows and doc sections get no such prior: SQL tables and runbook sections are
   * answers too (a 0.8/0.9 prior cost fixture R@5).
   */
  declarationPrior: 0.8,
  /**
   * Prior multiplying the final score of prose chunks (markdown, reStructuredText, plain text:
   * changelogs, docs, release notes) when the query is a pasted bug report: a report is fixed
   * in code, while release notes and docs repeat its words (the issue's own vocabulary).
   */
  reportProsePrior: 0.5,
};

// ---------------------------------------------------------------------------------------------
// Stages 2-7, the priors (each multiplies the scores of the chunks it names)
// ---------------------------------------------------------------------------------------------

/**
 * Stage 2, support: multiplier of a supporting file's chunk scores (docs, examples, benchmarks,
 * `.github/`, changelogs) unless the query asks for that kind. gin's "push events to the browser
 * over a long lived streaming response" ranked `CHANGELOG.md` and a workflow first without it.
 */
export const SUPPORT_PRIOR = 0.5;

/**
 * Stage 3, file evidence (reports): a chunk's score gains `decay` x, `decay`^2 x ... the scores of
 * the next `siblings` best chunks of its file (CombSUM with geometric decay; Fox and Shaw, TREC-2
 * 1994). Reports only: for questions it cost hono-50 and the fixture set (docs/experiments/round-07.md).
 */
export const FILE_EVIDENCE = {
  /** Decay per sibling: the 2nd best chunk of a file adds `decay` x its score, the 3rd `decay`^2 x, ... */
  decay: 0.5,
  /** Sibling chunks counted beyond the file's best. */
  siblings: 2,
};

/**
 * Stage 4, trace: multiplier of the scores of the chunks of the file named by the innermost frame
 * that is in the repo. On a 55-instance SWE-bench Lite dev sample (docs/experiments/round-08.md),
 * 1 / 1.5 / 2 / 3 gave Acc@1 47.3 / 49.1 / 54.5 / 54.5 and Acc@5 78.2 / 80.0 / 80.0 / 80.0.
 */
export const TRACE_PRIOR = 2;

/**
 * Stage 4, trace: multiplier of the scores of the chunks of the files named by the trace's other
 * frames in the repo (its callers, and the callees below a throw helper), weaker than TRACE_PRIOR:
 * a fix is often a frame or two above where the failure surfaced, in the caller that passed the
 * bad value (Schröter, Bettenburg and Premraj, "Do Stack Traces Help Developers Fix Bugs?", MSR
 * 2010: fixes of bugs reported with a trace mostly lie in one of its frames, not only the top one;
 * Wong et al., "Boosting Bug-Report-Oriented Fault Localization with Segmentation and Stack-Trace
 * Analysis", ICSME 2014, boost every frame's file). Halfway between no prior and the innermost's
 * 2, not tuned: 1.25 and 1.5 gave the same Acc@5 on the 57 Lite instances of the seven smaller
 * repositories (docs/experiments/round-14.md).
 */
export const OUTER_FRAME_PRIOR = 1.5;

/**
 * Stage 5, option: multiplier of the scores of the chunks of a file that declares an option the
 * query names. On a 55-instance SWE-bench Lite dev sample (docs/experiments/round-08.md), 1 / 2 / 3
 * gave Acc@5 80.0 / 83.6 / 83.6.
 */
export const OPTION_PRIOR = 2;

/**
 * Stage 6, message: multiplier of the scores of the chunks of a file whose code holds a pasted
 * message, as OPTION_PRIOR: the literal names the file as surely as a declaration does.
 */
export const MESSAGE_PRIOR = 2;
/** Fewest words in a message's literal run: two common words are no address. */
export const MIN_PHRASE_WORDS = 3;
/** A literal run found in more files than this is not one program's message. */
export const MAX_MESSAGE_FILES = 3;
/** Chunks read per run: a run in more chunks than this is a phrase of the language. */
export const MAX_MESSAGE_CHUNKS = 12;

/** Stage 7, qualified: multiplier of the scores of the chunks defining a `Type.member` the question writes. */
export const QUALIFIED_PRIOR = 2;

/**
 * Stage 8, receiver (reports): multiplier of the score of the chunk defining a member the
 * report's code uses on an object it constructed, of a class its title names ("Wrong Derivative
 * kind attribute", `d = Derivative(A, x)`, `d.kind`), or of that class's chunk. As
 * OUTER_FRAME_PRIOR, not tuned: the code shows the class involved, not the faulty line, as a
 * caller's frame does; less than QUALIFIED_PRIOR, a question's explicit address.
 */
export const RECEIVER_PRIOR = OUTER_FRAME_PRIOR;

/**
 * Stage 9, entry (questions asking where the program starts: "where is the main entry point",
 * worker/search/entry-points.ts): multiplier of the scores of the chunks of the files the repo
 * declares or names by convention as its entries, as OPTION_PRIOR: the manifest names the file
 * as surely as a declaration names an option. On hono at f6b8553 the question ranked
 * `build/build.ts` (whose esbuild call has `entryPoints`) first and `src/index.ts` nowhere in
 * the top 10 (docs/evaluation.md, "Entry points").
 */
export const ENTRY_PRIOR = 2;
/**
 * Stage 9, entry: multiplier of the scores of build and tooling scripts (`build/`, `scripts/`,
 * bundler configs, `Makefile`) for such a question: they start the build, not the program, and
 * their text is where "entry" and "main" occur (`entryPoints`, `"main":`). As SUPPORT_PRIOR.
 */
export const ENTRY_TOOLING_PRIOR = 0.5;
/**
 * Stage 10, imports: multiplier of the score of a chunk that only imports (worker/search/
 * import-only.ts) unless the question asks about imports. As SUPPORT_PRIOR, not tuned: such a
 * chunk matches a question through the names it brings in but answers none about behaviour; on
 * hono, `compose.ts:1-2` and `basic-auth/index.ts:1-10` took top-5 slots without it (issue 51).
 */
export const IMPORT_ONLY_PRIOR = 0.5;
/** Most entry files kept per snapshot (declared first, then `main` functions, then conventional names). */
export const MAX_ENTRY_FILES = 24;
/** Confidence gate: an entry-point question is `low` when its top result is tooling and none of this many results is an entry. */
export const ENTRY_GATE_TOP = 3;
/** Most entry chunks that may join the fused head as anchors (the strongest tiers first). */
export const MAX_ENTRY_ANCHORS = 3;

/**
 * Stage 11, defect: multiplier of the chunks of data, tooling and prose files when the query says
 * something is broken (ranking/defect.ts). As SUPPORT_PRIOR, not tuned: on the multi-file set
 * `package.json`, `README.md` and lint configs held top-5 file slots (docs/ranking.md, "Fixes that
 * span several files").
 */
export const DEFECT_NON_CODE_PRIOR = 0.5;

// ---------------------------------------------------------------------------------------------
// After the stages
// ---------------------------------------------------------------------------------------------

/**
 * Default per-file cap: at most 2 results per file before the other files' results. On hono-50 it
 * costs one question at R@5 (86% -> 84%) and gains the fixture set one (85.3% -> 88.2%)
 * (docs/evaluation.md, ablation tables).
 */
export const DEFAULT_FILE_CAP = 2;

// The confidence gate's thresholds: their own module (the gate decides whether to answer, not the
// order), re-exported so that every threshold is still imported from here.
export { ABSENT_NAME, GATE_THRESHOLDS } from "./gate-thresholds";
