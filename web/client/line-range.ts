/**
 * Line ranges in URL fragments, as search results, MCP `search`/`fetch` URLs and source links
 * write them: `#L146-L171`, `#L146`, also `#L146-171`. Lines are 1-based and inclusive.
 */

/** A range of lines, 1-based, inclusive, `start <= end`. */
export interface LineRange {
  start: number;
  end: number;
}

/** Parses a fragment (with or without `#`); null when it names no line. A reversed range is swapped. */
export function parseLineRange(hash: string): LineRange | null {
  const m = /^#?L(\d{1,9})(?:-L?(\d{1,9}))?$/.exec(hash.trim());
  if (!m) return null;
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (a < 1 || b < 1) return null;
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/** Formats a range as a fragment: `#L3` for one line, `#L3-L9` otherwise. */
export function formatLineRange(r: LineRange): string {
  return r.start === r.end ? `#L${r.start}` : `#L${r.start}-L${r.end}`;
}

/** Clamps a range to a file of `lineCount` lines; null when it starts past the end. */
export function clampLineRange(r: LineRange, lineCount: number): LineRange | null {
  if (r.start > lineCount) return null;
  return { start: r.start, end: Math.min(r.end, lineCount) };
}
