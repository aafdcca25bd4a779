/**
 * @module worker/services/suggest-tests-schema
 *
 * Input and output of `suggestTests` (worker/services/suggest-tests/index.ts), shared by
 * MCP `suggest_tests`, `POST /api/suggest-tests` and the CLI's `suggest-tests`.
 */
import { refSchema } from "./refs";
import { z } from "zod";
import { repoIdSchema, repoPathSchema } from "./files";

/** Test frameworks a skeleton can be written for, by language family. */
export const TEST_FRAMEWORKS = ["vitest", "jest", "node:test", "pytest", "unittest", "go-testing", "junit5"] as const;
export type TestFramework = (typeof TEST_FRAMEWORKS)[number];

/** Input of `suggestTests`. */
export const suggestTestsInput = z.object({
  repo: repoIdSchema,
  path: repoPathSchema.describe("File defining the symbol."),
  symbol: z.string().min(1).max(200).describe("applyDiscount, Cart.total; an overload: format(Invoice, Locale)."),
  framework: z.enum(TEST_FRAMEWORKS).optional().describe("Default: the repo's own."),
  ref: refSchema.optional(),
  fill: z.boolean().optional().describe("Model completes the bodies; names checked against the index. Needs a provider."),
});
export type SuggestTestsInput = z.infer<typeof suggestTestsInput>;

/** One fact the skeleton was built from, pinned to a line of the index. */
export const testFactSchema = z.object({
  kind: z.enum(["signature", "param", "returns", "collaborator", "throws", "early_return", "framework", "convention"]),
  text: z.string(),
  path: z.string(),
  line: z.number().int(),
});
export type TestFact = z.infer<typeof testFactSchema>;

/** What `fill: true` did: the filled test (null when the skeleton stands), why, and names the index lacks. */
export const fillResultSchema = z.object({
  filled: z.boolean(),
  reason: z.string(),
  test: z.string().nullable(),
  unresolved: z.array(z.object({ name: z.string(), line: z.number().int() })),
  model: z.string().nullable(),
  prompt: z.string().nullable(),
});
export type FillResult = z.infer<typeof fillResultSchema>;

/** Output of `suggestTests`. */
export const suggestTestsOutput = z.object({
  repo: z.string(),
  path: z.string(),
  symbol: z.string(),
  signature: z.string().nullable(),
  language: z.string(),
  framework: z.enum(TEST_FRAMEWORKS),
  test_path: z.string(),
  test_path_exists: z.boolean().describe("Merge into it."),
  skeleton: z.string(),
  tests: z.array(z.object({ name: z.string(), behaviour: z.string() })),
  facts: z.array(testFactSchema),
  notes: z.array(z.string()),
  fill: fillResultSchema.optional(),
});
export type SuggestTestsOutput = z.infer<typeof suggestTestsOutput>;
