/**
 * @module worker/search/ranking/trace
 *
 * Stage "trace" (the report reader turns it on: `stages.trace`): the files of a pasted stack trace's frames rank higher, the
 * innermost in the repo most, the other frames' files less (worker/search/stack-trace.ts).
 */
import { applyTracePrior } from "../stack-trace";
import type { RankingStage } from "./stage";

export const traceStage: RankingStage = {
  name: "trace",
  planElement: "stages.trace",
  needs: ["frames"],
  applies: (plan) => plan.stages.trace,
  run: (candidates, ctx) => applyTracePrior(candidates, ctx.frames, ctx.anchor?.id, ctx.packages, ctx.outerFrames),
};
