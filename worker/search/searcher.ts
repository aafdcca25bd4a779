/**
 * @module worker/search/searcher
 *
 * Runs a search over one or more repos: removes the repo's issue-template lines, has a reader
 * turn the text into a query plan (worker/search/readers/), reads the term statistics and
 * selects BM25 terms by IDF, starts the channels of the mode for each repo with the evidence
 * lookups the plan's stages need, and hands the rest to the engine (worker/search/engine/
 * run-plan.ts: fuse, gather evidence, rerank by the plan's stages, cap, gate). The D1 reads go
 * out through `coalescingD1`, so the channels' and lookups' reads share round trips.
 *
 * A query with no searchable words (only punctuation, emoji, stop words or 1-character tokens)
 * returns no results with confidence `low` and the reason, without running any channel.
 */
import { coalescingD1 } from "./d1-coalesce";
import { readCandidates, type ChannelRun } from "./engine/candidates";
import { MODE_CHANNELS, type RepoTarget, type SearchDeps, type SearchOptions } from "./engine/deps";
import { runPlan } from "./engine/run-plan";
import { issueTemplateLines, mayFollowTemplate, stripTemplateText } from "./issue-templates";
import { evidenceNeeded } from "./ranking";
import { MIN_CANDIDATE_DEPTH, RANK_STABLE_K } from "./ranking/weights";
import { readQuery } from "./readers";
import { switchPlan, withRulesOff } from "./rules";
import { documentFrequencies, STEM_LOOKUP, type TermStatistics } from "./term-stats";
import { proseCappedDf, selectionIfAllPresent, selectTerms } from "./terms";
import type { SearchFilters, SearchResponse } from "./types";
import { targetDb } from "./shard-targets";

export { MODE_CHANNELS, type RepoTarget, type SearchDeps, type SearchOptions } from "./engine/deps";

/** The answer to a query without searchable words: no results, confidence low, and why. */
function noSearchableWords(targets: RepoTarget[], started: number): SearchResponse {
  return {
    results: [],
    confidence: {
      level: "low",
      termCoverage: 0,
      bestVectorScore: null,
      missingTerms: [],
      reason:
        "The query has no searchable words (only punctuation, symbols, emoji, stop words or single characters); search with words or identifiers from the code.",
    },
    stats: { tookMs: Date.now() - started, repos: targets.map((t) => t.id), failedRepos: [], queryTerms: [], candidates: {}, skippedChannels: [] },
  };
}

/** Whether two target lists name the same snapshots, in the same order, with the same embedding provenance and packages. */
export function sameTargets(a: RepoTarget[], b: RepoTarget[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (t, i) =>
        t.id === b[i].id &&
        t.commit === b[i].commit &&
        t.indexedAt === b[i].indexedAt &&
        t.embeddingModel === b[i].embeddingModel &&
        t.embeddingDims === b[i].embeddingDims &&
        t.shard === b[i].shard &&
        JSON.stringify(t.packages ?? []) === JSON.stringify(b[i].packages ?? []),
    )
  );
}

/**
 * Terms whose MATCH phrase is the vocabulary word itself (lowercase ASCII letters and digits, as
 * the index's unicode61 tokenizer leaves them): when such a term is absent from the index, its
 * phrase (and its stem prefix, which documentFrequencies found nothing for) matches no chunk and
 * adds exactly 0 to every chunk's bm25(), so searching with it or without it gives the same rows
 * and scores.
 */
const VOCABULARY_WORD_RE = /^[a-z0-9]+$/;

/**
 * Searches `targets` (repos with an active snapshot) for `text`. Never throws for a failing
 * repo: it is listed in `stats.failedRepos` and the others still answer. `targets` may still be
 * on its way (a promise, rejected when the repos cannot be searched): the query's term
 * statistics are read meanwhile, so with a coalescing `deps.db` (worker/search/d1-coalesce.ts)
 * both reads share one round trip.
 *
 * `expected`: the targets the caller expects `pendingTargets` to be (the last search of the same
 * repos found them). When the query has at most MAX_BM25_TERMS terms (term selection keeps all
 * that occur in the index, in order) and each is a plain vocabulary word, the channels' reads
 * start with them and every term at once, in that same round trip, and are kept when the targets
 * are the expected ones and some term occurs: a term absent from the index changes no channel's
 * rows (VOCABULARY_WORD_RE), so they are exactly the reads the selected terms would make. That
 * saves a search its second D1 round trip (about 1 ms of workerd CPU locally; README "Known
 * limits"); otherwise the channels run after the statistics as before.
 */
