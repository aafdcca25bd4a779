/**
 * @module worker/search/grep/matcher
 *
 * Compiles a grep pattern and finds its matches in a file, line by line as ripgrep reports
 * them. Regexes run on re2js (RE2: linear time in the text, no backreferences or lookaround),
 * so no pattern can hang the Worker. A literal (`regex: false`) runs on the platform's native
 * RegExp built from the escaped literal: a plain string search (no quantifier, nothing to
 * backtrack), several times faster than re2js on long texts.
 *
 * Semantics (ripgrep's defaults): a match never spans lines; `^`/`$` are line boundaries;
 * case-insensitive matching uses Unicode simple case folding; `whole_word` puts `\b` (ASCII
 * word characters) on both sides. Pure.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { CodeSearchError } from "../../../kernel/errors";
import { ANY, requiredLiterals, type Requirement } from "./literals";

/** What to search for (the service's input, validated). */
export interface PatternOptions {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  wholeWord: boolean;
}

/** A match range within a line: UTF-16 offsets, `end` exclusive. */
export type Range = [start: number, end: number];

/** One matching line of a file. `line` is 1-based; `ranges` are the matches in it, in order. */
export interface LineMatch {
  line: number;
  text: string;
  ranges: Range[];
}

/** A compiled pattern: what every match requires (for the trigram index) and the line matcher. */
export interface CompiledPattern {
  /** Literal substrings every match contains (worker/search/grep/literals.ts). */
  requirement: Requirement;
  /** Whether the requirement's literals must match case exactly (false when the pattern folds case anywhere, `(?i)` included). */
  caseSensitive: boolean;
  /** The matching lines of `text`, in order; stops after `max` lines. */
  matchLines(text: string, max: number): LineMatch[];
}

/** Characters a RegExp source must escape to stand for themselves (valid with the `u` flag). */
const REGEXP_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** A native RegExp that finds the literal (global, Unicode). */
function literalRegExp(o: PatternOptions): RegExp {
  const body = o.pattern.replace(REGEXP_SYNTAX, "\\$&");
  return new RegExp(o.wholeWord ? `\\b${body}\\b` : body, o.caseSensitive ? "gu" : "giu");
}

/**
 * The re2js pattern, compiled; throws `invalid_input` naming the position of a syntax error,
 * e.g. `pattern: missing closing ] at position 1 ("[b")` for `a[b`.
 */
function compileRe2(o: PatternOptions): RE2JS {
  const flags = RE2JS.MULTILINE | (o.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  let base: RE2JS;
  try {
    base = RE2JS.compile(o.pattern, flags);
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) {
      const near = err.input ?? "";
      const at = near ? o.pattern.indexOf(near) : -1;
      const where = at >= 0 ? ` at position ${at}` : "";
      throw new CodeSearchError(
        "invalid_input",
        `pattern: ${err.error}${where}${near ? ` (${JSON.stringify(near)})` : ""}. The syntax is RE2's (no backreferences or lookaround); pass regex: false to search the text literally.`,
        { position: at >= 0 ? at : null },
      );
    }
    throw new CodeSearchError("invalid_input", "pattern: not a valid regular expression; pass regex: false to search the text literally.");
  }
  return o.wholeWord ? RE2JS.compile(`\\b(?:${o.pattern})\\b`, flags) : base;
}

/** 1-based line numbers of offsets, computed by one forward walk over the newlines. */
class LineIndex {
  private line = 1;
  private lineStart = 0;
  constructor(private readonly text: string) {}
  /** The line holding `offset` (offsets must not decrease between calls) and where it starts. */
  at(offset: number): { line: number; start: number } {
    for (;;) {
      const nl = this.text.indexOf("\n", this.lineStart);
      if (nl < 0 || nl >= offset) return { line: this.line, start: this.lineStart };
      this.line++;
      this.lineStart = nl + 1;
    }
  }
  /** The text of the line starting at `start`, without its newline (or a trailing `\r`). */
  lineText(start: number): string {
    const nl = this.text.indexOf("\n", start);
    const raw = this.text.slice(start, nl < 0 ? this.text.length : nl);
    return raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  }
}

/** Number of lines the way the indexer counts them (a final newline ends the last line). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * Groups whole-text matches by line. `next()` yields [start, end) or null at the end. Returns
 * null when a match spans a newline: the caller then matches line by line.
 */
function groupByLine(text: string, max: number, next: () => Range | null): LineMatch[] | null {
  const out: LineMatch[] = [];
  const index = new LineIndex(text);
  const lines = lineCount(text);
  for (let m = next(); m; m = next()) {
    const [s, e] = m;
    const nl = text.indexOf("\n", s);
    if (nl >= 0 && nl < e) return null;
    const { line, start } = index.at(s);
    if (line > lines) break; // the empty position after a final newline is no line
    const last = out[out.length - 1];
    if (last && last.line === line) last.ranges.push([s - start, e - start]);
    else {
      if (out.length >= max) break;
      const lineText = index.lineText(start);
      // A match may end on the `\r` of a CRLF line; keep ranges within the line's text.
      out.push({ line, text: lineText, ranges: [[s - start, Math.min(e - start, lineText.length)]] });
    }
  }
  return out;
}

