/**
 * @module indexer/chunk/windows
 *
 * Line windows: the chunking for files without a grammar (YAML, JSON, TOML, SQL, shell,
 * Dockerfile, Makefile, text) and the fallback when a parse tree is useless. Also splits a
 * too-long definition into overlapping windows that keep its symbol name.
 */
import type { Chunk, ChunkKind } from "../store/contract";
import { makeChunk, trimBlank } from "./lines";

/** Default window size in lines. */
export const DEFAULT_WINDOW_LINES = 60;
/** Default overlap between consecutive windows, in lines. */
export const DEFAULT_WINDOW_OVERLAP = 10;

/** Window geometry. `overlap` is clamped to `size - 1` so windows always advance. */
export interface WindowOptions {
  size: number;
  overlap: number;
}

/**
 * Windows of `size` lines overlapping by `overlap` over lines start..end (1-based, inclusive).
 * Windows are trimmed of blank edge lines and all-blank windows are dropped, so every
 * non-blank line of the range is in at least one window.
 */
export function lineWindows(
  lines: string[],
  start: number,
  end: number,
  opts: WindowOptions,
  kind: ChunkKind = "window",
  meta: { symbol?: string; container?: string; signature?: string } = {},
): Chunk[] {
  const size = Math.max(1, Math.floor(opts.size));
  const overlap = Math.min(Math.max(0, Math.floor(opts.overlap)), size - 1);
  const out: Chunk[] = [];
  const range = trimBlank(lines, start, end);
  if (!range) return out;
  let s = range[0];
  const last = range[1];
  for (;;) {
    const e = Math.min(s + size - 1, last);
    const t = trimBlank(lines, s, e);
    if (t) out.push(makeChunk(lines, t[0], t[1], kind, meta));
    if (e >= last) break;
    s = e + 1 - overlap;
  }
  return out;
}
