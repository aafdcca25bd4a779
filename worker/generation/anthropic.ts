/**
 * @module worker/generation/anthropic
 *
 * `GenerationProvider` over the Anthropic Messages API through the official SDK
 * (@anthropic-ai/sdk). The SDK's own retries are off (`maxRetries: 0`): retries are owned by
 * kernel/retry.ts (429, 5xx and 529 with backoff and jitter, honouring `retry-after`; never
 * another 4xx). A streamed call is retried only before its first delta reached the caller, so a
 * client never sees text twice.
 *
 * Structured output uses `output_config.format` (JSON Schema), not a forced tool call: Claude
 * Sonnet 5.5 answers a forced `tool_choice` with a 400 (its migration guide), and structured
 * output leaves the model with no tools at all. Tools, when a caller offers them, are passed
 * through with `tool_choice: auto` for tool-use loops.
 *
 * `baseURL` may point at Cloudflare AI Gateway (`ANTHROPIC_BASE_URL`,
 * https://gateway.ai.cloudflare.com/v1/{account}/{gateway}/anthropic) or, in tests, at a
 * scripted Messages API server on loopback.
 */
import Anthropic, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import type { Message, MessageCreateParamsNonStreaming, MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import { CodeSearchError } from "../../kernel/errors";
import type { ContentBlock, GenerationProvider, GenerationRequest, GenerationResult, ModelPrice, StopReason } from "../../kernel/generation";
import { isRetryableStatus, parseRetryAfter, RetryableError, withRetry, type RetryOptions } from "../../kernel/retry";
import { anthropicModelOptions, priceOf } from "./models";
import { logModelCall } from "./usage-log";

/** Options of the Anthropic provider. */
export interface AnthropicProviderOptions {
  apiKey: string;
  model: string;
  /** API base URL; default https://api.anthropic.com. */
  baseURL?: string;
  /** Per-attempt timeout, ms. */
  timeoutMs: number;
  /** Effort on models that take it (models.ts). */
  effort: "low" | "medium" | "high";
  /** Transport retry policy (kernel/retry.ts); tests shorten the delays. */
  retry?: RetryOptions;
}

/** Default transport retries of a model call: 3 retries, 1 s doubling to 8 s, jittered. */
export const GENERATION_RETRY: RetryOptions = { retries: 3, minTimeoutMs: 1000, maxTimeoutMs: 8000, maxRetryAfterMs: 30_000 };

function toStopReason(r: string | null): StopReason {
  return r === "end_turn" || r === "max_tokens" || r === "stop_sequence" || r === "tool_use" || r === "refusal" ? r : "other";
}

function toParam(m: GenerationRequest["messages"][number]): MessageParam {
  if (typeof m.content === "string") return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((b) =>
      b.type === "text"
        ? { type: "text" as const, text: b.text }
        : b.type === "tool_use"
          ? { type: "tool_use" as const, id: b.id, name: b.name, input: b.input as Record<string, unknown> }
          : { type: "tool_result" as const, tool_use_id: b.toolUseId, content: b.content, ...(b.isError ? { is_error: true } : {}) },
    ),
  };
}

function fromMessage(msg: Message): { content: ContentBlock[]; text: string } {
  const content: ContentBlock[] = [];
  for (const b of msg.content) {
    if (b.type === "text") content.push({ type: "text", text: b.text });
    else if (b.type === "tool_use") content.push({ type: "tool_use", id: b.id, name: b.name, input: b.input });
  }
  return { content, text: content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("") };
}

/** A short error class for logs and messages: never the API's message text, never a key. */
function errorClass(err: unknown): string {
  if (err instanceof RetryableError) return `http_${err.status}`;
  if (err instanceof APIConnectionTimeoutError) return "timeout";
  if (err instanceof APIUserAbortError) return "aborted";
  if (err instanceof APIError) return err.status ? `http_${err.status}` : "connection";
  return "unexpected";
}

/** The Anthropic Messages API as a `GenerationProvider`. */
export class AnthropicGenerationProvider implements GenerationProvider {
  readonly name = "anthropic";
  readonly model: string;
  readonly price: ModelPrice | null;
  readonly #client: Anthropic;
  readonly #options: AnthropicProviderOptions;

