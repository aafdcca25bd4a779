/**
 * @module worker/search/ranking/imports
 *
 * Stage "imports": a chunk that only imports (worker/search/import-only.ts) gets
 * IMPORT_ONLY_PRIOR, so code that does something ranks above the lines that name it, unless the
 * question asks about imports ("which files import zod"), whatever reader planned the query.
 */
import { asksAboutImports, isImportOnly } from "../import-only";
import { applyPrior } from "../prior";
import type { RankingStage } from "./stage";
import { IMPORT_ONLY_PRIOR } from "./weights";

export const importsStage: RankingStage = {
  name: "imports",
  planElement: "query.text",
  needs: [],
  applies: (plan) => !asksAboutImports(plan.query.text),
  // Only chunks without a symbol: a definition is never import-only, whatever its text.
  run: (candidates) => applyPrior(candidates, (c) => (c.symbol === null && isImportOnly(c.content) ? IMPORT_ONLY_PRIOR : 1)),
};