/** Matches line by line (patterns whose whole-text matches cross newlines). */
function perLine(text: string, max: number, find: (line: string) => Range[]): LineMatch[] {
  const out: LineMatch[] = [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    const ranges = find(line);
    if (ranges.length) out.push({ line: i + 1, text: line, ranges });
  }
  return out;
}

/** All matches of a global native RegExp in `s`, advancing past empty matches. */
function* nativeMatches(re: RegExp, s: string): Generator<Range> {
  re.lastIndex = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    yield [m.index, m.index + m[0].length];
    if (m[0].length === 0) re.lastIndex = m.index + (s.codePointAt(m.index)! > 0xffff ? 2 : 1);
  }
}

/**
 * A native check that a line can match: every match contains the requirement's literals, and a
 * match lies within one line, so a line without them is skipped before re2js runs (re2js finds
 * matches at a few MB/s; a substring check runs at memory speed). Null when nothing is required.
 * Case-insensitive checks compare lowercased ASCII and pass every line with other characters,
 * whose case pairs (the Kelvin sign and k) lowercasing does not capture.
 */
function linePrefilter(req: Requirement, caseSensitive: boolean): ((line: string) => boolean) | null {
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
function anchorLiterals(req: Requirement): string[] | null {
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
interface TextLine {
  line: number;
  start: number;
  text: string;
}

/** The lines of `text` that hold one of `anchors` (case-sensitive), in order, each once. */
function linesHolding(text: string, anchors: string[]): TextLine[] {
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
 * Matches of `re` in the given lines, run once over the lines joined by newlines (re2js's cost
 * is mostly per call: one call over the candidate lines measured 2-8x faster than one per line
 * on hono), mapped back to their lines. Null when a match spans a joint: the caller then
 * matches line by line.
 */
function matchJoined(re: RE2JS, lines: TextLine[], max: number): LineMatch[] | null {
  if (lines.length === 0) return [];
  const offsets: number[] = [];
  let pos = 0;
  for (const l of lines) {
    offsets.push(pos);
    pos += l.text.length + 1;
  }
  const block = lines.map((l) => l.text).join("\n");
  const out: LineMatch[] = [];
  let k = 0;
  for (const [s, e] of re2Matches(re, block)) {
    while (k + 1 < offsets.length && offsets[k + 1] <= s) k++;
    if (e > offsets[k] + lines[k].text.length) return null;
    const range: Range = [s - offsets[k], e - offsets[k]];
    const last = out[out.length - 1];
    if (last && last.line === lines[k].line) last.ranges.push(range);
    else {
      if (out.length >= max) break;
      out.push({ line: lines[k].line, text: lines[k].text, ranges: [range] });
    }
  }
  return out;
}

/** All matches of an re2js pattern in `s` (its Matcher advances past empty matches itself). */
function* re2Matches(re: RE2JS, s: string): Generator<Range> {
  const m = re.matcher(s);
  while (m.find()) yield [m.start(), m.end()];
}

/**
 * Compiles `o`. Throws `invalid_input` for a regex syntax error (naming the position). The
 * literal of a `regex: false` search is its own requirement.
 */
export function compilePattern(o: PatternOptions): CompiledPattern {
  if (!o.regex) {
    const re = literalRegExp(o);
    const lineRe = new RegExp(re.source, re.flags);
    return {
      requirement: o.pattern.includes("\n") ? ANY : { kind: "lit", text: o.pattern },
      caseSensitive: o.caseSensitive,
      matchLines(text, max) {
        const it = nativeMatches(re, text);
        const grouped = groupByLine(text, max, () => it.next().value ?? null);
        return grouped ?? perLine(text, max, (line) => [...nativeMatches(lineRe, line)]);
      },
    };
  }
  const re = compileRe2(o);
  // \A and \z mean the text's ends, which differ between the whole file and one line.
  const textAnchors = /\\[Az]/.test(o.pattern);
  const requirement = requiredLiterals(o.pattern);
  // An inline (?i) makes (part of) the pattern case-insensitive whatever case_sensitive says.
  const caseSensitive = o.caseSensitive && !/\(\?[a-zA-Z-]*i/.test(o.pattern);
  const pre = linePrefilter(requirement, caseSensitive);
  // Case-insensitive lines are found by the prefilter alone (lowercasing can change offsets).
  const anchors = caseSensitive ? anchorLiterals(requirement) : null;
  return {
    requirement,
    caseSensitive,
    matchLines(text, max) {
      if (pre) {
        if (!pre(text)) return [];
        if (anchors && !textAnchors) {
          // Only the lines holding an anchor literal can match: found with indexOf (no split of
          // the whole text), kept when the whole requirement admits them, matched in one call.
          const joined = matchJoined(
            re,
            linesHolding(text, anchors).filter((l) => pre(l.text)),
            max,
          );
          if (joined) return joined;
        }
        return perLine(text, max, (line) => (pre(line) ? [...re2Matches(re, line)] : []));
      }
      if (!re.test(text)) return [];
      if (!textAnchors) {
        const it = re2Matches(re, text);
        const grouped = groupByLine(text, max, () => it.next().value ?? null);
        if (grouped) return grouped;
      }
      return perLine(text, max, (line) => [...re2Matches(re, line)]);
    },
  };
}
