/**
 * @module worker/search/ranking/receiver
 *
 * Stage "receiver" (reports only): a member the report's code uses on an object it constructed,
 * of a class its title names ("Wrong Derivative kind attribute", `d = Derivative(A, x)`,
 * `d.kind`); that member's definition, or the class's own chunk, is lifted
 * (worker/search/receiver-prior.ts).
 */
import { applyReceiverPrior } from "../receiver-prior";
import type { RankingStage } from "./stage";

export const receiverStage: RankingStage = {
  name: "receiver",
  applies: (ctx) => ctx.query.isReport && ctx.query.receivers.length > 0,
  run: (candidates, ctx) => applyReceiverPrior(candidates, ctx.query.receivers),
};
