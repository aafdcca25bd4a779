/**
 * @module indexer/chunk
 *
 * Splits a file into chunks (the unit search returns), its symbol table and its imports.
 * Languages with a grammar get syntax-aware chunks; markdown is split by headings; every other
 * file becomes overlapping line windows.
 */
import type { ChunkedFile } from "../store/contract";
import { detectLanguage } from "./languages";
import { splitLines } from "./lines";
import { chunkMarkdown } from "./markdown";
import { DEFAULT_WINDOW_LINES, DEFAULT_WINDOW_OVERLAP, lineWindows } from "./windows";

export { detectLanguage, hasGrammar } from "./languages";

/** Default largest chunk, in lines, before a class is split into members or a function into windows. */
export const DEFAULT_MAX_CHUNK_LINES = 120;

/** Chunking limits. All in lines. */
export interface ChunkOptions {
  /** Largest definition chunk before it is split (default 120). */
  maxChunkLines?: number;
  /** Size of line windows for files without a grammar (default 60). */
  windowLines?: number;
  /** Overlap between consecutive windows (default 10). */
  windowOverlap?: number;
}

/**
 * Chunks one file. Never throws on malformed input: a file that does not parse falls back to
 * line windows. Every non-blank line is in at least one chunk; lines are 1-based inclusive and
 * `content` is the exact text of those lines.
 */
export async function chunkFile(path: string, text: string, options: ChunkOptions = {}): Promise<ChunkedFile> {
  const language = detectLanguage(path);
  const lines = splitLines(text);
  const maxLines = options.maxChunkLines ?? DEFAULT_MAX_CHUNK_LINES;
  const windows = { size: options.windowLines ?? DEFAULT_WINDOW_LINES, overlap: options.windowOverlap ?? DEFAULT_WINDOW_OVERLAP };
  if (language === "markdown") return chunkMarkdown(lines, maxLines, windows);
  return { language, chunks: lineWindows(lines, 1, lines.length, windows), symbols: [], imports: [] };
}
