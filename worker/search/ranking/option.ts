/**
 * @module worker/search/ranking/option
 *
 * Stage "option": the file declaring a command-line option the query names (`--name`) holds the
 * code it switches on (worker/search/option-flags.ts).
 */
import { applyOptionPrior } from "../option-flags";
import type { RankingStage } from "./stage";

export const optionStage: RankingStage = {
  name: "option",
  planElement: "evidence.options",
  needs: ["options"],
  applies: () => true,
  run: (candidates, ctx) => applyOptionPrior(candidates, new Set(ctx.declaring.keys()), ctx.fileOf),
};
