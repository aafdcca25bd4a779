/**
 * @module worker/services/references-schema
 *
 * The zod schemas of `findReferences` (worker/services/symbols-references.ts), shared by REST
 * (worker/api/routes/symbols.ts) and MCP (`find_references`), with the limits they state.
 */
import { z } from "zod";
import { repoIdSchema } from "./files";
import { REFERENCE_KINDS } from "./references-syntax";
import { refSchema, snapshotRefField, withoutRefField } from "./refs";

/** Most candidate files scanned per call; past it `scanCapped` is true and the counts are lower bounds. */
export const REFERENCES_MAX_FILES = 300;
/** Most occurrences returned per page. */
export const REFERENCES_MAX_LIMIT = 100;

/** Input of `findReferences`. */
export const findReferencesInput = z.object({
  symbol: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Identifier to find, matched as a whole word and case-sensitively, e.g. getUserById (a trailing ! or ? is part of the name: compile!, empty?). " +
        "A qualified name (InvoiceFormatter.format) is read as `definition`.",
    ),
  definition: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .describe(
      "Only the references of this definition: a qualified name as find_symbol prints it (InvoiceFormatter.format, format(Invoice, Locale) for one overload) " +
        "or path:line of the definition. Comments, strings, docs and occurrences the code does not attribute are left out.",
    ),
  repo: repoIdSchema.optional().describe("Only this repo; default every repo you can see."),
  ref: refSchema.optional(),
  limit: z.number().int().min(1).max(REFERENCES_MAX_LIMIT).optional().describe("Occurrences per page. Default 20."),
  offset: z.number().int().min(0).optional().describe("Skip this many occurrences (use next_offset from the previous page). Default 0."),
});
export type FindReferencesInput = z.infer<typeof findReferencesInput>;

/** A definition an occurrence refers to. */
export const referredDefinitionSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  container: z.string().nullable(),
  signature: z.string().nullable(),
});

/** One occurrence. `line` and `column` are 1-based; `column` counts UTF-16 code units. */
export const referenceSchema = z.object({
  repo: z.string(),
  ref: snapshotRefField,
  commit: z.string(),
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  text: z.string().describe("The line (cut around the match when long)."),
  definition: z.boolean().describe("This occurrence is the name of a definition of the symbol."),
  kind: z.enum(REFERENCE_KINDS).describe("From the syntax tree: definition, call, import, type, reference; comment, string or text (no grammar) are lexical."),
  lexical: z.boolean().describe("Only a textual match (comment, string, or a file without a grammar): nothing in the code refers to a definition here."),
  refersTo: z
    .array(referredDefinitionSchema)
    .nullable()
    .describe(
      "The definitions this occurrence refers to, where the receiver, import or scope makes it clear; [] = something outside the index; null = cannot tell.",
    ),
  via: z.string().nullable().describe("How refersTo was decided, e.g. `formatter: InvoiceFormatter`, `import from ./pricing/discount`."),
  role: z.enum(["source", "test", "docs"]).describe("Results come source first, then tests, then docs."),
  enclosing: z.object({ name: z.string(), kind: z.string(), container: z.string().nullable() }).nullable(),
});
export type Reference = z.infer<typeof referenceSchema>;

/** Output of `findReferences`, ordered by role (source, test, docs), then repo, path, line, column. */
export const findReferencesOutput = z.object({
  symbol: z.string(),
  definitions: z
    .array(referredDefinitionSchema)
    .describe("With `definition`: the definitions it named (overloads included unless a parameter list picked one)."),
  unattributed: z.number().int().describe("With `definition`: code occurrences of the word left out because the code does not say which definition they use."),
  references: z.array(referenceSchema),
  total_count: z.number().int(),
  has_more: z.boolean(),
  next_offset: z.number().int().nullable(),
  filesScanned: z.number().int(),
  scanCapped: z
    .boolean()
    .describe(`More than ${REFERENCES_MAX_FILES} files mention the word; only the first ones (by repo, path) were scanned. Narrow with repo.`),
  withoutRef: withoutRefField,
});
export type FindReferencesOutput = z.infer<typeof findReferencesOutput>;
