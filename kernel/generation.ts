/**
 * @module kernel/generation
 *
 * The `GenerationProvider` port: one model call (a system prompt, messages, optional tools or a
 * structured-output schema) in, content blocks, a stop reason and token usage out. Beside the
 * `EmbeddingProvider` port (indexer/store/contract.ts). Implementations live in
 * worker/generation/ (Anthropic through @anthropic-ai/sdk, Workers AI, and a scripted one for
 * tests); everything else depends on this interface only.
 *
 * A provider makes exactly one model call per `generate` (its own transport retries aside, which
 * go through kernel/retry.ts): loops such as "retry once with the validation errors" or a
 * tool-use loop belong to the caller, which appends the assistant turn and the next user turn
 * to `messages` and calls again.
 */

/** A text block of a message. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** The model asking to call a tool, with the parsed JSON arguments. */
export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** The caller's answer to a `tool_use` block (sent in a user message). */
export interface ToolResultBlock {
  type: "tool_result";
  toolUseId: string;
  content: string;
  isError?: boolean;
}

/** A content block the port carries. Thinking blocks are not surfaced. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

/** One conversation turn. */
export interface GenerationMessage {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

/**
 * A part of the system prompt. `cache: true` marks the end of a stable prefix the provider may
 * cache (Anthropic `cache_control: {type: "ephemeral"}`); such a block must hold no per-request
 * data, or the cache never hits.
 */
export interface SystemBlock {
  text: string;
  cache?: boolean;
}

/** A tool the model may call (JSON Schema input). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One model call. */
export interface GenerationRequest {
  system: SystemBlock[];
  messages: GenerationMessage[];
  /** Hard cap on output tokens (`max_tokens`). */
  maxOutputTokens: number;
  /** Tools offered; absent or empty means the model gets none. */
  tools?: ToolSpec[];
  /** `auto` (default with tools) or `none`; forcing one tool is left out on purpose (see worker/generation/anthropic.ts). */
  toolChoice?: "auto" | "none";
  /**
   * Structured output: the final text must be one JSON value matching this JSON Schema
   * (Anthropic `output_config.format`, Workers AI `response_format`). The caller still validates.
   */
  outputSchema?: Record<string, unknown>;
  /** Called with each text delta as it streams; the provider streams only when this is set. */
  onTextDelta?: (delta: string) => void;
  /** Aborts the call (also used for timeouts). */
  signal?: AbortSignal;
  /** What the call is for, e.g. "ask.answer"; goes into the usage log only. */
  purpose: string;
  /** Prompt id@version, for the usage log. */
  promptVersion?: string;
}

/** Why the model stopped. `other` covers values this port does not model (pause_turn, ...). */
export type StopReason = "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "refusal" | "other";

/** Token counts of one call. `inputTokens` excludes cache reads and writes (Anthropic's convention). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** What a call produced. */
export interface GenerationResult {
  content: ContentBlock[];
  /** The text blocks joined. */
  text: string;
  stopReason: StopReason;
  usage: TokenUsage;
  /** The model that answered, as the API names it. */
  model: string;
  /** Wall time of the call including transport retries, ms. */
  latencyMs: number;
  /** Transport retries made (429, 5xx, 529). */
  retries: number;
}

/** Prices of one model, USD per million tokens. Source named where the table is defined. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok: number;
  cacheWritePerMTok: number;
}

/** A configured model behind one API. */
export interface GenerationProvider {
  /** "anthropic" | "workers-ai" | "scripted". */
  readonly name: string;
  /** Model id sent to the API. */
  readonly model: string;
  /** Its price, or null when unknown (cost is then reported as null, never guessed). */
  readonly price: ModelPrice | null;
  /**
   * One model call. Throws `CodeSearchError("generation_failed")` when the API fails for good
   * (non-retryable 4xx, retries exhausted, timeout); the message says what to do, never echoes
   * a key or the prompt.
   */
  generate(request: GenerationRequest): Promise<GenerationResult>;
}

/** Estimated cost of `usage` in USD, or null when the price is unknown. */
export function estimateCostUsd(usage: TokenUsage, price: ModelPrice | null): number | null {
  if (!price) return null;
  const usd =
    (usage.inputTokens * price.inputPerMTok +
      usage.outputTokens * price.outputPerMTok +
      usage.cacheReadTokens * price.cacheReadPerMTok +
      usage.cacheWriteTokens * price.cacheWritePerMTok) /
    1e6;
  return Math.round(usd * 1e6) / 1e6;
}

/** Sum of two usages. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** No tokens. */
export const ZERO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
