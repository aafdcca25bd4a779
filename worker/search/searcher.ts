/**
 * @module worker/search/searcher
 *
 * Runs a search over one or more repos: parses the query, selects BM25 terms by IDF, runs the
 * channels of the mode for each repo (concurrently, each repo isolated with
 * `Promise.allSettled`), merges each channel's lists over the union of the repos (by channel
 * score, `mergeChannelLists`) and fuses them by RRF, reranks the fused head, applies the
 * per-file cap, builds bounded snippets and the confidence gate. It wires the bindings (D1
 * through `coalescingD1`, the embedder, the vector store) into the channels and lookups; those
 * run SQL themselves (channels/*, chunk-rows, stack-trace, error-messages, option-flags).
 *
 * A query with no searchable words (only punctuation, emoji, stop words or 1-character tokens)
 * returns no results with confidence `low` and the reason, without running any channel.
 */
import { CodeSearchError, type ErrorCode } from "../../kernel/errors";
import { tokenize, tokenizeQuery, type EmbeddingProvider, type RepoPackage, type VectorStore } from "../../indexer/store/contract";
import { bm25Channel } from "./channels/bm25";
import { lexicalChannels } from "./channels/lexical";
import { pathChannel, snapshotFiles } from "./channels/path";
import { normalizePathFilter, pathPasses } from "./path-filter";
import { type ChannelScope } from "./channels/scope";
import { symbolChannel } from "./channels/symbol";
import { vectorChannel } from "./channels/vector";
import { chunkTokens } from "./chunk-rows";
import { dbOf, depsFor, loadChunksAcross, targetDb, type ShardedDeps } from "./shard-targets";
import { coalescingD1 } from "./d1-coalesce";
import { capPerFile, mergeChannelLists, reciprocalRankFusion, type FusedHit } from "./fuse";
import { messageFiles } from "./error-messages";
import { explainEmpty } from "./empty-answer";
import { snapshotEntries, type EntryChunk } from "./entry-lookup";
import { asksForEntryPoint } from "./entry-points";
import { passesFilters } from "./filters";
import { confidenceGate } from "./gate";
import { optionDeclarationFiles } from "./option-flags";
import { parseQuery, type ParsedQuery } from "./query";
import { makeSnippet } from "./snippet";
import { issueTemplateLines, mayFollowTemplate, stripTemplateText } from "./issue-templates";
import { calleeChunk, frameChunks, outerFrameChunks, traceAnchor, withCallee, type DefinitionChunk, type FrameChunk } from "./stack-trace";
import { documentFrequencies, STEM_LOOKUP, type TermStatistics } from "./term-stats";
import { proseCappedDf, selectionIfAllPresent, selectTerms } from "./terms";
import { runStages, type StageRecord } from "./ranking";
import {
  ANCHOR_SCORE,
  CHANNEL_WEIGHTS,
  HEAD_PER_RESULT,
  MAX_ENTRY_ANCHORS,
  MAX_MESSAGE_ANCHORS,
  MAX_OPTION_ANCHORS,
  MIN_CANDIDATE_DEPTH,
  MIN_HEAD,
  RANK_STABLE_K,
  REPORT_CHANNEL_WEIGHTS,
} from "./ranking/weights";
import type { ChannelName, ChannelResult, ChunkRow, SearchFilters, SearchMode, SearchResponse, SearchResult, SearchResultExplain } from "./types";

/** The code reported for a failed channel: a coded error's code, else `internal` (details go to the log). */
function failureCode(err: unknown): ErrorCode {
  return err instanceof CodeSearchError ? err.code : "internal";
}

/** Channels each mode runs. */
export const MODE_CHANNELS: Record<SearchMode, ChannelName[]> = {
  hybrid: ["bm25", "vector", "symbol", "path"],
  bm25: ["bm25"],
  vector: ["vector"],
  symbol: ["symbol"],
};

