/**
 * @module worker/generation/workers-ai
 *
 * `GenerationProvider` over a Workers AI text-generation model (the `AI` binding), for teams
 * without an Anthropic key. Structured output uses Workers AI JSON mode (`response_format:
 * {type: "json_schema"}`), supported by the default model (models.ts). The system blocks are
 * joined into one system message (Workers AI has no prompt cache); tools are not offered (the
 * answer flow needs none). Streaming is not used: `onTextDelta` receives the whole text once.
 * Workers AI reports no cache tokens and is priced in neurons, so `price` is null.
 */
import { CodeSearchError } from "../../kernel/errors";
import type { GenerationProvider, GenerationRequest, GenerationResult } from "../../kernel/generation";
import { logModelCall } from "./usage-log";

/** The part of the `AI` binding this provider uses. */
export interface AiTextRunner {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

interface AiTextOutput {
  response?: unknown;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** Workers AI text generation as a `GenerationProvider`. */
export class WorkersAiGenerationProvider implements GenerationProvider {
  readonly name = "workers-ai";
  readonly price = null;

  constructor(
    private readonly ai: AiTextRunner,
    readonly model: string,
  ) {}

  async generate(req: GenerationRequest): Promise<GenerationResult> {
    if (req.tools?.length)
      throw new CodeSearchError("generation_failed", "The Workers AI provider does not offer tools; use GENERATION_PROVIDER=anthropic for tool use.");
    const started = Date.now();
    const messages = [
      { role: "system", content: req.system.map((s) => s.text).join("\n\n") },
      ...req.messages.map((m) => ({
        role: m.role,
        content:
          typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? b.content : "")).join("\n"),
      })),
    ];
    let out: AiTextOutput;
    try {
      out = (await this.ai.run(this.model, {
        messages,
        max_tokens: req.maxOutputTokens,
        ...(req.outputSchema ? { response_format: { type: "json_schema", json_schema: req.outputSchema } } : {}),
      })) as AiTextOutput;
    } catch {
      logModelCall(
        {
          provider: this.name,
          model: this.model,
          purpose: req.purpose,
          promptVersion: req.promptVersion,
          outcome: "error",
          error: "binding",
          latencyMs: Date.now() - started,
          retries: 0,
          streamed: false,
        },
        null,
      );
      throw new CodeSearchError("generation_failed", "Workers AI failed to generate an answer; retry later.", { provider: this.name, error: "binding" });
    }
    const text = typeof out.response === "string" ? out.response : out.response === undefined ? "" : JSON.stringify(out.response);
    const usage = { inputTokens: out.usage?.prompt_tokens ?? 0, outputTokens: out.usage?.completion_tokens ?? 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    // Workers AI does not say why it stopped; output at the cap is taken as cut.
    const stopReason = usage.outputTokens >= req.maxOutputTokens ? "max_tokens" : "end_turn";
    req.onTextDelta?.(text);
    const result: GenerationResult = {
      content: [{ type: "text", text }],
      text,
      stopReason,
      usage,
      model: this.model,
      latencyMs: Date.now() - started,
      retries: 0,
    };
    logModelCall(
      {
        provider: this.name,
        model: this.model,
        purpose: req.purpose,
        promptVersion: req.promptVersion,
        outcome: "ok",
        stopReason,
        usage,
        latencyMs: result.latencyMs,
        retries: 0,
        streamed: false,
      },
      null,
    );
    return result;
  }
}
