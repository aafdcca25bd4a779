/**
 * @module worker/search/ranking/coverage
 *
 * Stage "coverage": the IDF-weighted share of the query's terms a candidate holds reweights its
 * fused score (worker/search/rerank.ts, where the formula and its measurements are).
 */
import { rerankByCoverage } from "../rerank";
import type { RankingStage } from "./stage";

export const coverageStage: RankingStage = {
  name: "coverage",
  planElement: "stages.coverage",
  needs: [],
  applies: () => true,
  run: (candidates, ctx) => rerankByCoverage(candidates, ctx.terms, ctx.weightDf, ctx.totalDocs, ctx.plan.stages.coverage),
};
