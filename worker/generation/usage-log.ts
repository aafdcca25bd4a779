/**
 * @module worker/generation/usage-log
 *
 * One structured JSON log line per model call: provider, model, purpose, prompt version, tokens,
 * latency, retries, stop reason, estimated cost and outcome. Never the prompt, the evidence, the
 * answer, the question or a key: only counts and names, so logs can be shipped anywhere.
 */
import { estimateCostUsd, type ModelPrice, type StopReason, type TokenUsage } from "../../kernel/generation";

/** Fields of one log line (`event: "model_call"`). */
export interface ModelCallLog {
  provider: string;
  model: string;
  purpose: string;
  promptVersion?: string;
  outcome: "ok" | "error";
  /** The error class on failure, e.g. "http_429", "timeout" (never the message). */
  error?: string;
  stopReason?: StopReason;
  usage?: TokenUsage;
  latencyMs: number;
  retries: number;
  streamed: boolean;
}

/** Writes the line to the console as JSON (Workers Logs / wrangler tail pick it up). */
export function logModelCall(entry: ModelCallLog, price: ModelPrice | null): void {
  const costUsd = entry.usage ? estimateCostUsd(entry.usage, price) : null;
  console.log(JSON.stringify({ event: "model_call", ...entry, costUsd }));
}
