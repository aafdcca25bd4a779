/**
 * @module worker/search/ranking/qualified
 *
 * Stage "qualified" (questions only): a question's `Type.member` (or Type and member named apart)
 * is an address; the member in that container ranks first (worker/search/qualified-prior.ts).
 */
import { applyQualifiedPrior } from "../qualified-prior";
import type { RankingStage } from "./stage";

export const qualifiedStage: RankingStage = {
  name: "qualified",
  applies: (ctx) => !ctx.query.isReport,
  run: (candidates, ctx) => applyQualifiedPrior(candidates, ctx.query.qualified, ctx.query.identifiers),
};