/** A repo to search: its id, active snapshot, embedding provenance and the packages it publishes. */
export interface RepoTarget {
  id: string;
  commit: string;
  /** `repos.active_indexed_at` of that snapshot, when read (saves the vector store reading it). */
  indexedAt?: number | null;
  embeddingModel: string | null;
  embeddingDims: number | null;
  /**
   * The npm packages that snapshot publishes (D1 `snapshot_packages`): a report's frames under
   * `node_modules/<name>/` name this repo's files (worker/search/stack-trace.ts). None when absent.
   */
  packages?: RepoPackage[];
  /** The shard serving this snapshot (indexer/store/shards.ts); absent: `SearchDeps.db`. */
  shard?: number;
}

/** Search options after validation. */
export interface SearchOptions {
  k: number;
  mode: SearchMode;
  filters: Omit<SearchFilters, "includeTests"> & { includeTests?: boolean };
  /** Per-file cap; 0 disables. */
  fileCap: number;
  /** Overrides the mode's channels (ablations). */
  channels?: ChannelName[];
  /** RRF weight per channel (default CHANNEL_WEIGHTS). */
  weights?: Partial<Record<ChannelName, number>>;
  /** Return each result's explanation (channel ranks, fused score, each ranking stage's factor). */
  explain?: boolean;
}

/** What the searcher needs from the platform; a target with a `shard` is read through `shards` (worker/search/shard-targets.ts). */
export interface SearchDeps extends ShardedDeps {
  db: D1Database;
  embedder: EmbeddingProvider;
  vectors: VectorStore;
}

/** One repo's channel lists (each best first, at most `depth` long). */
interface RepoOutcome {
  repo: string;
  channels: ChannelResult[];
  bestVectorScore: number | null;
}

/** Runs the channels over one repo; a failing channel is reported as skipped, not thrown. */
async function runChannels(
  deps: SearchDeps,
  target: RepoTarget,
  query: ParsedQuery,
  terms: string[],
  channels: ChannelName[],
  filters: SearchFilters,
  depth: number,
): Promise<RepoOutcome> {
  deps = depsFor(deps, target);
  const scope: ChannelScope = { db: deps.db, repo: target.id, commit: target.commit, indexedAt: target.indexedAt, filters, depth, query, terms };
  let bestVectorScore: number | null = null;
  // With both, the BM25 and path channels share one scoring statement (channels/lexical.ts).
  const lexical = channels.includes("bm25") && channels.includes("path") ? lexicalChannels(scope) : null;
  const runs = channels.map(async (name): Promise<ChannelResult> => {
    try {
      switch (name) {
        case "bm25":
          return await (lexical ? lexical.bm25 : bm25Channel(scope));
        case "symbol":
          return await symbolChannel(scope);
        case "path":
          return await (lexical ? lexical.path : pathChannel(scope));
        case "vector": {
          const r = await vectorChannel(scope, deps.embedder, deps.vectors, { model: target.embeddingModel, dims: target.embeddingDims });
          bestVectorScore = r.bestScore;
          return { channel: r.channel, hits: r.hits, skipped: r.skipped };
        }
      }
    } catch (err) {
      // One failing channel (e.g. the embedding backend) must not sink the search.
      console.error(`search channel ${name} failed for ${target.id}`, err);
      return { channel: name, hits: [], skipped: `channel_failed: ${failureCode(err)}` };
    }
  });
  const results = await Promise.all(runs);
  return { repo: target.id, channels: results, bestVectorScore };
}

/**
 * Fuses the repos' channel lists by RRF over their union: each channel's lists are merged by
 * channel score (`mergeChannelLists`, cut to `depth`) before ranks are taken, so one repo's
 * best hit ranks first only when it beats the other repos' hits. With one repo this is plain
 * RRF over its lists.
 */
function fuseRepos(outcomes: RepoOutcome[], channels: ChannelName[], depth: number, weights: Partial<Record<ChannelName, number>>): FusedHit[] {
  const merged = channels.map((name) =>
    mergeChannelLists(
      outcomes.map((o) => o.channels.find((c) => c.channel === name) ?? { channel: name, hits: [] }),
      depth,
    ),
  );
  return reciprocalRankFusion(merged, undefined, weights);
}

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

/**
 * Runs `lookup` for every target concurrently; a repo whose lookup fails is logged and gives
 * `empty()`, so one repo's failure never fails the search.
 */
