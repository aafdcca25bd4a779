/**
 * @module worker/search/engine/candidates
 *
 * The reads that nominate candidates: the channels of the mode over each repo (each repo
 * isolated with `Promise.allSettled`, a failing channel reported as skipped), started together
 * with the evidence lookups the plan needs so that their D1 reads go out in one round trip
 * (`deps.db` coalescing, worker/search/d1-coalesce.ts), and the fusion of the repos' lists.
 */
import { CodeSearchError, type ErrorCode } from "../../../kernel/errors";
import { bm25Channel } from "../channels/bm25";
import { lexicalChannels } from "../channels/lexical";
import { pathChannel, snapshotFiles } from "../channels/path";
import type { ChannelScope } from "../channels/scope";
import { symbolChannel } from "../channels/symbol";
import { vectorChannel } from "../channels/vector";
import { mergeChannelLists, reciprocalRankFusion, type FusedHit } from "../fuse";
import { normalizePathFilter, pathPasses } from "../path-filter";
import type { ParsedQuery, QueryPlan } from "../plan";
import type { EvidenceKind } from "../ranking";
import type { ChannelName, ChannelResult, SearchFilters } from "../types";
import type { RepoTarget, SearchDeps } from "./deps";
import { startEvidence, type EvidenceReads } from "./evidence";
import { depsFor, targetDb } from "../shard-targets";

/** The code reported for a failed channel: a coded error's code, else `internal` (details go to the log). */
function failureCode(err: unknown): ErrorCode {
  return err instanceof CodeSearchError ? err.code : "internal";
}

/** One repo's channel lists (each best first, at most `depth` long). */
export interface RepoOutcome {
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
export function fuseRepos(outcomes: RepoOutcome[], channels: ChannelName[], depth: number, weights: Partial<Record<ChannelName, number>>): FusedHit[] {
  const merged = channels.map((name) =>
    mergeChannelLists(
      outcomes.map((o) => o.channels.find((c) => c.channel === name) ?? { channel: name, hits: [] }),
      depth,
    ),
  );
  return reciprocalRankFusion(merged, undefined, weights);
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

/** The reads of the channels and of the evidence lookups (readCandidates); none of them rejects. */
export interface CandidateReads {
  settled: Promise<PromiseSettledResult<RepoOutcome>[]>;
  evidence: EvidenceReads;
}

/** How the channels run: which, with which BM25 terms and filters, how deep. */
export interface ChannelRun {
  channels: ChannelName[];
  terms: string[];
  filters: SearchFilters;
  depth: number;
}

/**
 * Starts the channels over `targets` with the BM25 terms of `run`, and the lookups of the
 * evidence the plan's stages need (`needed`). Their D1 reads go out together.
 */
export function readCandidates(deps: SearchDeps, targets: RepoTarget[], plan: QueryPlan, run: ChannelRun, needed: ReadonlySet<EvidenceKind>): CandidateReads {
  const filtersOf = repoFilters(targetDb(deps), run.filters);
  return {
    settled: Promise.allSettled(targets.map(async (t) => runChannels(deps, t, plan.query, run.terms, run.channels, await filtersOf(t), run.depth))),
    evidence: startEvidence(targetDb(deps), targets, plan, needed, filtersOf),
  };
}
