/**
 * Syntax highlighting of the search results, off the path to the first result. The results are
 * drawn at once as plain text with the query's terms marked (pieces.ts); highlight.js core and
 * the results' languages (separate chunks) load meanwhile, and once the first results have been
 * painted each snippet's lines are restyled in idle time, top result first, a slice at a time.
 * Only the content of each `<span class="line">` changes, to the same text in the same monospace
 * font: the line boxes stay as they are, so nothing on the page moves.
 *
 * Once highlight.js and a language are loaded (a later search, "More results"), snippets of
 * that language are highlighted while they are drawn, within a small per-draw budget, so a
 * repeat search does not flash plain text; and a snippet shown before keeps its pieces (cached).
 */
import { renderPieces } from "./code-view";
import { afterNextPaint, nextIdleSlice } from "./dom";
import { prefetchLanguages } from "./language-loaders";
import { plainLines, type Piece } from "./pieces";

type Highlighter = typeof import("./highlight");

/** One snippet on the page: its code, language and the element of each of its lines, in order. */
export interface SnippetView {
  /** Identifies the snippet's text (e.g. the chunk id), for the cache. */
  key: string;
  code: string;
  language?: string;
  lines: HTMLElement[];
}

/** Highlighting time one draw may spend before it draws the rest plain (ms): well under a frame. */
export const DRAW_HIGHLIGHT_BUDGET_MS = 6;
/** Idle time below which a slice stops and waits for the next idle period (ms). */
const MIN_SLICE_LEFT_MS = 1;
/** Highlighted snippets kept (paging redraws the results shown before). */
const CACHE_MAX_ENTRIES = 200;

let highlighter: Highlighter | null = null;
let loadingHighlighter: Promise<Highlighter | null> | null = null;
const cache = new Map<string, Piece[][]>();

function cacheKey(key: string, terms: readonly string[]): string {
  return `${key}\u0000${terms.join("\u0000")}`;
}

function remember(k: string, pieces: Piece[][]): void {
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(k, pieces);
}

/**
 * Starts loading highlight.js core and these index languages, all in parallel; resolves with
 * the highlighter once they are registered, or null when core failed to load (code stays
 * plain). Never rejects.
 */
export function loadHighlighter(languages: readonly (string | undefined)[]): Promise<Highlighter | null> {
  prefetchLanguages(languages);
  loadingHighlighter ??= import("./highlight").then(
    (m) => (highlighter = m),
    () => {
      loadingHighlighter = null; // the next search tries again
      return null;
    },
  );
  return loadingHighlighter.then(async (h) => {
    if (h) await h.loadLanguages(languages);
    return h;
  });
}

/**
 * A drawing pass: `pieces` gives each snippet's lines highlighted when that is free (cached) or
 * cheap (highlight.js and the language loaded, within DRAW_HIGHLIGHT_BUDGET_MS of this pass),
 * and plain with the terms marked otherwise; `highlighted` says which.
 */
export function startDraw(terms: readonly string[]): (key: string, code: string, language: string | undefined) => { pieces: Piece[][]; highlighted: boolean } {
  const end = performance.now() + DRAW_HIGHLIGHT_BUDGET_MS;
  return (key, code, language) => {
    const k = cacheKey(key, terms);
    const cached = cache.get(k);
    if (cached) return { pieces: cached, highlighted: true };
    if (highlighter?.languageLoaded(language) && performance.now() < end) {
      const pieces = highlighter.highlightLines(code, language, terms);
      remember(k, pieces);
      return { pieces, highlighted: true };
    }
    return { pieces: plainLines(code, terms), highlighted: false };
  };
}

/**
 * Restyles `views` (drawn plain) once the page has painted and highlight.js and their languages
 * have loaded, in order, in idle slices. Stops when `current()` turns false (a newer search
 * replaced them). Snippets of a language that failed to load stay plain. Resolves when done.
 */
export async function highlightLater(views: readonly SnippetView[], terms: readonly string[], current: () => boolean): Promise<void> {
  if (!views.length) return;
  const loaded = loadHighlighter(views.map((v) => v.language));
  await afterNextPaint();
  const h = await loaded;
  if (!h) return;
  let left = await nextIdleSlice();
  for (const view of views) {
    if (!current()) return;
    if (left() < MIN_SLICE_LEFT_MS) left = await nextIdleSlice();
    if (!current()) return;
    if (!h.languageLoaded(view.language)) continue;
    const k = cacheKey(view.key, terms);
    const pieces = cache.get(k) ?? h.highlightLines(view.code, view.language, terms);
    remember(k, pieces);
    // The same lines as the plain draw (both split the snippet at "\n").
    if (pieces.length !== view.lines.length) continue;
    view.lines.forEach((line, i) => renderPieces(line, pieces[i]));
  }
}
