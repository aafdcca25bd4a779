/**
 * @module worker/search/ranking/file-evidence
 *
 * Stage "file-evidence" (reports only): a file matching a pasted report in several chunks ranks
 * higher (worker/search/file-evidence.ts).
 */
import { addFileEvidence } from "../file-evidence";
import type { RankingStage } from "./stage";

export const fileEvidenceStage: RankingStage = {
  name: "file-evidence",
  applies: (ctx) => ctx.query.isReport,
  run: (candidates, ctx) => addFileEvidence(candidates, ctx.fileOf),
};
