/**
 * @module worker/search/ranking/message
 *
 * Stage "message": the file raising a message the query pastes is where its trouble starts, and so
 * is the raising chunk unless a stack trace says where it surfaced (worker/search/error-messages.ts).
 */
import { applyMessagePrior } from "../error-messages";
import type { RankingStage } from "./stage";

export const messageStage: RankingStage = {
  name: "message",
  planElement: "evidence.messages",
  needs: ["messages", "frames"],
  applies: () => true,
  run: (candidates, ctx) => applyMessagePrior(candidates, new Set(ctx.raisers.keys()), ctx.fileOf, ctx.anchor ? undefined : new Set(ctx.raisers.values())),
};
