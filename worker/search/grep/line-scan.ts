/**
 * @module worker/search/grep/line-scan
 *
 * Finding a compiled pattern's matching lines in a text (worker/search/grep/matcher.ts compiles
 * it): over the whole text when the pattern cannot span lines, line by line behind a literal
 * prefilter, or only in the lines holding an anchor literal; each line's ranges as a
 * RangeWindow asks.
 */
import type { RE2JS } from "re2js";
import type { Requirement } from "./literals";

/** A match range within a line: UTF-16 offsets, `end` exclusive. */
export type Range = [start: number, end: number];

/** One matching line of a file. `line` is 1-based; `ranges` are the matches in it, in order. */
export interface LineMatch {
  line: number;
  text: string;
  ranges: Range[];
}

/** The first match in `s` that starts at or after `from` (UTF-16 offsets), or null. */
export type Finder = (s: string, from: number) => Range | null;

/**
 * Which matches of a matching line to report, by the line's ordinal `k` among the lines found:
 * those starting within that many characters of the line's first match (0: the first alone).
 * The rest of the line is not searched, so a line that is only counted costs one search
 * whatever it holds (`.` over sympy made one re2js call per character before).
 */
export type RangeWindow = (k: number) => number;

export const ALL_RANGES: RangeWindow = () => Number.POSITIVE_INFINITY;

/** Where the search resumes after an empty match at `at`: past one code point. */
export const stepOver = (s: string, at: number) => at + (s.codePointAt(at)! > 0xffff ? 2 : 1);

export function nativeFinder(re: RegExp): Finder {
  return (s, from) => {
    re.lastIndex = from;
    const m = re.exec(s);
    return m ? [m.index, m.index + m[0].length] : null;
  };
}

/** An re2js finder; the matcher of the last subject is kept, so `^`, `$` and `\b` see the text around `from`. */
export function re2Finder(re: RE2JS): Finder {
  let subject: string | null = null;
  let m: ReturnType<RE2JS["matcher"]> | null = null;
  return (s, from) => {
    if (m === null || s !== subject) [subject, m] = [s, re.matcher(s)];
    return m.find(from) ? [m.start(), m.end()] : null;
  };
}

/** One matching line of a "\n"-separated string: 0-based index, start and end offsets (end at its newline), line-relative ranges. */
export interface LineHit {
  index: number;
  start: number;
  end: number;
  ranges: Range[];
}

/**
 * Matches of `find` in `s`, grouped by line, at most `max` lines; per line the ranges `window`
 * asks for, then the search moves to the next line. Null when a match it looks at spans a
 * newline: the caller then matches line by line (a match never spans lines). Each line's
 * matches are the ones the whole-text search finds, as before: the search from the next line's
 * start finds the first match starting there.
 */
export function scanLines(s: string, find: Finder, max: number, window: RangeWindow): LineHit[] | null {
  const out: LineHit[] = [];
  let index = 0;
  let lineStart = 0;
  let pending: Range | null = null;
  let exhausted = false;
  for (let pos = 0; !exhausted && out.length < max && pos <= s.length;) {
    const m: Range | null = pending ?? find(s, pos);
    pending = null;
    if (!m) break;
    const [ms, me] = m;
    for (let nl = s.indexOf("\n", lineStart); nl >= 0 && nl < ms; nl = s.indexOf("\n", lineStart)) {
      index++;
      lineStart = nl + 1;
    }
    const nl = s.indexOf("\n", ms);
    const lineEnd = nl < 0 ? s.length : nl;
    if (me > lineEnd) return null;
    const ranges: Range[] = [[ms - lineStart, me - lineStart]];
    const w = window(out.length);
    for (let from = me > ms ? me : stepOver(s, ms); w > 0 && from <= lineEnd;) {
      const n = find(s, from);
      if (!n) {
        exhausted = true;
        break;
      }
      if (n[0] > lineEnd) {
        pending = n; // the next line's first match: found once, not twice
        break;
      }
      if (n[1] > lineEnd) return null;
      if (n[0] - ms >= w) break;
      ranges.push([n[0] - lineStart, n[1] - lineStart]);
      from = n[1] > n[0] ? n[1] : stepOver(s, n[0]);
    }
    out.push({ index, start: lineStart, end: lineEnd, ranges });
    pos = lineEnd + 1;
  }
  return out;
}

/** Number of lines the way the indexer counts them (a final newline ends the last line). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** A line's text without a trailing `\r`, and its ranges kept within it (a match may end on the `\r` of a CRLF line). */
export function lineMatch(line: number, raw: string, ranges: Range[]): LineMatch {
  const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const kept: Range[] = [];
  for (const [a, b] of ranges) {
    const r: Range = [Math.min(a, text.length), Math.min(b, text.length)];
    const last = kept[kept.length - 1];
    if (!last || last[0] !== r[0] || last[1] !== r[1]) kept.push(r);
  }
  return { line, text, ranges: kept };
}

