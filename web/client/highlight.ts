/**
 * Syntax highlighting with highlight.js (core plus the languages the indexer detects, see
 * indexer/chunk/languages.ts), turned into plain data: lines of styled pieces, with the query's
 * terms marked. No HTML strings: the DOM is built from these pieces with textContent
 * (code-view.ts), so code from a repository can never become markup.
 *
 * highlight.js rather than shiki: measured in docs/web.md ("Highlighter"), it adds a fraction
 * of shiki's bytes and needs no WebAssembly regex engine.
 */
import hljs from "highlight.js/lib/core";
import { highlightLanguage } from "./highlight-languages";
import { importLanguage } from "./language-loaders";
import { markLine, splitLines, type Piece, type Run } from "./pieces";

export { highlightLanguage, type Piece };

/**
 * Loads and registers the highlight.js definitions of these index languages (unknown ones
 * are skipped; a failed load leaves that language plain). Resolves when all are registered;
 * never rejects. Call before highlightLines for code of those languages.
 */
export function loadLanguages(indexLanguages: Iterable<string | undefined>): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const indexLanguage of indexLanguages) {
    const name = highlightLanguage(indexLanguage);
    if (!name) continue;
    if (hljs.getLanguage(name)) continue;
    waits.push(
      importLanguage(name).then((definition) => {
        if (definition && !hljs.getLanguage(name)) hljs.registerLanguage(name, definition);
      }),
    );
  }
  return Promise.all(waits).then(() => undefined);
}

/** True when highlightLines styles `indexLanguage` now (its definition is registered). */
export function languageLoaded(indexLanguage: string | undefined): boolean {
  const name = highlightLanguage(indexLanguage);
  return !!name && !!hljs.getLanguage(name);
}

interface TokenNode {
  scope?: string;
  children: (string | TokenNode)[];
}

/** highlight.js' class names for a scope: `title.function` -> `hljs-title function_` (its HTML renderer's rule). */
function scopeClasses(scope: string): string {
  return scope
    .split(".")
    .map((part, i) => (i === 0 ? `hljs-${part}` : `${part}${"_".repeat(i)}`))
    .join(" ");
}

/** Flattens highlight.js' token tree into (text, classes) runs. */
function flatten(node: TokenNode, classes: string[], out: Run[]): void {
  const own = node.scope ? [...classes, scopeClasses(node.scope)] : classes;
  for (const child of node.children) {
    if (typeof child === "string") out.push({ text: child, cls: own.join(" ") });
    else flatten(child, own, out);
  }
}

/**
 * Highlights `code` (lines separated by `\n`) as `indexLanguage` and marks `terms` (from
 * markableTerms). Returns one array of pieces per line; the line count equals
 * `code.split("\n").length`. Unknown languages, and languages loadLanguages has not loaded yet,
 * come back as plain runs, still marked.
 */
export function highlightLines(code: string, indexLanguage: string | undefined, terms: readonly string[] = []): Piece[][] {
  const lang = highlightLanguage(indexLanguage);
  let runs: Run[];
  if (lang && hljs.getLanguage(lang)) {
    const result = hljs.highlight(code, { language: lang, ignoreIllegals: true });
    // The token tree highlight.js renders its HTML from (pinned 11.x; covered by highlight.test.ts).
    const root = (result as unknown as { _emitter: { rootNode: TokenNode } })._emitter.rootNode;
    runs = [];
    flatten(root, [], runs);
  } else {
    runs = [{ text: code, cls: "" }];
  }
  return splitLines(runs).map((line) => markLine(line, terms));
}
