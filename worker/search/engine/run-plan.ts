/**
 * @module worker/search/engine/run-plan
 *
 * The engine: runs any query plan once the channels' and lookups' reads are under way. It fuses
 * the repos' channel lists with the plan's weights, gathers the evidence the plan's stages
 * need, reranks the head through the stages that apply to the plan (worker/search/ranking/),
 * caps per file (sparing what the plan exempts) and gates with the plan's rules. It never asks
 * what kind of query the plan came from: the reader (worker/search/readers/) decided all that.
 */
import { CodeSearchError } from "../../../kernel/errors";
import { explainEmpty } from "../empty-answer";
import { capPerFile } from "../fuse";
import type { QueryPlan } from "../plan";
import { runStages, type StageRecord } from "../ranking";
import type { TermStatistics } from "../term-stats";
import type { TermSelection } from "../terms";
import type { SearchResponse } from "../types";
import { fuseRepos, type CandidateReads, type ChannelRun, type RepoOutcome } from "./candidates";
import type { RepoTarget, SearchDeps, SearchOptions } from "./deps";
import { collectEvidence } from "./evidence";
import { loadHead } from "./head";
import { channelStats, fileOf, gateOf, resultsOf } from "./respond";
import { targetDb } from "../shard-targets";

/** What runPlan runs: the plan, the searched repos, the reads started for them and the term statistics. */
export interface PlanRun {
  deps: SearchDeps;
  targets: RepoTarget[];
  plan: QueryPlan;
  options: SearchOptions;
  run: ChannelRun;
  reads: CandidateReads;
  statistics: TermStatistics;
  selection: TermSelection;
  /** Document frequencies with English words' capped (proseCappedDf), for the coverage stage. */
  weightDf: Map<string, number>;
  /** Results the head is sized for: max(k, RANK_STABLE_K). */
  sizedFor: number;
  /** `Date.now()` when the search started. */
  started: number;
}

/** Splits the settled repo runs into outcomes and failed repos (a coded error's message is for clients; anything else stays in the log). */
function settle(
  settled: PromiseSettledResult<RepoOutcome>[],
  targets: RepoTarget[],
): { outcomes: RepoOutcome[]; failedRepos: SearchResponse["stats"]["failedRepos"] } {
  const failedRepos: SearchResponse["stats"]["failedRepos"] = [];
  const outcomes: RepoOutcome[] = [];
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") outcomes.push(s.value);
    else {
      console.error(`search failed for repo ${targets[i].id}`, s.reason);
      const error =
        s.reason instanceof CodeSearchError ? `${s.reason.code}: ${s.reason.message}` : "internal: this repo's search failed; the server log has details.";
      failedRepos.push({ repo: targets[i].id, error });
    }
  });
  return { outcomes, failedRepos };
}

/** Runs `r.plan` to the answer: fuse, gather evidence, rerank by the plan's stages, cap, gate. Never throws for a failing repo. */
export async function runPlan(r: PlanRun): Promise<SearchResponse> {
  const { deps, targets, plan, options, run } = r;
  const { outcomes, failedRepos } = settle(await r.reads.settled, targets);
  const fused = fuseRepos(outcomes, run.channels, run.depth, { ...plan.fusion, ...options.weights });
  const evidence = await collectEvidence(r.reads.evidence, plan, targets);
  const head = await loadHead(deps, targets, fused, r.sizedFor, evidence, plan);
  // The stages after fusion (worker/search/ranking/stages.ts): coverage, then the priors.
  const record: StageRecord | undefined = options.explain ? new Map() : undefined;
  const reranked = runStages(
    head.candidates,
    {
      plan,
      terms: r.selection.selected,
      weightDf: r.weightDf,
      totalDocs: r.statistics.totalDocs,
      declaring: evidence.declaring,
      raisers: evidence.raisers,
      frames: head.trace.frames,
      anchor: head.trace.anchor,
      outerFrames: head.trace.outer,
      packages: evidence.packages,
      entries: evidence.entries,
      fileOf,
    },
    record,
  );
  const ordered = [...reranked].sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
  // The cap keeps one file from filling the page; what the plan exempts it does not hide.
  const exempt = new Set(plan.capExempt);
  const merged = capPerFile(ordered, options.fileCap, fileOf, (h) => h.row.symbol !== null && exempt.has(h.row.symbol)).slice(0, options.k);
  const results = resultsOf(merged, record, plan);
  const { df, totalDocs } = r.statistics;
  const gated = gateOf(merged, outcomes, plan, { selection: r.selection, df, totalDocs, lexicalVectors: deps.embedder.lexical, evidence, named: head.named });
  // Nothing found because of the index or the filters, not the words: say so.
  const emptyReason = results.length ? null : await explainEmpty(targetDb(deps), targets, run.filters, r.statistics.chunksByRepo);
  const confidence = emptyReason ? { ...gated, level: "low" as const, missingTerms: [], reason: emptyReason } : gated;
  return {
    results,
    confidence,
    stats: { tookMs: Date.now() - r.started, repos: targets.map((t) => t.id), failedRepos, queryTerms: r.selection.selected, ...channelStats(outcomes) },
  };
}
