/**
 * @module worker/services/suggest-tests-schema
 *
 * Input and output of `suggestTests` (worker/services/suggest-tests/index.ts), shared by
 * MCP `suggest_tests`, `POST /api/suggest-tests` and the CLI's `suggest-tests`.
 */
import { z } from "zod";
import { repoIdSchema, repoPathSchema } from "./files";

/** Test frameworks a skeleton can be written for, by language family. */
export const TEST_FRAMEWORKS = ["vitest", "jest", "node:test", "pytest", "unittest", "go-testing", "junit5"] as const;
export type TestFramework = (typeof TEST_FRAMEWORKS)[number];

/** Input of `suggestTests`. */
export const suggestTestsInput = z.object({
  repo: repoIdSchema,
  path: repoPathSchema.describe('File that defines the function or method, e.g. "src/pricing/discount.ts".'),
  symbol: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'Function or method in that file: "applyDiscount", "Cart.total", "InvoiceFormatter#format"; a parameter list picks an overload: "format(Invoice, Locale)".',
    ),
  framework: z
    .enum(TEST_FRAMEWORKS)
    .optional()
    .describe("Test framework to write for; default: the one the repo already uses (package.json, pyproject.toml, existing tests)."),
  ref: z.string().min(1).max(255).optional().describe("Only the ref the repo indexes (its current snapshot) is available; another ref answers 400."),
  fill: z.boolean().optional().describe("Model-completed test bodies: not available yet (answers 400 when true)."),
});
export type SuggestTestsInput = z.infer<typeof suggestTestsInput>;

/** One fact the skeleton was built from, pinned to a line of the index. */
export const testFactSchema = z.object({
  kind: z.enum(["signature", "param", "returns", "collaborator", "throws", "early_return", "framework", "convention"]),
  text: z.string(),
  path: z.string(),
  line: z.number().int().describe("1-based line in `path`."),
});
export type TestFact = z.infer<typeof testFactSchema>;

/** Output of `suggestTests`. */
export const suggestTestsOutput = z.object({
  repo: z.string(),
  path: z.string(),
  symbol: z.string().describe("The definition used, qualified: Container.name."),
  signature: z.string().nullable(),
  language: z.string(),
  framework: z.enum(TEST_FRAMEWORKS),
  test_path: z.string().describe("Where the test goes, following the repo's layout."),
  test_path_exists: z.boolean().describe("True when that file already exists: merge the tests into it."),
  skeleton: z.string().describe("The test file; every test ends in an explicit failing TODO for a person to replace."),
  tests: z.array(z.object({ name: z.string(), behaviour: z.string() })).describe("One test per behaviour found."),
  facts: z.array(testFactSchema),
  notes: z.array(z.string()),
});
export type SuggestTestsOutput = z.infer<typeof suggestTestsOutput>;