  constructor(options: AnthropicProviderOptions) {
    this.model = options.model;
    this.price = priceOf(options.model);
    this.#options = options;
    this.#client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? "https://api.anthropic.com",
      maxRetries: 0,
      timeout: options.timeoutMs,
    });
  }

  #params(req: GenerationRequest): MessageCreateParamsNonStreaming {
    const system: TextBlockParam[] = req.system.map((s) => ({
      type: "text",
      text: s.text,
      ...(s.cache ? { cache_control: { type: "ephemeral" as const } } : {}),
    }));
    const { thinking, effort } = anthropicModelOptions(this.model, this.#options.effort);
    const outputConfig = { ...(effort ? { effort } : {}), ...(req.outputSchema ? { format: { type: "json_schema" as const, schema: req.outputSchema } } : {}) };
    return {
      model: this.model,
      max_tokens: req.maxOutputTokens,
      system,
      messages: req.messages.map(toParam),
      ...(thinking ? { thinking } : {}),
      ...(Object.keys(outputConfig).length ? { output_config: outputConfig } : {}),
      ...(req.tools?.length
        ? {
            tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as { type: "object" } })),
            tool_choice: { type: req.toolChoice ?? "auto" },
          }
        : {}),
    };
  }

  async generate(req: GenerationRequest): Promise<GenerationResult> {
    const started = Date.now();
    let retries = 0;
    let delivered = false;
    const params = this.#params(req);
    const attempt = async (): Promise<Message> => {
      try {
        if (!req.onTextDelta) return await this.#client.messages.create(params, { signal: req.signal });
        const stream = this.#client.messages.stream(params, { signal: req.signal });
        stream.on("text", (delta) => {
          delivered = true;
          req.onTextDelta!(delta);
        });
        return await stream.finalMessage();
      } catch (err) {
        // Retryable only while nothing reached the caller (a retried stream would repeat text).
        if (err instanceof APIError && err.status !== undefined && isRetryableStatus(err.status) && !delivered) {
          const retryAfter = err.headers?.get("retry-after-ms");
          const ms = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : parseRetryAfter(err.headers?.get("retry-after"), Date.now());
          throw new RetryableError(`model API answered ${err.status}`, err.status, ms);
        }
        throw err;
      }
    };
    try {
      const msg = await withRetry(attempt, { ...GENERATION_RETRY, ...this.#options.retry, onRetry: () => void retries++ });
      const { content, text } = fromMessage(msg);
      const u = msg.usage;
      const usage = {
        inputTokens: u.input_tokens,
        outputTokens: u.output_tokens,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
      };
      const result: GenerationResult = {
        content,
        text,
        stopReason: toStopReason(msg.stop_reason),
        usage,
        model: msg.model,
        latencyMs: Date.now() - started,
        retries,
      };
      logModelCall(
        {
          provider: this.name,
          model: msg.model,
          purpose: req.purpose,
          promptVersion: req.promptVersion,
          outcome: "ok",
          stopReason: result.stopReason,
          usage,
          latencyMs: result.latencyMs,
          retries,
          streamed: !!req.onTextDelta,
        },
        this.price,
      );
      return result;
    } catch (err) {
      // An abort by the caller's deadline (AbortSignal.timeout) is a timeout, not a cancellation.
      const cls = err instanceof APIUserAbortError && (req.signal?.reason as Error | undefined)?.name === "TimeoutError" ? "timeout" : errorClass(err);
      logModelCall(
        {
          provider: this.name,
          model: this.model,
          purpose: req.purpose,
          promptVersion: req.promptVersion,
          outcome: "error",
          error: cls,
          latencyMs: Date.now() - started,
          retries,
          streamed: !!req.onTextDelta,
        },
        this.price,
      );
      throw new CodeSearchError("generation_failed", generationFailureMessage(cls), { provider: this.name, error: cls });
    }
  }
}

/** What a caller reads when the model API fails for good, by error class. */
function generationFailureMessage(cls: string): string {
  if (cls === "http_401" || cls === "http_403")
    return "The model API refused the server's credentials; the operator should check ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL).";
  if (cls === "http_429" || cls === "http_529" || /^http_5/.test(cls)) return "The model API is overloaded or failing and retries ran out; retry in a minute.";
  if (cls === "timeout") return "The model API did not answer in time; retry, or ask a narrower question.";
  if (cls === "connection") return "The model API could not be reached; retry later (the operator can check ANTHROPIC_BASE_URL).";
  if (cls === "aborted") return "The model call was cancelled.";
  return "The model API rejected the request; the server log has the error class.";
}
