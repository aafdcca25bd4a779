/**
 * @module worker/search/ranking/trace
 *
 * Stage "trace" (reports only): the files of a pasted stack trace's frames rank higher, the
 * innermost in the repo most, the other frames' files less (worker/search/stack-trace.ts).
 */
import { applyTracePrior } from "../stack-trace";
import type { RankingStage } from "./stage";

export const traceStage: RankingStage = {
  name: "trace",
  applies: (ctx) => ctx.query.isReport,
  run: (candidates, ctx) => applyTracePrior(candidates, ctx.query.frames, ctx.anchor?.id, ctx.packages, ctx.outerFrames),
};
