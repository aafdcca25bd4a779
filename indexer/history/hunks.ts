/**
 * @module indexer/history/hunks
 *
 * Line diffs between two versions of a file, as hunks (git's preparation and fast-myers-diff's
 * Myers diff: prepare.ts, then placed as git places them: compact.ts), and the line-set similarity
 * used to detect renames.
 */
import { compactHunks } from "./compact";
import { xdiffHunks } from "./prepare";
import type { Hunk } from "../store/d1/history";

const decoder = new TextDecoder();

/** Whether the bytes look binary (a NUL in the first 8 KiB, as git decides). */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The file's lines (a final newline does not start another line). */
export function splitLines(bytes: Uint8Array): string[] {
  const text = decoder.decode(bytes);
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The hunks that turn `oldLines` into `newLines`: [os, oe, ns, ne], 0-based half-open. Where a
 * hunk could sit at several places (an added block bordered by blank lines), it sits where git's
 * diff puts it, so blame over the hunks gives `git blame`'s commits.
 */
export function lineHunks(oldLines: string[], newLines: string[]): Hunk[] {
  return compactHunks(oldLines, newLines, xdiffHunks(oldLines, newLines));
}

/**
 * Similarity of two files' lines, 0..1: twice the common lines (as multisets) over the sum of
 * both lengths (git's rename score is byte based; lines are close enough and cheaper here).
 */
export function lineSimilarity(a: string[], b: string[]): number {
  if (a.length + b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const l of a) counts.set(l, (counts.get(l) ?? 0) + 1);
  let common = 0;
  for (const l of b) {
    const n = counts.get(l) ?? 0;
    if (n > 0) {
      common++;
      counts.set(l, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}
