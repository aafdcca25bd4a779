/**
 * @module worker/generation/models
 *
 * The one place that names model ids, their prices and the per-model request options. The
 * default Anthropic model is `DEFAULT_ANTHROPIC_MODEL`; `GENERATION_MODEL` overrides it.
 *
 * Prices: USD per million tokens from Anthropic's pricing page and the Claude Sonnet 5.5
 * migration guide (platform.claude.com/docs, "Pricing" and "Claude Sonnet 5.5 migration guide",
 * read 2026-12-01): cache writes are the 5-minute rate (this project only writes 5-minute cache
 * entries). A model missing here reports `cost: null`, never a guess.
 */
import type { ModelPrice } from "../../kernel/generation";

/** Default Anthropic model: the current Sonnet-class model (Claude Sonnet 5.5). */
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5";

/** Default Workers AI text-generation model (supports JSON-schema `response_format`). */
export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** Known prices by model id (aliases and dated ids share an entry by prefix). */
const PRICES: [prefix: string, price: ModelPrice][] = [
  ["claude-sonnet-5-5", { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.1, cacheWritePerMTok: 2.5 }],
  ["claude-sonnet-5", { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.2, cacheWritePerMTok: 2.5 }],
  ["claude-sonnet-4", { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 }],
  ["claude-opus-5-5", { inputPerMTok: 4, outputPerMTok: 20, cacheReadPerMTok: 0.2, cacheWritePerMTok: 5 }],
  ["claude-opus-5", { inputPerMTok: 5, outputPerMTok: 25, cacheReadPerMTok: 0.5, cacheWritePerMTok: 6.25 }],
  ["claude-haiku-4-5", { inputPerMTok: 1, outputPerMTok: 5, cacheReadPerMTok: 0.1, cacheWritePerMTok: 1.25 }],
];

/** The price of `model`, or null when it is not in the table (longest matching prefix wins). */
export function priceOf(model: string): ModelPrice | null {
  let best: [string, ModelPrice] | undefined;
  for (const entry of PRICES) if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1] ?? null;
}

/**
 * Request options a model needs beyond the common ones. Claude Sonnet 5.5 and Opus 5.5 think
 * adaptively by default and reject `thinking: {type: "disabled"}`, sampling parameters and a
 * forced `tool_choice` with a 400 (migration guide); `between_tools` is their lowest thinking
 * setting (no up-front thinking: a request without tools gets text only), and `effort` bounds the
 * work. Older models get neither field.
 */
export function anthropicModelOptions(
  model: string,
  effort: "low" | "medium" | "high",
): { thinking?: { type: "between_tools" }; effort?: "low" | "medium" | "high" } {
  if (/^claude-(sonnet|opus)-5-5/.test(model)) return { thinking: { type: "between_tools" }, effort };
  if (/^claude-(sonnet|opus)-5(\b|-)/.test(model)) return { effort };
  return {};
}
