/**
 * @module worker/search/readers/reader
 *
 * The one interface of a query reader: whether it reads a text, and the plan it writes for it.
 * Readers are peers listed in worker/search/readers/index.ts; the first that accepts a text
 * reads it.
 */
import type { QueryPlan } from "../plan";
import type { TextFacts } from "./reading";

/** A reader of one kind of query. */
export interface QueryReader {
  /** Stable name, as the plan and `explain` report it. */
  name: string;
  /** Whether this reader reads `f` (asked in the order of READERS). */
  accepts(f: TextFacts): boolean;
  /** The plan for `f`; pure, never throws. */
  read(f: TextFacts): QueryPlan;
}
