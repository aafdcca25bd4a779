/**
 * @module kernel/validation
 *
 * The one formatter that turns a failed zod parse into the `invalid_input` message every wire
 * format shows: the field that failed, then what was wrong, e.g. `start: Too small: expected
 * number to be >=1`. REST (worker/api/validation.ts) and the services use it, so a field is
 * named the same way wherever it is rejected.
 */
import type { z } from "zod";
import { CodeSearchError } from "./errors";

/**
 * Plain words for the type a field must have. zod words a wrong type as `Invalid input: expected
 * number, received NaN`, which is what a query string such as `k=abc` becomes.
 */
const TYPE_WORDS: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  string: "a string",
  array: 'a JSON array such as ["a", "b"]',
};

/**
 * `field: message` for the first issue of `error`. `names` maps schema keys to the names the
 * caller used (e.g. `start_line` -> `start`); `fallback` names an issue without a path (the
 * whole body or query). A message that already starts with its field name is kept as it is; a
 * wrong type is said in TYPE_WORDS' words (`k: expected a number`, `url: required (a string)`).
 */
export function issueMessage(error: z.ZodError, names: Record<string, string> = {}, fallback = "input"): string {
  const issue = error.issues[0];
  if (!issue) return `${fallback}: invalid`;
  const [head, ...rest] = issue.path.map(String);
  const field = head === undefined ? fallback : [names[head] ?? head, ...rest].join(".");
  if (issue.message.startsWith(`${field} `) || issue.message.startsWith(`${field}:`)) return issue.message;
  const expected = issue.code === "invalid_type" && head !== undefined ? TYPE_WORDS[issue.expected] : undefined;
  // zod says a missing field only in its message ("received undefined").
  if (expected) return issue.message.endsWith("received undefined") ? `${field}: required (${expected})` : `${field}: expected ${expected}`;
  return `${field}: ${issue.message}`;
}

/**
 * Parses `value` with `schema`.
 * @throws CodeSearchError("invalid_input") naming the first failing field (see `issueMessage`).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, names: Record<string, string> = {}, fallback = "input"): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new CodeSearchError("invalid_input", issueMessage(r.error, names, fallback));
}
