/**
 * @module worker/review/loop
 *
 * The explicit tool-use loop of a review. Each model call gets the cached system prompt, the
 * review tools plus `submit_review` (whose input schema is `submitReviewInput`, as JSON Schema),
 * and the conversation so far. The conversation is append-only (the first user message, then
 * each assistant turn and the user turn answering it), so every call's prefix is the previous
 * call's prompt and prompt caching holds; tools and the system prompt carry no per-request bytes.
 *
 * Per turn: every tool call runs in parallel and all results go back in one user message, in
 * the order of the calls; bad input and blocked paths come back as `is_error` results. A valid
 * `submit_review` ends the loop; an invalid one is answered with its validation errors. A turn
 * with no tool call (prose, or a reply cut at the output cap) gets one nudge; a second such turn
 * ends the loop as `no_submission`. `stop_reason: refusal` ends it as `refused`. At most
 * `maxModelCalls` calls are made (`iteration_limit`); the last turn is told to submit.
 */
import {
  addUsage,
  ZERO_USAGE,
  type ContentBlock,
  type GenerationMessage,
  type GenerationProvider,
  type ToolResultBlock,
  type ToolSpec,
  type ToolUseBlock,
  type TokenUsage,
} from "../../kernel/generation";
import type { Prompt } from "../../prompts";
import { submitReviewInput, type SubmitReviewInput, type ToolCallLog } from "../services/review-schema";
import { renderToolResult } from "./render";
import { toToolJsonSchema, type ToolCallResult } from "./tools";

/** Default most model calls of one review (the issue's iteration guard). */
export const REVIEW_DEFAULT_MAX_MODEL_CALLS = 8;

/** The submission tool; its description is part of the cached prefix. */
export const SUBMIT_REVIEW_TOOL: ToolSpec = {
  name: "submit_review",
  description:
    "Submit the finished review: a summary and the findings, each pinned to a file and a line (new-side line numbers for a diff). Call it exactly once, when done; " +
    "an invalid submission is answered with the validation errors to fix.",
  inputSchema: toToolJsonSchema(submitReviewInput),
};

/** How the loop ended. */
export type ReviewLoopOutcome =
  | { kind: "submitted"; review: SubmitReviewInput }
  | { kind: "refused"; reason: string }
  | { kind: "no_submission"; reason: string }
  | { kind: "iteration_limit"; reason: string };

/** Options of `runReviewLoop`. */
export interface ReviewLoopOptions {
  provider: GenerationProvider;
  system: Prompt;
  /** The first user message (the filled task prompt with the fenced material). */
  taskMessage: string;
  /** The review tools (without submit_review). */
  tools: ToolSpec[];
  /** Runs one tool call; never throws (worker/review/tools.ts `runReviewTool`). */
  runTool(name: string, input: unknown): Promise<ToolCallResult>;
  nonce: string;
  maxModelCalls: number;
  maxOutputTokens: number;
  /** Records one call's usage (the budget ledger); failures are logged, never thrown. */
  onUsage(usage: TokenUsage): Promise<void>;
  /** Clock, ms (tool durations). */
  now?: () => number;
  signal?: AbortSignal;
}

/** What the loop produced. */
export interface ReviewLoopResult {
  outcome: ReviewLoopOutcome;
  toolCalls: ToolCallLog[];
  calls: number;
  usage: TokenUsage;
  model: string;
  modelMs: number;
  toolMs: number;
  /** The whole conversation, for tests and debugging (never logged). */
  messages: GenerationMessage[];
  /** Settles when every usage write has finished. */
  recorded: Promise<void>;
}

const NUDGE =
  "Your reply was not a submission, and text outside submit_review is not read. Call the submit_review tool now with your summary and findings (an empty findings list if the change is sound).";

function validationErrors(input: unknown): { ok: true; value: SubmitReviewInput } | { ok: false; text: string } {
  const parsed = submitReviewInput.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues.map((i) => `- ${i.path.join(".") || "input"}: ${i.message}`).join("\n");
  return { ok: false, text: `submit_review input is invalid; nothing was recorded. Fix these and call submit_review again:\n${errors}` };
}

