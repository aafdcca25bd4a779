/**
 * @module worker/ask/generate-answer
 *
 * The model side of an answer: one call with the cached system prompt and the fenced evidence,
 * structured output, no tools; the reply validated with zod; one retry carrying the validation
 * errors (or the output cap that cut it); `stop_reason: refusal` ends it at once. Every call's
 * usage is handed to `onUsage` (the budget ledger) as soon as it is known.
 */
import { addUsage, ZERO_USAGE, type GenerationMessage, type GenerationProvider, type TokenUsage } from "../../kernel/generation";
import type { Prompt } from "../../prompts";
import { ANSWER_JSON_SCHEMA, parseModelAnswer, type ModelAnswer } from "./answer-format";
import { AnswerFieldStream } from "./answer-stream";

/** Hooks for streaming: draft answer deltas, and a reset when a retry starts over. */
export interface AnswerStreamHooks {
  onDelta?(text: string): void;
  onReset?(reason: string): void;
}

/** What the model produced, before verification. */
export type GeneratedAnswer = { kind: "answer"; value: ModelAnswer } | { kind: "refusal"; reason: string } | { kind: "invalid"; reason: string };

/** Options of `generateAnswer`. */
export interface GenerateAnswerOptions {
  provider: GenerationProvider;
  prompt: Prompt;
  userMessage: string;
  maxOutputTokens: number;
  hooks?: AnswerStreamHooks;
  /** Records one call's usage; not awaited between calls (see `GenerateAnswerResult.recorded`). */
  onUsage(usage: TokenUsage): Promise<void>;
  signal?: AbortSignal;
}

/** Result with the summed usage, the number of calls and the model's own time. */
export interface GenerateAnswerResult {
  outcome: GeneratedAnswer;
  usage: TokenUsage;
  calls: number;
  modelMs: number;
  model: string;
  /** Settles when every `onUsage` write has finished (the caller awaits it with its own reads). */
  recorded: Promise<void>;
}

/** Most calls for one answer: the first and one retry with the validation errors. */
export const ASK_MAX_MODEL_CALLS = 2;

/** Runs the model for one answer (see module note). Throws `generation_failed` from the provider. */
export async function generateAnswer(o: GenerateAnswerOptions): Promise<GenerateAnswerResult> {
  const messages: GenerationMessage[] = [{ role: "user", content: o.userMessage }];
  let usage = ZERO_USAGE;
  let modelMs = 0;
  let model = o.provider.model;
  let lastProblem = "";
  const writes: Promise<void>[] = [];
  const recorded = () => Promise.all(writes).then(() => undefined);
  for (let call = 1; call <= ASK_MAX_MODEL_CALLS; call++) {
    if (call > 1) o.hooks?.onReset?.(lastProblem);
    const extractor = new AnswerFieldStream();
    const onTextDelta = o.hooks?.onDelta
      ? (d: string) => {
          const text = extractor.push(d);
          if (text) o.hooks!.onDelta!(text);
        }
      : undefined;
    const r = await o.provider.generate({
      system: [{ text: o.prompt.text, cache: true }],
      messages,
      maxOutputTokens: o.maxOutputTokens,
      outputSchema: ANSWER_JSON_SCHEMA,
      onTextDelta,
      signal: o.signal,
      purpose: "ask.answer",
      promptVersion: `${o.prompt.id}@${o.prompt.version}`,
    });
    usage = addUsage(usage, r.usage);
    modelMs += r.latencyMs;
    model = r.model;
    // A failed ledger write costs the budget's accuracy, never the answer: logged, not thrown.
    writes.push(o.onUsage(r.usage).catch((err) => console.error("ask usage ledger write failed", err)));
    if (r.stopReason === "refusal") {
      return {
        outcome: { kind: "refusal", reason: "The model declined to answer this question (stop_reason: refusal)." },
        usage,
        calls: call,
        modelMs,
        model,
        recorded: recorded(),
      };
    }
    const parsed = r.stopReason === "max_tokens" ? null : parseModelAnswer(r.text);
    if (parsed?.ok) return { outcome: { kind: "answer", value: parsed.value }, usage, calls: call, modelMs, model, recorded: recorded() };
    const errors = parsed ? parsed.errors : [`the reply was cut at the output cap of ${o.maxOutputTokens} tokens`];
    lastProblem = errors.join("; ");
    messages.push({ role: "assistant", content: r.text || "(empty)" });
    messages.push({
      role: "user",
      content:
        `Your reply could not be used: ${lastProblem}. Reply again with exactly one JSON object in the required format` +
        (parsed ? "." : `, shorter: at most about ${Math.floor(o.maxOutputTokens / 2)} tokens.`),
    });
  }
  return {
    outcome: { kind: "invalid", reason: `The model's reply was unusable twice (${lastProblem}).` },
    usage,
    calls: ASK_MAX_MODEL_CALLS,
    modelMs,
    model,
    recorded: recorded(),
  };
}