export async function runSearch(
  deps: SearchDeps,
  pendingTargets: RepoTarget[] | Promise<RepoTarget[]>,
  rawText: string,
  options: SearchOptions,
  expected?: RepoTarget[],
): Promise<SearchResponse> {
  const started = Date.now();
  // A report's lines that the repo's own issue template supplied are not the reporter's words
  // (worker/search/issue-templates.ts); the template lines are cached per snapshot.
  const off = options.disabledRules;
  const templated =
    mayFollowTemplate(rawText) && !off?.has("template.strip")
      ? stripTemplateText(rawText, await issueTemplateLines(targetDb(deps), expected?.length ? expected : await pendingTargets))
      : null;
  const text = templated ? templated.text : rawText;
  // An evaluation may switch report rules off for this search (worker/search/rules.ts).
  const plan = switchPlan(
    withRulesOff(off, () => readQuery(text)),
    off,
  );
  const query = plan.query;
  const searchable = query.terms.length > 0 || query.identifiers.length > 0 || query.pathHints.length > 0;
  // Term statistics are the searched snapshots' (worker/search/term-stats.ts). With `expected`
  // they are read for those snapshots meanwhile, and again below if the targets differ.
  const statisticsOf = (t: RepoTarget[]) => documentFrequencies(targetDb(deps), t, query.terms);
  const earlyStatistics = searchable && expected?.length ? statisticsOf(expected) : null;
  earlyStatistics?.catch(() => {}); // awaited below; a failure of `pendingTargets` comes first
  const filters: SearchFilters = { ...options.filters, includeTests: options.filters.includeTests ?? plan.includeTests };
  const channels = options.channels?.length ? options.channels : MODE_CHANNELS[options.mode];
  const sizedFor = Math.max(options.k, RANK_STABLE_K);
  const depth = Math.max(MIN_CANDIDATE_DEPTH, 3 * sizedFor);
  const codeTerms = plan.terms.selectionCodeTerms;
  const needed = evidenceNeeded(plan);
  const runWith = (terms: string[]): ChannelRun => ({ channels, terms, filters, depth });
  // The channels' reads over all repos go out in one D1 round trip (worker/search/d1-coalesce.ts).
  const channelDeps: SearchDeps = { ...deps, db: coalescingD1(deps.db) };
  const assumed = searchable && expected?.length ? selectionIfAllPresent(query.terms, codeTerms) : null;
  // Every absent term's stem prefix must have been looked up (STEM_LOOKUP) for it to match nothing.
  const early =
    assumed?.length && assumed.length <= STEM_LOOKUP.max && assumed.every((t) => VOCABULARY_WORD_RE.test(t))
      ? readCandidates(channelDeps, expected!, plan, runWith(assumed), needed)
      : null;
  const targets = await pendingTargets;
  // The templates were read for the expected snapshots; after a re-index the repo's own may
  // differ, and stripping by the old ones would leave the new template's words in the query.
  if (templated && expected?.length && !sameTargets(expected, targets)) {
    const own = stripTemplateText(rawText, await issueTemplateLines(targetDb(deps), targets)).text;
    if (own !== text) return runSearch(deps, targets, rawText, options);
  }
  if (!searchable) return noSearchableWords(targets, started);
  const statistics: TermStatistics = await (earlyStatistics && sameTargets(expected!, targets) ? earlyStatistics : statisticsOf(targets));
  const { df, totalDocs } = statistics;
  const selection = selectTerms(query.terms, df, totalDocs, undefined, plan.terms.counts, codeTerms);
  // The rerank caps the IDF of English words, a report's as in term selection and a question's
  // too: a word rare in code ("pause", "ceiling") is rare because code is not English.
  const weightDf = proseCappedDf(df, totalDocs, plan.terms.weightCodeTerms);
  const run = runWith(selection.selected);
  const reads = early && selection.selected.length && sameTargets(expected!, targets) ? early : readCandidates(channelDeps, targets, plan, run, needed);
  return runPlan({ deps, targets, plan, options, run, reads, statistics, selection, weightDf, sizedFor, started });
}