/** Runs the loop (see module note). Throws `generation_failed` from the provider. */
export async function runReviewLoop(o: ReviewLoopOptions): Promise<ReviewLoopResult> {
  const now = o.now ?? Date.now;
  const tools = [...o.tools, SUBMIT_REVIEW_TOOL];
  const messages: GenerationMessage[] = [{ role: "user", content: o.taskMessage }];
  const toolCalls: ToolCallLog[] = [];
  const writes: Promise<void>[] = [];
  let usage = ZERO_USAGE;
  let model = o.provider.model;
  let modelMs = 0;
  let toolMs = 0;
  let nudged = false;
  const done = (outcome: ReviewLoopOutcome, calls: number): ReviewLoopResult => ({
    outcome,
    toolCalls,
    calls,
    usage,
    model,
    modelMs,
    toolMs,
    messages,
    recorded: Promise.all(writes).then(() => undefined),
  });
  for (let call = 1; call <= o.maxModelCalls; call++) {
    const r = await o.provider.generate({
      system: [{ text: o.system.text, cache: true }],
      messages,
      tools,
      toolChoice: "auto",
      maxOutputTokens: o.maxOutputTokens,
      signal: o.signal,
      purpose: "review.turn",
      promptVersion: `${o.system.id}@${o.system.version}`,
    });
    usage = addUsage(usage, r.usage);
    model = r.model;
    modelMs += r.latencyMs;
    writes.push(o.onUsage(r.usage).catch((err) => console.error("review usage ledger write failed", err)));
    if (r.stopReason === "refusal") return done({ kind: "refused", reason: "The model declined to review this change (stop_reason: refusal)." }, call);
    const content: ContentBlock[] = r.content.length ? r.content : [{ type: "text", text: "(empty)" }];
    messages.push({ role: "assistant", content });
    const uses = r.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
    const remaining = o.maxModelCalls - call;
    if (!uses.length) {
      if (nudged || remaining === 0) {
        return done(
          remaining === 0 && !nudged
            ? { kind: "iteration_limit", reason: `The model made ${call} calls without submitting a review (limit ${o.maxModelCalls}).` }
            : { kind: "no_submission", reason: "The model answered in prose twice instead of calling submit_review; nothing it wrote is presented." },
          call,
        );
      }
      nudged = true;
      const cut = r.stopReason === "max_tokens" ? ` Your reply was cut at the output cap of ${o.maxOutputTokens} tokens: keep the submission concise.` : "";
      messages.push({ role: "user", content: NUDGE + cut });
      continue;
    }
    // Every call of the turn at once; results go back together, in call order. On the last
    // allowed call only a submission counts: no model call would read other results.
    const started = now();
    const runnable = remaining === 0 ? uses.filter((u) => u.name === SUBMIT_REVIEW_TOOL.name) : uses;
    const results = await Promise.all(
      runnable.map(async (u) => {
        const t0 = now();
        const res: ToolCallResult & { submission?: SubmitReviewInput } =
          u.name === SUBMIT_REVIEW_TOOL.name ? submissionResult(u.input) : await o.runTool(u.name, u.input);
        // The Messages API sends a tool_use input as an object; anything else is logged wrapped.
        const args = typeof u.input === "object" && u.input !== null && !Array.isArray(u.input) ? (u.input as Record<string, unknown>) : { input: u.input };
        const log: ToolCallLog = { tool: u.name, arguments: args, durationMs: now() - t0, isError: res.isError, resultChars: res.text.length };
        return { use: u, res, log };
      }),
    );
    toolMs += now() - started;
    for (const x of results) toolCalls.push(x.log);
    const submitted = results.find((x) => x.res.submission);
    if (submitted?.res.submission) return done({ kind: "submitted", review: submitted.res.submission }, call);
    if (remaining === 0) break;
    const blocks: ContentBlock[] = results.map((x): ToolResultBlock => ({
      type: "tool_result",
      toolUseId: x.use.id,
      content: x.use.name === SUBMIT_REVIEW_TOOL.name ? x.res.text : renderToolResult(x.use.name, x.res.text, o.nonce),
      ...(x.res.isError ? { isError: true } : {}),
    }));
    if (remaining === 1) blocks.push({ type: "text", text: "This is your last turn: call submit_review now with what you have." });
    messages.push({ role: "user", content: blocks });
  }
  return done(
    {
      kind: "iteration_limit",
      reason: `The model made ${o.maxModelCalls} calls without a valid submission (limit ${o.maxModelCalls}); raise REVIEW_MAX_MODEL_CALLS or review a smaller change.`,
    },
    o.maxModelCalls,
  );
}

function submissionResult(input: unknown): ToolCallResult & { submission?: SubmitReviewInput } {
  const v = validationErrors(input);
  return v.ok ? { isError: false, text: "Review recorded.", submission: v.value } : { isError: true, text: v.text };
}
