/**
 * @module worker/history/line-map
 *
 * Line arithmetic over stored hunks ([os, oe, ns, ne], 0-based, end exclusive): where a line of
 * the new version was in the old one, and which old lines a range of new lines came from.
 */
import type { Hunk } from "../../indexer/store/d1/history";

/** The old line (0-based) of new line `line`, or null when a hunk changed or added it. */
export function mapLine(line: number, hunks: Hunk[]): number | null {
  let delta = 0;
  for (const [os, oe, ns, ne] of hunks) {
    if (line < ns) break;
    if (line < ne) return null;
    delta += oe - os - (ne - ns);
  }
  return line + delta;
}

/** Whether the hunks change any line of [start, end) (a deletion counts when strictly inside, or anywhere for a whole file). */
export function touches(start: number, end: number, hunks: Hunk[], wholeFile: boolean): boolean {
  return hunks.some(([os, oe, ns, ne]) => (ne > ns ? ns < end && ne > start : oe > os && (wholeFile || (ns > start && ns < end))));
}

/**
 * The old range [start, end) that new range [start, end) came from: unchanged ends map line for
 * line, an end inside a hunk takes that hunk's old side. Empty (start >= end) when every line
 * was added.
 */
export function mapRange(start: number, end: number, hunks: Hunk[]): [number, number] {
  let s = mapLine(start, hunks);
  if (s === null) s = hunks.find(([, , ns, ne]) => start >= ns && start < ne)![0];
  let e = end - 1 < start ? s : mapLine(end - 1, hunks);
  if (e === null) e = hunks.find(([, , ns, ne]) => end - 1 >= ns && end - 1 < ne)![1];
  else e += 1;
  return [s, e];
}
