/**
 * @module worker/search/ranking/qualified
 *
 * Stage "qualified" (the question and identifier readers turn it on: `stages.qualified`): a question's `Type.member` (or Type and member named apart)
 * is an address; the member in that container ranks first (worker/search/qualified-prior.ts).
 */
import { applyQualifiedPrior } from "../qualified-prior";
import type { RankingStage } from "./stage";

export const qualifiedStage: RankingStage = {
  name: "qualified",
  planElement: "stages.qualified",
  needs: [],
  applies: (plan) => plan.stages.qualified,
  run: (candidates, ctx) => applyQualifiedPrior(candidates, ctx.plan.query.qualified, ctx.plan.query.identifiers),
};
