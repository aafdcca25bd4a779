/**
 * Lines of code as plain data: runs of text with their highlight.js classes ("" for plain),
 * cut where the query's terms are marked. Pure and free of highlight.js, so the search page
 * draws plain, marked snippets at once (this module is in its first bundle) and
 * highlight.ts, loaded later, fills in the classes over the same lines.
 */
import { termRanges } from "./terms";

/** A run of text with its highlight.js classes ("" for plain) and whether a query term covers it. */
export interface Piece {
  text: string;
  cls: string;
  mark: boolean;
}

/** A run of text with its classes, before the terms are marked. */
export interface Run {
  text: string;
  cls: string;
}

/** Splits runs at newlines into lines of runs; `code.split("\n").length` lines. */
export function splitLines(runs: Run[]): Run[][] {
  const lines: Run[][] = [[]];
  for (const run of runs) {
    const parts = run.text.split("\n");
    parts.forEach((p, i) => {
      if (i > 0) lines.push([]);
      if (p) lines[lines.length - 1].push({ text: p, cls: run.cls });
    });
  }
  return lines;
}

/** Cuts a line's runs at the term ranges (terms from markableTerms) so each piece is wholly marked or not. */
export function markLine(runs: Run[], terms: readonly string[]): Piece[] {
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
 * `code` (lines separated by `\n`) as unstyled pieces with `terms` marked: what highlightLines
 * returns for a language it has not loaded. One array per line, `code.split("\n").length` of them.
 */
export function plainLines(code: string, terms: readonly string[] = []): Piece[][] {
  return splitLines([{ text: code, cls: "" }]).map((line) => markLine(line, terms));
}