/** Whole-text matching, grouped by line; null when a match spans a newline. */
export function wholeText(text: string, max: number, find: Finder, window: RangeWindow): LineMatch[] | null {
  const hits = scanLines(text, find, max, window);
  if (!hits) return null;
  const lines = lineCount(text);
  // The empty position after a final newline is no line.
  return hits.filter((h) => h.index < lines).map((h) => lineMatch(h.index + 1, text.slice(h.start, h.end), h.ranges));
}

/** Matches line by line (patterns whose whole-text matches cross newlines), skipping lines `pre` rules out. */
export function perLine(text: string, max: number, find: Finder, window: RangeWindow, pre: ((line: string) => boolean) | null): LineMatch[] {
  const out: LineMatch[] = [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (pre && !pre(line)) continue;
    const k = out.length;
    const hit = scanLines(line, find, 1, () => window(k))!;
    if (hit.length) out.push({ line: i + 1, text: line, ranges: hit[0].ranges });
  }
  return out;
}

/**
 * A native check that a line can match: every match contains the requirement's literals, and a
 * match lies within one line, so a line without them is skipped before re2js runs (re2js finds
 * matches at a few MB/s; a substring check runs at memory speed). Null when nothing is required.
 * Case-insensitive checks compare lowercased ASCII and pass every line with other characters,
 * whose case pairs (the Kelvin sign and k) lowercasing does not capture.
 */
export function linePrefilter(req: Requirement, caseSensitive: boolean): ((line: string) => boolean) | null {
  if (req.kind === "any") return null;
  const fold = (t: string) => (caseSensitive ? t : t.toLowerCase());
  const compile = (r: Requirement): ((line: string) => boolean) => {
    switch (r.kind) {
      case "any":
        return () => true;
      case "lit": {
        const lit = fold(r.text);
        return (line) => line.includes(lit);
      }
      case "and": {
        const parts = r.of.map(compile);
        return (line) => parts.every((f) => f(line));
      }
      case "or": {
        const parts = r.of.map(compile);
        return (line) => parts.some((f) => f(line));
      }
    }
  };
  if (!caseSensitive && !/^[\x00-\x7f]*$/.test(JSON.stringify(req))) return null;
  const check = compile(req);
  return caseSensitive ? check : (line) => /[^\x00-\x7f]/.test(line) || check(line.toLowerCase());
}

/**
 * Literals of which every match holds at least one, for finding candidate lines with `indexOf`
 * instead of splitting the text: a `lit` itself, each branch's of an `or`, the longest child's
 * of an `and` (longer literals occur less often). Null when nothing is required.
 */
export function anchorLiterals(req: Requirement): string[] | null {
  switch (req.kind) {
    case "any":
      return null;
    case "lit":
      return req.text ? [req.text] : null;
    case "or": {
      const sets = req.of.map(anchorLiterals);
      return sets.some((x) => x === null) ? null : (sets.flat() as string[]);
    }
    case "and": {
      let best: string[] | null = null;
      for (const set of req.of.map(anchorLiterals))
        if (set && (!best || Math.min(...set.map((t) => t.length)) > Math.min(...best.map((t) => t.length)))) best = set;
      return best;
    }
  }
}

/** One line of a text: 1-based number, start offset, text without its newline or a trailing `\r`. */
export interface TextLine {
  line: number;
  start: number;
  text: string;
}

/** The lines of `text` that hold one of `anchors` (case-sensitive), in order, each once. */
export function linesHolding(text: string, anchors: string[]): TextLine[] {
  const starts = new Set<number>();
  for (const a of anchors) {
    for (let i = text.indexOf(a); i >= 0; i = text.indexOf(a, i + 1)) {
      const start = text.lastIndexOf("\n", i - 1) + 1;
      starts.add(start);
      const end = text.indexOf("\n", i);
      if (end < 0) break;
      i = end; // the rest of this line adds nothing
    }
  }
  const sorted = [...starts].sort((x, y) => x - y);
  const out: TextLine[] = [];
  let line = 1;
  let at = 0;
  for (const start of sorted) {
    for (let nl = text.indexOf("\n", at); nl >= 0 && nl < start; nl = text.indexOf("\n", nl + 1)) line++;
    at = start;
    const nl = text.indexOf("\n", start);
    const raw = text.slice(start, nl < 0 ? text.length : nl);
    out.push({ line, start, text: raw.endsWith("\r") ? raw.slice(0, -1) : raw });
  }
  return out;
}

/**
 * Matches in the given lines, searched as one string of the lines joined by newlines (re2js's
 * cost is mostly per call: one call over the candidate lines measured 2-8x faster than one per
 * line on hono), mapped back to their lines. Null when a match spans a joint: the caller then
 * matches line by line.
 */
export function matchJoined(lines: TextLine[], max: number, find: Finder, window: RangeWindow): LineMatch[] | null {
  if (lines.length === 0) return [];
  const hits = scanLines(lines.map((l) => l.text).join("\n"), find, max, window);
  return hits && hits.map((h) => ({ line: lines[h.index].line, text: lines[h.index].text, ranges: h.ranges }));
}
