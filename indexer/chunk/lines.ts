/**
 * @module indexer/chunk/lines
 *
 * The line model every chunker shares: a file is split at `\n` (a `\r` stays part of its line,
 * so content round-trips exactly); a final newline does not start another line. Lines are
 * 1-based in every public value.
 */
import type { Chunk, ChunkKind } from "../store/contract";

/** The lines of a file, without their `\n`. An empty file has no lines. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** True when the line has only whitespace. */
export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim().length === 0;
}

/** Builds a chunk over lines startLine..endLine (1-based, inclusive) with their exact text. */
export function makeChunk(
  lines: string[],
  startLine: number,
  endLine: number,
  kind: ChunkKind,
  meta: { symbol?: string; container?: string; signature?: string } = {},
): Chunk {
  const chunk: Chunk = { startLine, endLine, kind, content: lines.slice(startLine - 1, endLine).join("\n") };
  if (meta.symbol) chunk.symbol = meta.symbol;
  if (meta.container) chunk.container = meta.container;
  if (meta.signature) chunk.signature = meta.signature;
  return chunk;
}

/** Narrows [start, end] to its first and last non-blank lines; null when all blank. */
export function trimBlank(lines: string[], start: number, end: number): [number, number] | null {
  while (start <= end && isBlank(lines[start - 1])) start++;
  while (end >= start && isBlank(lines[end - 1])) end--;
  return start <= end ? [start, end] : null;
}
