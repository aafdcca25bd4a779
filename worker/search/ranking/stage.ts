/**
 * @module worker/search/ranking/stage
 *
 * The one interface of a ranking stage: whether the plan turns it on (and which plan element
 * does, for `explain`), the evidence it reads (the engine looks up what the applying stages
 * declare), and the adjustment itself. What each stage did is recorded by the runner
 * (runStages), per candidate, as the factor its score was multiplied by: the `explain` of a
 * search (like zoekt's DebugScore).
 */
import type { RepoPackage } from "../../../indexer/store/contract";
import type { FusedHit } from "../fuse";
import type { QueryPlan } from "../plan";
import type { StackFrame } from "../stack-frames";
import type { FrameChunk } from "../stack-trace";
import type { ChunkRow } from "../types";

/** A candidate of the reranked head: its fused hit, chunk row and the row's fields the stages read. */
export type Candidate = FusedHit & {
  row: ChunkRow;
  repo: string;
  path: string;
  kind: string;
  symbol: string | null;
  container: string | null;
  content: string;
  language: string;
};

/**
 * Evidence the engine can look up in the index for a plan (worker/search/engine/evidence.ts):
 * the chunks of pasted stack frames, the files declaring named command-line options, the files
 * raising pasted messages, the repos' declared entry points.
 */
export type EvidenceKind = "frames" | "options" | "messages" | "entries";

/** What the stages read besides the candidates: the plan and the evidence looked up for it. */
export interface RankingContext {
  plan: QueryPlan;
  /** BM25 terms after IDF selection. */
  terms: string[];
  /** Document frequencies for weighting terms (prose-capped) and the searched snapshots' chunk count. */
  weightDf: Map<string, number>;
  totalDocs: number;
  /** Files declaring a command-line option the query names (repo\0path -> chunk id). */
  declaring: Map<string, string>;
  /** Files raising a message the query pastes (repo\0path -> chunk id). */
  raisers: Map<string, string>;
  /** The trace's frames, innermost first, with a `TypeError`'s callee read as the innermost when found (withCallee). */
  frames: StackFrame[];
  /** The chunk where the report's stack trace surfaced, if found. */
  anchor: FrameChunk | null;
  /** The chunks holding the lines of the trace's other frames in the repo, outside the anchor's file (outerFrameChunks). */
  outerFrames: FrameChunk[];
  /** Packages each searched repo publishes, by repo id. */
  packages: Map<string, RepoPackage[]>;
  /** The searched snapshots' entry files (repo\0path -> what declared it); empty unless entry points were looked up. */
  entries: Map<string, string>;
  /** A candidate's file key, repo\0path. */
  fileOf: (c: { row: ChunkRow }) => string;
}

/** One ranking stage: one module under worker/search/ranking/, listed in stages.ts. */
export interface RankingStage {
  /** Stable name, as `explain` reports it. */
  name: string;
  /** The plan element that turns the stage on and sets it (`stages.trace`, `evidence.options`), as `explain` names it. */
  planElement: string;
  /** The evidence the stage reads; the engine looks up each kind some applying stage declares. */
  needs: readonly EvidenceKind[];
  /** Whether the stage runs for this plan. */
  applies(plan: QueryPlan): boolean;
  /** Returns the candidates with adjusted scores (the same candidates; order need not be kept). */
  run(candidates: Candidate[], ctx: RankingContext): Candidate[];
}
