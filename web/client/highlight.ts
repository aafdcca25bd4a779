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
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cmake from "highlight.js/lib/languages/cmake";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import go from "highlight.js/lib/languages/go";
import graphql from "highlight.js/lib/languages/graphql";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import lua from "highlight.js/lib/languages/lua";
import makefile from "highlight.js/lib/languages/makefile";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import protobuf from "highlight.js/lib/languages/protobuf";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import scala from "highlight.js/lib/languages/scala";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { termRanges } from "./terms";

/** Index language name (indexer/chunk/languages.ts) -> highlight.js language. */
const LANGUAGES: Record<string, [string, Parameters<typeof hljs.registerLanguage>[1]]> = {
  typescript: ["typescript", typescript],
  tsx: ["typescript", typescript],
  javascript: ["javascript", javascript],
  python: ["python", python],
  go: ["go", go],
  rust: ["rust", rust],
  java: ["java", java],
  c: ["c", c],
  cpp: ["cpp", cpp],
  csharp: ["csharp", csharp],
  ruby: ["ruby", ruby],
  php: ["php", php],
  kotlin: ["kotlin", kotlin],
  swift: ["swift", swift],
  scala: ["scala", scala],
  lua: ["lua", lua],
  json: ["json", json],
  yaml: ["yaml", yaml],
  toml: ["ini", ini],
  sql: ["sql", sql],
  shell: ["bash", bash],
  makefile: ["makefile", makefile],
  dockerfile: ["dockerfile", dockerfile],
  cmake: ["cmake", cmake],
  css: ["css", css],
  html: ["xml", xml],
  xml: ["xml", xml],
  markdown: ["markdown", markdown],
  graphql: ["graphql", graphql],
  protobuf: ["protobuf", protobuf],
};

for (const [name, lang] of Object.values(LANGUAGES)) if (!hljs.getLanguage(name)) hljs.registerLanguage(name, lang);

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

/** The highlight.js language for an index language, or undefined (shown as plain text). */
export function highlightLanguage(indexLanguage: string | undefined): string | undefined {
  return indexLanguage ? LANGUAGES[indexLanguage.toLowerCase()]?.[0] : undefined;
}

/**
 * Highlights `code` (lines separated by `\n`) as `indexLanguage` and marks `terms` (from
 * markableTerms). Returns one array of pieces per line; the line count equals
 * `code.split("\n").length`. Unknown languages come back as plain runs, still marked.
 */
export function highlightLines(code: string, indexLanguage: string | undefined, terms: readonly string[] = []): Piece[][] {
  const lang = highlightLanguage(indexLanguage);
  let runs: { text: string; cls: string }[];
  if (lang) {
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
