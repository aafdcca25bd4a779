/**
 * @module worker/search/ranking/file-evidence
 *
 * Stage "file-evidence" (the report reader turns it on: `stages.fileEvidence`): a file matching a pasted report in several chunks ranks
 * higher (worker/search/file-evidence.ts).
 */
import { addFileEvidence } from "../file-evidence";
import type { RankingStage } from "./stage";

export const fileEvidenceStage: RankingStage = {
  name: "file-evidence",
  planElement: "stages.fileEvidence",
  needs: [],
  applies: (plan) => plan.stages.fileEvidence,
  run: (candidates, ctx) => addFileEvidence(candidates, ctx.fileOf),
};
