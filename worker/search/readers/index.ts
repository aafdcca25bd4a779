/**
 * @module worker/search/readers
 *
 * The readers, and choosing one: the only place that knows what kind of query a text is. Each
 * reader is one module with a name, `accepts` and `read` (reader.ts); the first in READERS that
 * accepts a text writes its plan (worker/search/plan.ts). Adding a reader is one module and one
 * line here, before the question reader (which accepts every text).
 */
import type { QueryPlan } from "../plan";
import { identifierReader } from "./identifier";
import { questionReader } from "./question";
import type { QueryReader } from "./reader";
import { readText } from "./reading";
import { reportReader } from "./report";

/** The readers, in the order they are asked; the last accepts every text. */
export const READERS: readonly QueryReader[] = [reportReader, identifierReader, questionReader];

/** The plan of `raw` (issue-template lines already removed), by the first reader that accepts it; never throws. */
export function readQuery(raw: string, readers: readonly QueryReader[] = READERS): QueryPlan {
  const facts = readText(raw);
  const reader = readers.find((r) => r.accepts(facts)) ?? questionReader;
  return reader.read(facts);
}

export type { QueryReader } from "./reader";
