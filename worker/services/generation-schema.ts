/**
 * @module worker/services/generation-schema
 *
 * Wire shapes every model-backed answer shares (ask, review): the tokens a call spent with their
 * estimated cost, and which prompt file produced it.
 */
import { z } from "zod";

/** Tokens spent (Anthropic Messages API `usage` fields) and the estimated cost in US dollars (null without a price). */
export const usageSchema = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  cacheWriteTokens: z.number().int(),
  costUsd: z.number().nullable(),
});

/** A prompt as loaded from prompts/ (prompts/index.ts): its id, front-matter version and the sha256 of its body. */
export const promptRefSchema = z.object({ id: z.string(), version: z.number().int(), sha256: z.string() });