function eachRepo<T>(targets: RepoTarget[], what: string, lookup: (t: RepoTarget) => Promise<T>, empty: () => T): Promise<T[]> {
  return Promise.all(
    targets.map((t) =>
      lookup(t).catch((err) => {
        console.error(`${what} failed for ${t.id}`, err);
        return empty();
      }),
    ),
  );
}

/** A candidate's file, for the per-file cap and file evidence: repo and path. */
const fileOf = (h: { row: ChunkRow }) => `${h.row.repo}\0${h.row.path}`;

/** A result's explanation: its channel ranks, its fused (RRF) score and each stage's factor. */
function explainOf(h: FusedHit & { fused?: number }, record: StageRecord): SearchResultExplain {
  return { ranks: h.ranks, fused: Math.round((h.fused ?? 0) * 1e6) / 1e6, stages: record.get(h.chunkId) ?? [] };
}

/** A candidate as a definition the callee of a report's TypeError may be (calleeChunk). */
const definitionOf = (h: { chunkId: string; row: ChunkRow }): DefinitionChunk => ({
  repo: h.row.repo,
  id: h.chunkId,
  path: h.row.path,
  startLine: h.row.startLine,
  endLine: h.row.endLine,
  symbol: h.row.symbol,
  container: h.row.container,
  kind: h.row.kind,
});

function toResult(h: FusedHit & { row: ChunkRow }): SearchResult {
  const { snippet, truncated } = makeSnippet(h.row.content);
  return {
    repo: h.row.repo,
    path: h.row.path,
    startLine: h.row.startLine,
    endLine: h.row.endLine,
    language: h.row.language,
    symbol: h.row.symbol,
    kind: h.row.kind,
    score: Math.round(h.score * 1e6) / 1e6,
    ranks: h.ranks,
    snippet,
    snippetTruncated: truncated,
    chunkId: h.chunkId,
  };
}

/** The reads of the channels and of the option, message and stack-frame lookups (readCandidates); none of them rejects. */
interface CandidateReads {
  settled: Promise<PromiseSettledResult<RepoOutcome>[]>;
  optionFiles: Promise<Map<string, string>[]>;
  raising: Promise<Map<string, string>[]>;
  traceChunks: Promise<FrameChunk[][]>;
  /** The entry chunks of each repo that pass the filters, when the question asks for an entry point. */
  entries: Promise<EntryChunk[][]>;
}

/**
 * Starts the channels over `targets` with the BM25 `terms`, and the lookups of the files
 * declaring a command-line option the query names, of the files raising a message it pastes and
 * of the chunks holding the lines of a report's stack frames. Their D1 reads go out together
 * (`deps.db` coalescing, worker/search/d1-coalesce.ts).
 */
function readCandidates(
  deps: SearchDeps,
  targets: RepoTarget[],
  query: ParsedQuery,
  terms: string[],
  channels: ChannelName[],
  filters: SearchFilters,
  depth: number,
): CandidateReads {
  const filtersOf = repoFilters(targetDb(deps), filters);
  return {
    settled: Promise.allSettled(targets.map(async (t) => runChannels(deps, t, query, terms, channels, await filtersOf(t), depth))),
    optionFiles: query.optionFlags.length
      ? eachRepo(
          targets,
          "option lookup",
          async (t) => optionDeclarationFiles(dbOf(targetDb(deps), t), t.id, t.commit, query.optionFlags, await filtersOf(t)),
          () => new Map<string, string>(),
        )
      : Promise.resolve([]),
    raising: query.phrases.length
      ? eachRepo(
          targets,
          "message lookup",
          async (t) => messageFiles(dbOf(targetDb(deps), t), t.id, t.commit, query.phrases, await filtersOf(t)),
          () => new Map<string, string>(),
        )
      : Promise.resolve([]),
    traceChunks:
      query.isReport && query.frames.length
        ? eachRepo(
            targets,
            "stack frame lookup",
            async (t) => frameChunks(dbOf(targetDb(deps), t), t.id, t.commit, query.frames, await filtersOf(t)),
            () => [],
          )
        : Promise.resolve([]),
    entries: entryQuestionOf(query)
      ? eachRepo(
          targets,
          "entry lookup",
          async (t) => {
            const [entries, f] = await Promise.all([snapshotEntries(dbOf(targetDb(deps), t), [t]), filtersOf(t)]);
            return entries.filter((e) => passesFilters(f, e.path, e.language));
          },
          () => [],
        )
      : Promise.resolve([]),
  };
}

