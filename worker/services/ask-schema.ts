/**
 * @module worker/services/ask-schema
 *
 * Request and response schemas of grounded answers, shared by `POST /api/ask`
 * (worker/api/routes/ask.ts) and the MCP tool `ask_codebase` (worker/mcp/tools/ask-codebase.ts).
 */
import { refSchema, snapshotRefField } from "./refs";
import { z } from "zod";
import { promptRefSchema, usageSchema } from "./generation-schema";
import { confidenceSchema } from "../search/schema";
import { repoIdSchema } from "./files";
import { SEARCH_MAX_REPOS } from "./search";

/** Longest question accepted, characters. */
export const ASK_MAX_QUESTION_CHARS = 4000;
/** Most search results an answer draws evidence from. */
export const ASK_MAX_K = 20;

/** Input of `ask`. */
export const askInput = z.object({
  question: z
    .string({ error: 'question is required, e.g. {"question": "where are tokens refreshed?", "repo": "hono"}.' })
    .trim()
    .min(1, { error: 'question is required, e.g. {"question": "where are tokens refreshed?", "repo": "hono"}.' })
    .max(ASK_MAX_QUESTION_CHARS)
    .describe("The question about the code, in natural language."),
  repo: repoIdSchema.optional().describe("Answer from this repo only."),
  repos: z.array(repoIdSchema).min(1).max(SEARCH_MAX_REPOS).optional().describe("Answer from these repos. Without repo and repos, every repo you can see."),
  ref: refSchema.optional(),
  k: z
    .number()
    .int()
    .min(1)
    .max(ASK_MAX_K)
    .default(8)
    .describe(`Search results to draw evidence from (default 8, at most ${ASK_MAX_K}); at most 8 become evidence.`),
  stream: z.boolean().default(false).describe("REST only: answer as Server-Sent Events (draft deltas, then one final event)."),
});
export type AskInput = z.input<typeof askInput>;

const citation = z.object({
  evidence: z.string(),
  repo: z.string(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  verified: z.literal(true),
});
const rejected = z.object({
  evidence: z.string(),
  repo: z.string().nullable(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  reason: z.enum(["unknown_evidence", "repo_mismatch", "path_mismatch", "invalid_range", "outside_evidence", "snapshot_changed"]),
  detail: z.string(),
});

/** Output of `ask`. */
export const askOutput = z.object({
  status: z
    .enum(["answered", "refused", "ungrounded"])
    .describe("answered: every citation shown is verified; refused: not enough evidence (before or by the model); ungrounded: no citation could be verified."),
  answer: z.string().describe("Markdown citing evidence as [E1 path:start-end]; only verified citations remain."),
  reason: z.string().nullable().describe("Why the status is refused or ungrounded; null when answered."),
  citations: z.array(citation),
  rejectedCitations: z.array(rejected),
  evidence: z
    .array(
      z.object({
        label: z.string(),
        repo: z.string(),
        ref: snapshotRefField,
        commit: z.string(),
        path: z.string(),
        startLine: z.number().int(),
        endLine: z.number().int(),
        lines: z.string().describe("path:start-end"),
      }),
    )
    .describe("What the model saw."),
  confidence: confidenceSchema,
  usage: usageSchema,
  model: z.string(),
  provider: z.string(),
  prompt: promptRefSchema,
  modelCalls: z.number().int().describe("Model calls made: 0 when refused before any tokens were spent."),
  timings: z.object({
    totalMs: z.number(),
    searchMs: z.number(),
    modelMs: z.number(),
    overheadMs: z.number().describe("totalMs - modelMs: search, evidence, verification and bookkeeping."),
  }),
});
export type AskOutput = z.infer<typeof askOutput>;
