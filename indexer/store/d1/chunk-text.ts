/**
 * @module indexer/store/d1/chunk-text
 *
 * Where a chunk's code lies in its file's text, so that `chunks` need not hold a second copy
 * (CHUNK_FORMAT_VERSION 10, migrations/0025): readers take `substr(files.text, text_from,
 * text_len)`. SQLite's `substr` on TEXT counts characters (code points), a JavaScript string
 * UTF-16 units, so positions are converted here: a character outside the BMP is one code point
 * and two units.
 */
import type { Chunk } from "../contract";

/** A chunk's code as a range of its file's text: 1-based first code point and length in code points. */
export interface TextRange {
  from: number;
  length: number;
}

/** UTF-16 indexes of the high halves of surrogate pairs in `text`, ascending. */
function pairStarts(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) out.push(i++);
    }
  }
  return out;
}

/** How many of `starts` (ascending) are below `index`. */
function countBelow(starts: number[], index: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The range of each chunk's `content` in `text`, or null for a chunk whose content is not the
 * text at the start of its `startLine` (then its code is stored inline, as before format 10, so
 * a reader always gets exactly `content`). Lines are split at `\n`.
 */
export function chunkTextRanges(text: string, chunks: Chunk[]): (TextRange | null)[] {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const pairs = pairStarts(text);
  const codePoint = (index: number) => index - countBelow(pairs, index);
  return chunks.map((c) => {
    const start = lineStarts[c.startLine - 1];
    if (start === undefined || !text.startsWith(c.content, start)) return null;
    const from = codePoint(start);
    return { from: from + 1, length: codePoint(start + c.content.length) - from };
  });
}
