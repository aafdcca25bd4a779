/**
 * @module worker/search/ranking/support
 *
 * Stage "support": docs, examples, tests and other supporting files rank lower than source, unless
 * a question names the kind of supporting file it wants (the readers set `stages.support`) (worker/search/support-prior.ts).
 */
import { applySupportPrior } from "../support-prior";
import type { RankingStage } from "./stage";

export const supportStage: RankingStage = {
  name: "support",
  planElement: "stages.support",
  needs: [],
  applies: () => true,
  run: (candidates, ctx) => applySupportPrior(candidates, new Set(ctx.plan.stages.support.spared), ctx.plan.stages.support.codeInDocs),
};
