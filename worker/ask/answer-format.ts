/**
 * @module worker/ask/answer-format
 *
 * The model's answer format: one JSON object `{status, answer, citations, missing}`, asked for
 * with a JSON Schema (structured output, `ANSWER_JSON_SCHEMA`) and validated with zod
 * (`parseModelAnswer`) before anything is verified. Inline citations in the Markdown answer are
 * `[E2 src/file.ts:10-24]` (`INLINE_CITATION`). Pure.
 */
import { z } from "zod";

/** One citation as the model lists it. Lines are 1-based and inclusive. */
export const modelCitation = z
  .object({
    evidence: z.string().regex(/^E\d+$/, 'evidence must be a label such as "E1"'),
    repo: z.string(),
    path: z.string().min(1),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1),
  })
  .strict();
export type ModelCitation = z.infer<typeof modelCitation>;

/** The whole answer object. */
export const modelAnswer = z
  .object({
    status: z.enum(["answered", "insufficient_context"]),
    answer: z.string(),
    citations: z.array(modelCitation),
    missing: z.string(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.status === "answered" && !a.answer.trim()) ctx.addIssue({ code: "custom", path: ["answer"], message: "an answered status needs a non-empty answer" });
    if (a.status === "answered" && a.citations.length === 0 && !INLINE_CITATION.test(a.answer)) {
      ctx.addIssue({ code: "custom", path: ["citations"], message: "an answered status needs at least one citation of the evidence" });
    }
    if (a.status === "insufficient_context" && !a.missing.trim()) ctx.addIssue({ code: "custom", path: ["missing"], message: "say which evidence is missing" });
    a.citations.forEach((c, i) => {
      if (c.startLine > c.endLine) ctx.addIssue({ code: "custom", path: ["citations", i, "endLine"], message: "endLine is before startLine" });
    });
  });
export type ModelAnswer = z.infer<typeof modelAnswer>;

/**
 * JSON Schema sent as the structured-output format. Kept to the subset structured outputs
 * accept (types, enums, required, additionalProperties: false); the numeric and pattern rules
 * are zod's job after the call.
 */
export const ANSWER_JSON_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["answered", "insufficient_context"] },
    answer: { type: "string" },
    citations: {
      type: "array",
      items: {
        type: "object",
        properties: {
          evidence: { type: "string" },
          repo: { type: "string" },
          path: { type: "string" },
          startLine: { type: "integer" },
          endLine: { type: "integer" },
        },
        required: ["evidence", "repo", "path", "startLine", "endLine"],
        additionalProperties: false,
      },
    },
    missing: { type: "string" },
  },
  required: ["status", "answer", "citations", "missing"],
  additionalProperties: false,
};

/** An inline citation `[E2 path:10-24]` or `[E2 path:17]`; groups: label, path, start, end?. */
export const INLINE_CITATION = /\[(E\d+) ([^\s\]]+):(\d+)(?:-(\d+))?\]/;

/** All inline citations of `answer`, with their position. */
export function inlineCitations(answer: string): { match: string; index: number; evidence: string; path: string; startLine: number; endLine: number }[] {
  const re = new RegExp(INLINE_CITATION.source, "g");
  return [...answer.matchAll(re)].map((m) => ({
    match: m[0],
    index: m.index!,
    evidence: m[1],
    path: m[2],
    startLine: Number(m[3]),
    endLine: Number(m[4] ?? m[3]),
  }));
}

/** The parsed answer, or the validation errors as lines (`path: message`) for the retry. */
export function parseModelAnswer(text: string): { ok: true; value: ModelAnswer } | { ok: false; errors: string[] } {
  let json: unknown;
  try {
    // Structured output is bare JSON; a model without it may wrap it in a Markdown fence.
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*\n([\s\S]*)\n```$/, "$1"));
  } catch {
    return { ok: false, errors: ["the reply is not one JSON object"] };
  }
  const parsed = modelAnswer.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.issues.slice(0, 10).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`) };
}
