/**
 * @module worker/search/ranking/receiver
 *
 * Stage "receiver" (the report reader lists receivers: `stages.receivers`): a member the report's code uses on an object it constructed,
 * of a class its title names ("Wrong Derivative kind attribute", `d = Derivative(A, x)`,
 * `d.kind`); that member's definition, or the class's own chunk, is lifted
 * (worker/search/receiver-prior.ts).
 */
import { applyReceiverPrior } from "../receiver-prior";
import type { RankingStage } from "./stage";

export const receiverStage: RankingStage = {
  name: "receiver",
  planElement: "stages.receivers",
  needs: [],
  applies: (plan) => plan.stages.receivers.length > 0,
  run: (candidates, ctx) => applyReceiverPrior(candidates, ctx.plan.stages.receivers),
};
