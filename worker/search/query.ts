/**
 * @module worker/search/query
 *
 * Reading a query, for the code that needs what was read rather than the whole plan: parseQuery
 * gives the words the chosen reader read (worker/search/readers/), and the text helpers the
 * readers share are re-exported here under their old home. Pure.
 */
import type { ParsedQuery } from "./plan";
import { readQuery } from "./readers";

export type { ParsedQuery, QualifiedName } from "./plan";
export { MAX_SYMBOL_CANDIDATES, codeEvidenceWords, codeNames, isCodeLike, qualifiedNames } from "./readers/code-marks";
export { shortenPaths, stripListings, stripMarkup } from "./readers/clean";
export { hasReportShape, hyphenJoined, receiverMembers, reporterLocals } from "./readers/report-words";

/** What the reader chosen for `raw` read in it (markup and environment listings removed first, long paths shortened); never throws. */
export function parseQuery(raw: string): ParsedQuery {
  return readQuery(raw).query;
}
