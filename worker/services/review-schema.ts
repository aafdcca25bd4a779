/**
 * @module worker/services/review-schema
 *
 * Request and response schemas of grounded code review, shared by `POST /api/review`
 * (worker/api/routes/review.ts), the MCP tool `review_diff` (worker/mcp/tools/review-diff.ts)
 * and the model's `submit_review` tool (worker/review/loop.ts), whose input schema is
 * `submitReviewInput` turned into JSON Schema with `z.toJSONSchema`.
 */
import { refSchema, snapshotRefField } from "./refs";
import { z } from "zod";
import { promptRefSchema, usageSchema } from "./generation-schema";
import { repoIdSchema, repoPathSchema } from "./files";

/** Longest unified diff accepted, characters (about 60,000 tokens, well inside a 200k context with room for tool results). */
export const REVIEW_MAX_DIFF_CHARS = 200_000;
/** Most whole files one `{repo, paths}` review takes. */
export const REVIEW_MAX_PATHS = 20;
/** Most findings one submission may hold. */
export const REVIEW_MAX_FINDINGS = 50;

/** How bad a finding is. */
export const severitySchema = z
  .enum(["critical", "high", "medium", "low"])
  .describe("critical: data loss, security hole or crash in normal use; high: wrong result in a common case; medium: wrong in an edge case; low: minor.");
/** What kind of problem it is. */
export const categorySchema = z.enum([
  "correctness",
  "security",
  "concurrency",
  "error-handling",
  "performance",
  "data-integrity",
  "api-contract",
  "maintainability",
]);

/** One finding as the model submits it: a problem at one line of one file. */
export const reviewFinding = z.object({
  severity: severitySchema,
  category: categorySchema,
  file: z.string().min(1).max(1024).describe("Path of the file as it appears in the diff (new side) or in the index, e.g. src/billing/invoice.ts."),
  line: z.number().int().min(1).describe("The 1-based line the problem is on: for a diff, a line number of the new side of a hunk (added or context line)."),
  issue: z.string().trim().min(1).max(2000).describe("What is wrong and why it matters, in one or two sentences."),
  suggestion: z.string().trim().min(1).max(2000).describe("A concrete fix."),
});
export type ReviewFinding = z.infer<typeof reviewFinding>;

/** Input of the model's `submit_review` tool. */
export const submitReviewInput = z.object({
  summary: z.string().trim().min(1).max(4000).describe("Two to five sentences: what the change does and the overall verdict."),
  findings: z.array(reviewFinding).max(REVIEW_MAX_FINDINGS).describe("Problems found, most severe first; an empty list when the change is sound."),
});
export type SubmitReviewInput = z.infer<typeof submitReviewInput>;

/** Input of `review`: a unified diff, or whole files of the active snapshot. */
export const reviewInput = z
  .object({
    repo: repoIdSchema.describe("The indexed repo the change belongs to; the reviewer reads it for context."),
    ref: refSchema.optional(),
    diff: z.string().min(1).max(REVIEW_MAX_DIFF_CHARS).optional().describe("A unified diff (git diff output) to review."),
    paths: z.array(repoPathSchema).min(1).max(REVIEW_MAX_PATHS).optional().describe("Whole indexed files to review instead of a diff."),
  })
  .strict();
export type ReviewInput = z.input<typeof reviewInput>;

/** Why a finding was not presented. */
export const rejectionReasonSchema = z.enum(["file_not_reviewed_or_indexed", "line_not_in_diff", "line_out_of_range", "duplicate"]);

const toolCall = z.object({
  tool: z.string(),
  /** The tool_use input the model sent (always a JSON object in the Messages API). */
  arguments: z.record(z.string(), z.unknown()),
  durationMs: z.number(),
  isError: z.boolean(),
  /** Characters of the result sent back to the model (after the cap). */
  resultChars: z.number().int(),
});

/** Output of `review`. */
export const reviewOutput = z.object({
  status: z
    .enum(["reviewed", "refused", "no_submission", "iteration_limit"])
    .describe(
      "reviewed: the model submitted a review (findings may be empty); refused: the model declined (stop_reason refusal); no_submission: it answered in prose even after a nudge; iteration_limit: it ran out of model calls.",
    ),
  reason: z.string().nullable().describe("Why the status is not reviewed; null when reviewed."),
  summary: z.string(),
  findings: z.array(reviewFinding).describe("Grounded findings only: each file and line checked against the diff or the indexed file."),
  rejectedFindings: z
    .array(reviewFinding.extend({ reason: rejectionReasonSchema, detail: z.string() }))
    .describe("Findings that failed grounding; never presented as results."),
  scope: z.object({
    kind: z.enum(["diff", "paths"]),
    files: z.array(z.string()),
    ref: snapshotRefField,
    commit: z.string().describe("The repo's snapshot the review read (its default ref's, or `ref`'s)."),
  }),
  toolCalls: z.array(toolCall).describe("Every tool call the model made, in order."),
  modelCalls: z.number().int(),
  usage: usageSchema,
  model: z.string(),
  provider: z.string(),
  prompts: z.object({
    system: promptRefSchema,
    task: promptRefSchema,
  }),
  timings: z.object({ totalMs: z.number(), modelMs: z.number(), toolMs: z.number() }),
});
export type ReviewOutput = z.infer<typeof reviewOutput>;
export type RejectedFinding = ReviewOutput["rejectedFindings"][number];
export type ToolCallLog = ReviewOutput["toolCalls"][number];
