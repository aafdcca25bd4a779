/**
 * @module worker/search/ranking/support
 *
 * Stage "support": docs, examples, tests and other supporting files rank lower than source, unless
 * a question names the kind of supporting file it wants (worker/search/support-prior.ts).
 */
import { applySupportPrior, askedSupportKinds, supportKind } from "../support-prior";
import type { RankingStage } from "./stage";

export const supportStage: RankingStage = {
  name: "support",
  applies: () => true,
  run: (candidates, ctx) =>
    ctx.query.isReport
      ? applySupportPrior(candidates)
      : applySupportPrior(candidates, new Set([...askedSupportKinds(ctx.query.text), ...ctx.query.pathHints.flatMap((h) => supportKind(h) ?? [])]), true),
};
