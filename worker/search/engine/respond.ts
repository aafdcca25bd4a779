/**
 * @module worker/search/engine/respond
 *
 * The answer from the ranked candidates: results with bounded snippets (and `explain`), the
 * confidence gate with the plan's rules, and the stats of the channels' runs.
 */
import { chunkTokens } from "../chunk-rows";
import type { FusedHit } from "../fuse";
import { confidenceGate } from "../gate";
import type { QueryPlan } from "../plan";
import type { Candidate, StageRecord } from "../ranking";
import { makeSnippet } from "../snippet";
import type { TermSelection } from "../terms";
import type { ChunkRow, SearchResponse, SearchResult, SearchResultExplain } from "../types";
import type { RepoOutcome } from "./candidates";
import type { Evidence } from "./evidence";

/** A candidate's file, for the per-file cap and file evidence: repo and path. */
export const fileOf = (h: { row: ChunkRow }) => `${h.row.repo}\0${h.row.path}`;

/** A result's explanation: the plan's reader, its channel ranks, its fused (RRF) score and each stage's factor. */
function explainOf(h: FusedHit & { fused?: number }, record: StageRecord, reader: string): SearchResultExplain {
  return { reader, ranks: h.ranks, fused: Math.round((h.fused ?? 0) * 1e6) / 1e6, stages: record.get(h.chunkId) ?? [] };
}

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

/** The results of the capped list `merged`, each with its explanation when `record` was kept. */
export function resultsOf(merged: (Candidate & { fused?: number })[], record: StageRecord | undefined, plan: QueryPlan): SearchResult[] {
  return merged.map((h) => (record ? { ...toResult(h), explain: explainOf(h, record, plan.reader) } : toResult(h)));
}

/** What the gate reads besides the results: the statistics, the term selection and what named each result. */
export interface GateFacts {
  selection: TermSelection;
  df: Map<string, number>;
  totalDocs: number;
  lexicalVectors: boolean | undefined;
  evidence: Evidence;
  /** Chunks the query names (anchors, a found callee). */
  named: ReadonlySet<string>;
}

/** The confidence gate over `merged`, with the plan's rules (QueryPlan.gate). */
export function gateOf(merged: Candidate[], outcomes: RepoOutcome[], plan: QueryPlan, facts: GateFacts): SearchResponse["confidence"] {
  const vectorScores = outcomes.map((o) => o.bestVectorScore).filter((s): s is number => s !== null);
  const { selection, evidence } = facts;
  const { spelledNames, ...rules } = plan.gate;
  // A definition the question writes as code (`for_each_codepoint`) is named by it, like an anchor.
  const spelled = new Set(spelledNames);
  const terms = plan.query.terms;
  const gateTerms = terms.length > selection.selected.length + selection.absent.length ? selection.selected : terms;
  return confidenceGate({
    terms: gateTerms,
    resultTexts: merged.map((h) => h.row.content),
    resultTokens: merged.map((h) => chunkTokens(h.row)),
    bestVectorScore: vectorScores.length ? Math.max(...vectorScores) : null,
    lexicalVectors: facts.lexicalVectors,
    df: facts.df,
    totalDocs: facts.totalDocs,
    resultPaths: merged.map((h) => h.row.path),
    resultIsEntry: merged.map((h) => evidence.entries.has(fileOf(h))),
    resultNamed: merged.map(
      (h) => facts.named.has(h.chunkId) || evidence.entries.has(fileOf(h)) || (h.row.symbol !== null && spelled.has(h.row.symbol.toLowerCase())),
    ),
    resultRanks: merged.map((h) => h.ranks),
    // The plan's rules (report rules, entry rule, function words), under the gate's own names.
    ...rules,
  });
}

/** Candidates per channel and the channels skipped, over the repos. */
export function channelStats(outcomes: RepoOutcome[]): Pick<SearchResponse["stats"], "candidates" | "skippedChannels"> {
  const candidates: SearchResponse["stats"]["candidates"] = {};
  const skippedChannels: SearchResponse["stats"]["skippedChannels"] = [];
  for (const o of outcomes) {
    for (const c of o.channels) {
      candidates[c.channel] = (candidates[c.channel] ?? 0) + c.hits.length;
      if (c.skipped) skippedChannels.push({ repo: o.repo, channel: c.channel, reason: c.skipped });
    }
  }
  return { candidates, skippedChannels };
}
