/**
 * @module indexer/chunk/chunk-file
 *
 * `chunkFile`, independent of how grammars are loaded (the workerd entry index.ts installs the
 * module loader; the Node bench installs a file reader).
 */
import type { ChunkedFile } from "../store/contract";
import { detectLanguage, hasGrammar } from "./languages";
import { splitLines } from "./lines";
import { chunkMarkdown } from "./markdown";
import type { Parser, Tree } from "web-tree-sitter";
import { getParser } from "./parser";
import { SPECS } from "./registry";
import { chunkTree } from "./syntax";
import { DEFAULT_WINDOW_LINES, DEFAULT_WINDOW_OVERLAP, lineWindows } from "./windows";

/** Default largest chunk, in lines, before a class is split into members or a function into windows. */
export const DEFAULT_MAX_CHUNK_LINES = 120;

/** Chunking limits, all in lines. */
export interface ChunkOptions {
  /** Largest definition chunk before it is split (default 120). */
  maxChunkLines?: number;
  /** Size of line windows for files without a grammar (default 60). */
  windowLines?: number;
  /** Overlap between consecutive windows (default 10). */
  windowOverlap?: number;
}

/** Lines inside ERROR nodes (outermost ones), a tree's damage. */
function errorLines(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let lines = 0;
  let coveredTo = -1;
  for (const e of tree.rootNode.descendantsOfType("ERROR")) {
    if (!e || e.endPosition.row <= coveredTo) continue;
    lines += e.endPosition.row - Math.max(e.startPosition.row, coveredTo + 1) + 1;
    coveredTo = e.endPosition.row;
  }
  return lines;
}

/**
 * Parses the texts in order (LanguageSpec.parseTexts) and keeps the first tree without errors,
 * else the one with the fewest error lines (the earlier on a tie); the others are freed.
 */
function parseBest(parser: Parser, texts: string[]): { tree: Tree | null; parsed: string } {
  let best: { tree: Tree | null; parsed: string; damage: number } = { tree: null, parsed: texts[0], damage: Infinity };
  for (const parsed of texts) {
    if (best.tree && parsed === best.parsed) continue;
    const tree = parser.parse(parsed);
    if (!tree) continue;
    const damage = errorLines(tree);
    if (damage < best.damage) {
      best.tree?.delete();
      best = { tree, parsed, damage };
    } else tree.delete();
    if (damage === 0) break;
  }
  return best;
}

/**
 * Chunks one file: syntax-aware for grammar languages, by headings for markdown, line windows
 * otherwise. The language comes from the path, and for a `.h` file from its text (C or C++);
 * the result's `language` is the one the file was parsed with. Never fails on malformed source: a file whose tree is useless falls back to
 * windows. Every non-blank line is in at least one chunk; lines are 1-based inclusive and
 * `content` is the exact text of those lines. Rejects only when a grammar cannot be loaded.
 *
 * @example
 *   const { chunks, symbols, imports } = await chunkFile("src/app.ts", text);
 */
export async function chunkFile(path: string, text: string, options: ChunkOptions = {}): Promise<ChunkedFile> {
  const language = detectLanguage(path, text);
  const lines = splitLines(text);
  const maxLines = Math.max(4, options.maxChunkLines ?? DEFAULT_MAX_CHUNK_LINES);
  const windows = { size: options.windowLines ?? DEFAULT_WINDOW_LINES, overlap: options.windowOverlap ?? DEFAULT_WINDOW_OVERLAP };
  if (language === "markdown") return chunkMarkdown(lines, maxLines, windows);
  if (hasGrammar(language) && lines.length > 0) {
    const parser = await getParser(language);
    const spec = SPECS[language];
    const { tree, parsed } = parseBest(parser, spec.parseTexts?.(text) ?? [text]);
    if (tree) {
      try {
        const source = parsed === text ? undefined : { text, parsed };
        const chunked = chunkTree(tree, spec, lines, language, { maxLines, windows, source });
        if (chunked) return chunked;
      } finally {
        tree.delete(); // trees live in wasm memory, not the JS heap
      }
    }
  }
  return { language, chunks: lineWindows(lines, 1, lines.length, windows), symbols: [], imports: [] };
}
