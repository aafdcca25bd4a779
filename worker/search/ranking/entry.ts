/**
 * @module worker/search/ranking/entry
 *
 * Stage "entry": for a question asking where the program starts ("where is the main entry
 * point", "where does the CLI start"), the chunks of the files the repository declares as its
 * entries (manifests, `main` functions, conventional names: worker/search/entry-points.ts) get
 * ENTRY_PRIOR, and build and tooling scripts ENTRY_TOOLING_PRIOR (they start the build). Runs
 * only when the plan looks up entry points (`evidence.entryPoints`: the question asks for one).
 */
import { isToolingPath } from "../entry-points";
import { applyPrior } from "../prior";
import type { RankingStage } from "./stage";
import { ENTRY_PRIOR, ENTRY_TOOLING_PRIOR } from "./weights";

export const entryStage: RankingStage = {
  name: "entry",
  planElement: "evidence.entryPoints",
  needs: ["entries"],
  applies: (plan) => plan.evidence.entryPoints,
  run: (candidates, ctx) => applyPrior(candidates, (c) => (ctx.entries.has(ctx.fileOf(c)) ? ENTRY_PRIOR : isToolingPath(c.path) ? ENTRY_TOOLING_PRIOR : 1)),
};
