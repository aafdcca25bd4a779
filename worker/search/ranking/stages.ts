/**
 * @module worker/search/ranking/stages
 *
 * The order of the ranking stages after fusion, and the loop that runs them and records what
 * each did. The order matters: coverage first (it reads the fused score), then the priors, each
 * a multiplicative factor on the candidate's score (docs/ranking.md explains each).
 */
import { coverageStage } from "./coverage";
import { defectStage } from "./defect";
import { entryStage } from "./entry";
import { fileEvidenceStage } from "./file-evidence";
import { importsStage } from "./imports";
import { messageStage } from "./message";
import { optionStage } from "./option";
import { qualifiedStage } from "./qualified";
import { receiverStage } from "./receiver";
import type { QueryPlan } from "../plan";
import type { Candidate, EvidenceKind, RankingContext, RankingStage } from "./stage";
import { supportStage } from "./support";
import { traceStage } from "./trace";

/** The stages, in the order they run. */
export const STAGES: readonly RankingStage[] = [
  coverageStage,
  supportStage,
  fileEvidenceStage,
  traceStage,
  optionStage,
  messageStage,
  qualifiedStage,
  receiverStage,
  entryStage,
  importsStage,
  defectStage,
];

/** Per candidate (chunk id): each stage that ran, the factor it multiplied the score by and the plan element that turned it on. */
export type StageRecord = Map<string, { stage: string; factor: number; plan: string }[]>;

/** The evidence the stages that apply to `plan` read (RankingStage.needs): what the engine looks up. */
export function evidenceNeeded(plan: QueryPlan, stages: readonly RankingStage[] = STAGES): Set<EvidenceKind> {
  return new Set(stages.filter((s) => s.applies(plan)).flatMap((s) => s.needs));
}

/**
 * Runs the stages that apply to the plan, in order. With `record`, notes for every candidate each
 * stage's factor (new score / old score; 1 when the stage left it unchanged) and its plan element.
 */
export function runStages(candidates: Candidate[], ctx: RankingContext, record?: StageRecord, stages: readonly RankingStage[] = STAGES): Candidate[] {
  let list = candidates;
  for (const stage of stages) {
    if (!stage.applies(ctx.plan)) continue;
    const before = record ? new Map(list.map((c) => [c.chunkId, c.score])) : null;
    list = stage.run(list, ctx);
    if (record && before) {
      for (const c of list) {
        const old = before.get(c.chunkId);
        const factor = old ? c.score / old : 1;
        const steps = record.get(c.chunkId) ?? [];
        steps.push({ stage: stage.name, factor: Math.round(factor * 1e6) / 1e6, plan: stage.planElement });
        record.set(c.chunkId, steps);
      }
    }
  }
  return list;
}
