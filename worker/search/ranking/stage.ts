/**
 * @module worker/search/ranking/stage
 *
 * The one interface of a ranking stage: it reads the parsed query, the candidates (fused head
 * with their chunk rows) and the evidence looked up for the query, and returns the adjusted
 * candidates. What each stage did is recorded by the runner (runStages), per candidate, as the
 * factor its score was multiplied by: the `explain` of a search (like zoekt's DebugScore).
 */
import type { RepoPackage } from "../../../indexer/store/contract";
import type { FusedHit } from "../fuse";
import type { ParsedQuery } from "../query";
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

/** What the stages read besides the candidates: the query and the evidence looked up for it. */
export interface RankingContext {
  query: ParsedQuery;
  /** BM25 terms after IDF selection. */
  terms: string[];
  /** Document frequencies for weighting terms (prose-capped) and the searched snapshots' chunk count. */
  weightDf: Map<string, number>;
  totalDocs: number;
  /** Files declaring a command-line option the query names (repo\0path -> chunk id). */
  declaring: Map<string, string>;
  /** Files raising a message the query pastes (repo\0path -> chunk id). */
  raisers: Map<string, string>;
  /** The chunk where the report's stack trace surfaced, if found. */
  anchor: FrameChunk | null;
  /** The chunks holding the lines of the trace's other frames in the repo, outside the anchor's file (outerFrameChunks). */
  outerFrames: FrameChunk[];
  /** Packages each searched repo publishes, by repo id. */
  packages: Map<string, RepoPackage[]>;
  /** Whether the question asks where the program starts (worker/search/entry-points.ts). */
  entryQuestion: boolean;
  /** The searched snapshots' entry files (repo\0path -> what declared it); empty unless `entryQuestion`. */
  entries: Map<string, string>;
  /** A candidate's file key, repo\0path. */
  fileOf: (c: { row: ChunkRow }) => string;
}

/** One ranking stage. */
export interface RankingStage {
  /** Stable name, as `explain` reports it. */
  name: string;
  /** Whether the stage runs for this query (e.g. only for a pasted report). */
  applies(ctx: RankingContext): boolean;
  /** Returns the candidates with adjusted scores (the same candidates; order need not be kept). */
  run(candidates: Candidate[], ctx: RankingContext): Candidate[];
}
