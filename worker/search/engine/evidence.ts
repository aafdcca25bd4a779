/**
 * @module worker/search/engine/evidence
 *
 * The evidence a plan lists, looked up for the stages that read it (RankingStage.needs): the
 * chunks of a report's stack frames, the files declaring the command-line options it names, the
 * files raising the messages it pastes and the repos' declared entry points. Each lookup runs
 * per repo; a repo whose lookup fails is logged and gives nothing. The SQL is the lookups' own
 * (stack-trace.ts, option-flags.ts, error-messages.ts, entry-lookup.ts).
 */
import type { RepoPackage } from "../../../indexer/store/contract";
import { snapshotEntries, type EntryChunk } from "../entry-lookup";
import { messageFiles } from "../error-messages";
import { passesFilters } from "../filters";
import { optionDeclarationFiles } from "../option-flags";
import type { QueryPlan } from "../plan";
import type { EvidenceKind } from "../ranking";
import { MAX_ENTRY_ANCHORS, MAX_MESSAGE_ANCHORS, MAX_OPTION_ANCHORS } from "../ranking/weights";
import { frameChunks, outerFrameChunks, traceAnchor, type FrameChunk } from "../stack-trace";
import type { SearchFilters } from "../types";
import type { RepoTarget } from "./deps";

/** The lookups' reads, one result per repo; none of them rejects. */
export interface EvidenceReads {
  optionFiles: Promise<Map<string, string>[]>;
  raising: Promise<Map<string, string>[]>;
  traceChunks: Promise<FrameChunk[][]>;
  /** The entry chunks of each repo that pass the filters. */
  entries: Promise<EntryChunk[][]>;
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

/** Starts the lookups of the evidence kinds in `needed` that the plan lists something for. */
export function startEvidence(
  db: (t: RepoTarget) => D1Database,
  targets: RepoTarget[],
  plan: QueryPlan,
  needed: ReadonlySet<EvidenceKind>,
  filtersOf: (t: RepoTarget) => Promise<SearchFilters>,
): EvidenceReads {
  const { frames, options, messages, entryPoints } = plan.evidence;
  return {
    optionFiles:
      needed.has("options") && options.length
        ? eachRepo(
            targets,
            "option lookup",
            async (t) => optionDeclarationFiles(db(t), t.id, t.commit, options, await filtersOf(t)),
            () => new Map<string, string>(),
          )
        : Promise.resolve([]),
    raising:
      needed.has("messages") && messages.length
        ? eachRepo(
            targets,
            "message lookup",
            async (t) => messageFiles(db(t), t.id, t.commit, messages, await filtersOf(t)),
            () => new Map<string, string>(),
          )
        : Promise.resolve([]),
    traceChunks:
      needed.has("frames") && frames.length
        ? eachRepo(
            targets,
            "stack frame lookup",
            async (t) => frameChunks(db(t), t.id, t.commit, frames, await filtersOf(t)),
            () => [],
          )
        : Promise.resolve([]),
    entries:
      needed.has("entries") && entryPoints
        ? eachRepo(
            targets,
            "entry lookup",
            async (t) => {
              const [entries, f] = await Promise.all([snapshotEntries(db(t), [t]), filtersOf(t)]);
              return entries.filter((e) => passesFilters(f, e.path, e.language));
            },
            () => [],
          )
        : Promise.resolve([]),
  };
}

/** The evidence found, merged over the repos, and the chunks it names (anchors). */
export interface Evidence {
  /** Files declaring an option the query names (repo\0path -> chunk id). */
  declaring: Map<string, string>;
  /** Files raising a message the query pastes (repo\0path -> chunk id). */
  raisers: Map<string, string>;
  /** Packages each searched repo publishes, by repo id. */
  packages: Map<string, RepoPackage[]>;
  /** Where the trace surfaced (traceAnchor), and its other frames' chunks (outerFrameChunks). */
  anchor: FrameChunk | null;
  outerFrames: FrameChunk[];
  /** The searched snapshots' entry files (repo\0path -> what declared it). */
  entries: Map<string, string>;
  /**
   * Chunks the query itself names (or the repo for it), in order: the trace's anchor and outer
   * frames, each declaring file's declaration, the chunk raising a pasted message, the declared
   * entries (each list capped by its MAX_*_ANCHORS).
   */
  anchors: string[];
}

/** Waits for the lookups and merges them over the repos. */
export async function collectEvidence(reads: EvidenceReads, plan: QueryPlan, targets: RepoTarget[]): Promise<Evidence> {
  const declaring = new Map((await reads.optionFiles).flatMap((m) => [...m]));
  const raisers = new Map((await reads.raising).flatMap((m) => [...m]));
  // A frame under node_modules/<name>/ names a file only in the repo publishing <name>.
  const packages = new Map(targets.map((t) => [t.id, t.packages ?? []]));
  const frameRows = (await reads.traceChunks).flat();
  const anchor = traceAnchor(plan.evidence.frames, frameRows, packages);
  const outerFrames = outerFrameChunks(plan.evidence.frames, frameRows, anchor, packages);
  // A repo's declared entries, strongest tier first over all repos (a stable sort keeps each repo's order).
  const tierRank = { declared: 0, main: 1, conventional: 2 } as const;
  const entryChunks = (await reads.entries).flat().sort((a, b) => tierRank[a.tier] - tierRank[b.tier]);
  const entries = new Map(entryChunks.map((e) => [`${e.repo}\0${e.path}`, e.source]));
  const anchors = [
    ...(anchor ? [anchor.id] : []),
    ...outerFrames.map((c) => c.id),
    ...[...declaring.values()].slice(0, MAX_OPTION_ANCHORS),
    ...[...raisers.values()].slice(0, MAX_MESSAGE_ANCHORS),
    ...entryChunks.slice(0, MAX_ENTRY_ANCHORS).map((e) => e.chunkId),
  ];
  return { declaring, raisers, packages, anchor, outerFrames, entries, anchors };
}
