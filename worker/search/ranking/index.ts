/**
 * @module worker/search/ranking
 *
 * Ranking after fusion as named stages behind one interface (stage.ts), run in the order of
 * stages.ts, each recording its factor per candidate for `explain`.
 */
export { evidenceNeeded, runStages, STAGES, type StageRecord } from "./stages";
export type { Candidate, EvidenceKind, RankingContext, RankingStage } from "./stage";
