/**
 * @module worker/generation/scripted
 *
 * A scripted `GenerationProvider` for tests only (never chosen by configuration): each call
 * pops the next scripted reply, or computes one from the request with a function. It records
 * every request so a test can assert what a model would have been sent, and how many calls
 * were made (zero for a refusal before any tokens are spent).
 */
import type { GenerationProvider, GenerationRequest, GenerationResult, ModelPrice, StopReason, TokenUsage } from "../../kernel/generation";

/** One scripted reply. */
export interface ScriptedReply {
  text: string;
  stopReason?: StopReason;
  usage?: Partial<TokenUsage>;
}

/** A scripted provider; `requests` holds every request received, in order. */
export class ScriptedGenerationProvider implements GenerationProvider {
  readonly name = "scripted";
  readonly requests: GenerationRequest[] = [];

  constructor(
    private readonly script: ScriptedReply[] | ((req: GenerationRequest, call: number) => ScriptedReply),
    readonly model = "scripted-model",
    readonly price: ModelPrice | null = { inputPerMTok: 2, outputPerMTok: 10, cacheReadPerMTok: 0.1, cacheWritePerMTok: 2.5 },
  ) {}

  async generate(req: GenerationRequest): Promise<GenerationResult> {
    this.requests.push(req);
    const call = this.requests.length - 1;
    const reply = typeof this.script === "function" ? this.script(req, call) : this.script[call];
    if (!reply) throw new Error(`scripted provider: no reply scripted for call ${call + 1}`);
    req.onTextDelta?.(reply.text);
    const usage: TokenUsage = { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, ...reply.usage };
    return {
      content: [{ type: "text", text: reply.text }],
      text: reply.text,
      stopReason: reply.stopReason ?? "end_turn",
      usage,
      model: this.model,
      latencyMs: 0,
      retries: 0,
    };
  }
}