/** Whether a query is a question asking where the program starts (a pasted report never is). */
function entryQuestionOf(query: ParsedQuery): boolean {
  return !query.isReport && asksForEntryPoint(query.text);
}

/**
 * The filters of each repo: a path glob becomes the list of the snapshot's paths it matches
 * (read once per repo, from the per-isolate file list); other filters are the same for all.
 */
function repoFilters(db: (t: RepoTarget) => D1Database, filters: SearchFilters): (t: RepoTarget) => Promise<SearchFilters> {
  if (!filters.pathGlob) return async () => filters;
  const filter = normalizePathFilter(filters.pathGlob);
  const byRepo = new Map<string, Promise<SearchFilters>>();
  return (t) => {
    let f = byRepo.get(t.id);
    if (!f) {
      f = snapshotFiles({ db: db(t), repo: t.id, commit: t.commit }).then((files) => ({
        ...filters,
        paths: files.filter((x) => !filter || pathPasses(filter, x.path)).map((x) => x.path),
      }));
      byRepo.set(t.id, f);
    }
    return f;
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
  const templated = mayFollowTemplate(rawText)
    ? stripTemplateText(rawText, await issueTemplateLines(targetDb(deps), expected?.length ? expected : await pendingTargets))
    : null;
  const text = templated ? templated.text : rawText;
  const query = parseQuery(text);
  const searchable = query.terms.length > 0 || query.identifiers.length > 0 || query.pathHints.length > 0;
  // Term statistics are the searched snapshots' (worker/search/term-stats.ts). With `expected`
  // they are read for those snapshots meanwhile, and again below if the targets differ.
  const statisticsOf = (t: RepoTarget[]) => documentFrequencies(targetDb(deps), t, query.terms);
  const earlyStatistics = searchable && expected?.length ? statisticsOf(expected) : null;
  earlyStatistics?.catch(() => {}); // awaited below; a failure of `pendingTargets` comes first
  const filters: SearchFilters = { ...options.filters, includeTests: options.filters.includeTests ?? query.mentionsTests };
  const channels = options.channels?.length ? options.channels : MODE_CHANNELS[options.mode];
  const sizedFor = Math.max(options.k, RANK_STABLE_K);
  const depth = Math.max(MIN_CANDIDATE_DEPTH, 3 * sizedFor);
  const codeTerms = query.isReport ? new Set(query.codeTerms) : undefined;
  // The channels' reads over all repos go out in one D1 round trip (worker/search/d1-coalesce.ts).
  const channelDeps: SearchDeps = { ...deps, db: coalescingD1(deps.db) };
  const assumed = searchable && expected?.length ? selectionIfAllPresent(query.terms, codeTerms) : null;
  // Every absent term's stem prefix must have been looked up (STEM_LOOKUP) for it to match nothing.
  const early =
    assumed?.length && assumed.length <= STEM_LOOKUP.max && assumed.every((t) => VOCABULARY_WORD_RE.test(t))
      ? readCandidates(channelDeps, expected!, query, assumed, channels, filters, depth)
      : null;
  const targets = await pendingTargets;
  // The templates were read for the expected snapshots; after a re-index the repo's own may
  // differ, and stripping by the old ones would leave the new template's words in the query.
  if (templated && expected?.length && !sameTargets(expected, targets)) {
    const own = stripTemplateText(rawText, await issueTemplateLines(targetDb(deps), targets)).text;
    if (own !== text) return runSearch(deps, targets, rawText, options);
  }
  if (!searchable) return noSearchableWords(targets, started);
  // Occurrences per term (tokenizeQuery deduplicates); a long report's first line is its title
  // and says what matters, so its terms count twice.
  const counts = new Map<string, number>();
  const tokens = tokenize(text);
  for (const t of tokenizeQuery(text, tokens)) counts.set(t, 0);
  for (const t of tokens) if (counts.has(t)) counts.set(t, counts.get(t)! + 1);
  const title = text.trimStart().split("\n", 1)[0];
  if (title.length < text.trim().length) for (const t of tokenize(title)) if (counts.has(t)) counts.set(t, counts.get(t)! + 2);
  const statistics: TermStatistics = await (earlyStatistics && sameTargets(expected!, targets) ? earlyStatistics : statisticsOf(targets));
  const { df, totalDocs } = statistics;
  const selection = selectTerms(query.terms, df, totalDocs, undefined, counts, codeTerms);
  // The rerank caps the IDF of English words, a report's as in term selection and a question's
  // too: a word rare in code ("pause", "ceiling") is rare because code is not English.
  const weightDf = proseCappedDf(df, totalDocs, codeTerms ?? new Set(query.codeTerms));
  const reads =
    early && selection.selected.length && sameTargets(expected!, targets)
      ? early
      : readCandidates(channelDeps, targets, query, selection.selected, channels, filters, depth);
  const settled = await reads.settled;
  const failedRepos: SearchResponse["stats"]["failedRepos"] = [];
  const outcomes: RepoOutcome[] = [];
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") outcomes.push(s.value);
    else {
      console.error(`search failed for repo ${targets[i].id}`, s.reason);
      // A coded error's message is written for clients; anything else stays in the log.
      const error =
        s.reason instanceof CodeSearchError ? `${s.reason.code}: ${s.reason.message}` : "internal: this repo's search failed; the server log has details.";
      failedRepos.push({ repo: targets[i].id, error });
    }
  });
  const fused = fuseRepos(outcomes, channels, depth, { ...CHANNEL_WEIGHTS, ...(query.isReport ? REPORT_CHANNEL_WEIGHTS : {}), ...options.weights });
  // Enough candidates to fill k after the per-file cap in the usual case.
  const head = fused.slice(0, Math.max(sizedFor * HEAD_PER_RESULT, MIN_HEAD));
  const declaring = new Map((await reads.optionFiles).flatMap((m) => [...m]));
  const raisers = new Map((await reads.raising).flatMap((m) => [...m]));
  // A frame under node_modules/<name>/ names a file only in the repo publishing <name>.
  const packages = new Map(targets.map((t) => [t.id, t.packages ?? []]));
  const frameRows = (await reads.traceChunks).flat();
  const anchor = traceAnchor(query.frames, frameRows, packages);
  const outerFrames = outerFrameChunks(query.frames, frameRows, anchor, packages);
  // A repo's declared entries, strongest tier first over all repos (a stable sort keeps each repo's order).
  const tierRank = { declared: 0, main: 1, conventional: 2 } as const;
  const entryChunks = (await reads.entries).flat().sort((a, b) => tierRank[a.tier] - tierRank[b.tier]);
  const entries = new Map(entryChunks.map((e) => [`${e.repo}\0${e.path}`, e.source]));
  // The chunks of the trace's frames (where it surfaced, then its callers), each declaring
  // file's declaration, the chunk raising a pasted message and, for an entry-point question,
  // the repo's declared entries are named by the query itself (or by the repo for it): they
  // rank in the head at least as if one channel had ranked them first, so the priors below can
  // lift their files even when no channel nominated them.
  const anchors = [
    ...(anchor ? [anchor.id] : []),
    ...outerFrames.map((c) => c.id),
    ...[...declaring.values()].slice(0, MAX_OPTION_ANCHORS),
    ...[...raisers.values()].slice(0, MAX_MESSAGE_ANCHORS),
    ...entryChunks.slice(0, MAX_ENTRY_ANCHORS).map((e) => e.chunkId),
  ];
  const rows = await loadChunksAcross(deps, targets, [...head.map((h) => h.chunkId), ...anchors]);
  const anchorIds = new Set(anchors);
  for (const id of anchors) {
    const i = head.findIndex((h) => h.chunkId === id);
    if (i >= 0) head[i] = { ...head[i], score: Math.max(head[i].score, ANCHOR_SCORE) };
    else if (rows.has(id)) head.push({ chunkId: id, score: ANCHOR_SCORE, ranks: {} });
  }
  const loaded = head.flatMap((h) => {
    const row = rows.get(h.chunkId);
    return row
      ? [
          {
            ...h,
            fused: h.score,
            row,
            repo: row.repo,
            path: row.path,
            kind: row.kind,
            symbol: row.symbol,
            container: row.container,
            content: row.content,
            language: row.language,
          },
        ]
      : [];
  });
  // A call whose arguments did not bind has no frame of its callee, which the TypeError names:
  // the trace is read as if it had one (stack-trace.ts, withCallee).
  const callee = query.callee ? calleeChunk(query.callee, loaded.map(definitionOf), anchor) : null;
  const trace = callee ? withCallee(query.frames, anchor, outerFrames, query.callee!, callee) : { frames: query.frames, anchor, outer: outerFrames };
  if (callee) anchorIds.add(callee.id);
  // The stages after fusion (worker/search/ranking/stages.ts): coverage, then the priors.
  const record: StageRecord | undefined = options.explain ? new Map() : undefined;
  const reranked = runStages(
    loaded,
    {
      query: callee ? { ...query, frames: trace.frames } : query,
      terms: selection.selected,
      weightDf,
      totalDocs,
      declaring,
      raisers,
      anchor: trace.anchor,
      outerFrames: trace.outer,
      packages,
      entryQuestion: entryQuestionOf(query),
      entries,
      fileOf,
    },
    record,
  );
  const ordered = [...reranked].sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
  // A definition a question names (`redisReconnect`, `LineBuffer::fill`) is what it asks for:
  // the cap, which keeps one file from filling the page, does not hide it. A report names many
  // things in passing, so its cap stands.
  const named = query.isReport ? new Set<string>() : new Set(query.identifiers);
  const merged = capPerFile(ordered, options.fileCap, fileOf, (h) => h.row.symbol !== null && named.has(h.row.symbol)).slice(0, options.k);
  const results = merged.map((h) => (record ? { ...toResult(h), explain: explainOf(h, record) } : toResult(h)));
  const vectorScores = outcomes.map((o) => o.bestVectorScore).filter((s): s is number => s !== null);
  // A definition the question writes as code (`for_each_codepoint`) is named by it, like an anchor.
  const spelled = new Set(query.spelledNames);
  const gateTerms = query.terms.length > selection.selected.length + selection.absent.length ? selection.selected : query.terms;
  const gated = confidenceGate({
    terms: gateTerms,
    resultTexts: merged.map((h) => h.row.content),
    resultTokens: merged.map((h) => chunkTokens(h.row)),
    bestVectorScore: vectorScores.length ? Math.max(...vectorScores) : null,
    lexicalVectors: deps.embedder.lexical,
    df,
    totalDocs,
    entryQuestion: entryQuestionOf(query),
    resultPaths: merged.map((h) => h.row.path),
    resultIsEntry: merged.map((h) => entries.has(fileOf(h))),
    isReport: query.isReport,
    resultNamed: merged.map((h) => anchorIds.has(h.chunkId) || entries.has(fileOf(h)) || (h.row.symbol !== null && spelled.has(h.row.symbol.toLowerCase()))),
    resultRanks: merged.map((h) => h.ranks),
    functionWords: query.functionWords,
  });
  // Nothing found because of the index or the filters, not the words: say so.
  const emptyReason = results.length ? null : await explainEmpty(targetDb(deps), targets, filters, statistics.chunksByRepo);
  const confidence = emptyReason ? { ...gated, level: "low" as const, missingTerms: [], reason: emptyReason } : gated;
  const candidates: SearchResponse["stats"]["candidates"] = {};
  const skippedChannels: SearchResponse["stats"]["skippedChannels"] = [];
  for (const o of outcomes) {
    for (const c of o.channels) {
      candidates[c.channel] = (candidates[c.channel] ?? 0) + c.hits.length;
      if (c.skipped) skippedChannels.push({ repo: o.repo, channel: c.channel, reason: c.skipped });
    }
  }
  return {
    results,
    confidence,
    stats: { tookMs: Date.now() - started, repos: targets.map((t) => t.id), failedRepos, queryTerms: selection.selected, candidates, skippedChannels },
  };
}
