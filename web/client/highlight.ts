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
import type { LanguageFn } from "highlight.js";
import { highlightLanguage } from "./highlight-languages";
import { termRanges } from "./terms";

export { highlightLanguage };

/**
 * highlight.js language -> its definition, loaded on demand: each is its own chunk
 * (scripts/build-web.ts bundles with splitting), so a page fetches and compiles only the
 * languages it shows, and core is bundled once, shared by the search page and the source view.
 */
const LOADERS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cmake: () => import("highlight.js/lib/languages/cmake"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  graphql: () => import("highlight.js/lib/languages/graphql"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  lua: () => import("highlight.js/lib/languages/lua"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  protobuf: () => import("highlight.js/lib/languages/protobuf"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scala: () => import("highlight.js/lib/languages/scala"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

const loading = new Map<string, Promise<void>>();

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
    let p = loading.get(name);
    if (!p) {
      p = LOADERS[name]().then(
        (m) => hljs.registerLanguage(name, m.default),
        () => void loading.delete(name), // shown plain; the next call tries again
      );
      loading.set(name, p);
    }
    waits.push(p);
  }
  return Promise.all(waits).then(() => undefined);
}

/** A run of text with its highlight.js classes ("" for plain) and whether a query term covers it. */
export interface Piece {
  text: string;
  cls: string;
  mark: boolean;
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
function flatten(node: TokenNode, classes: string[], out: { text: string; cls: string }[]): void {
  const own = node.scope ? [...classes, scopeClasses(node.scope)] : classes;
  for (const child of node.children) {
    if (typeof child === "string") out.push({ text: child, cls: own.join(" ") });
    else flatten(child, own, out);
  }
}

/** Splits runs at newlines into lines of runs. */
function splitLines(runs: { text: string; cls: string }[]): { text: string; cls: string }[][] {
  const lines: { text: string; cls: string }[][] = [[]];
  for (const run of runs) {
    const parts = run.text.split("\n");
    parts.forEach((p, i) => {
      if (i > 0) lines.push([]);
      if (p) lines[lines.length - 1].push({ text: p, cls: run.cls });
    });
  }
  return lines;
}

/** Cuts a line's runs at the term ranges so each piece is wholly marked or not. */
function markLine(runs: { text: string; cls: string }[], terms: readonly string[]): Piece[] {
  const text = runs.map((r) => r.text).join("");
  const ranges = termRanges(text, terms);
  if (!ranges.length) return runs.map((r) => ({ ...r, mark: false }));
  const out: Piece[] = [];
  let offset = 0;
  for (const run of runs) {
    const end = offset + run.text.length;
    let at = offset;
    for (const [s, e] of ranges) {
      if (e <= at || s >= end) continue;
      if (s > at) out.push({ text: text.slice(at, s), cls: run.cls, mark: false });
      const stop = Math.min(e, end);
      out.push({ text: text.slice(Math.max(s, at), stop), cls: run.cls, mark: true });
      at = stop;
    }
    if (at < end) out.push({ text: text.slice(at, end), cls: run.cls, mark: false });
    offset = end;
  }
  return out;
}

/**
 * Highlights `code` (lines separated by `\n`) as `indexLanguage` and marks `terms` (from
 * markableTerms). Returns one array of pieces per line; the line count equals
 * `code.split("\n").length`. Unknown languages, and languages loadLanguages has not loaded yet,
 * come back as plain runs, still marked.
 */
export function highlightLines(code: string, indexLanguage: string | undefined, terms: readonly string[] = []): Piece[][] {
  const lang = highlightLanguage(indexLanguage);
  let runs: { text: string; cls: string }[];
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
