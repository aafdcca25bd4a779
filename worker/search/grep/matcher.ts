/**
 * @module worker/search/grep/matcher
 *
 * Compiles a grep pattern and finds its matches in a file, line by line as ripgrep reports
 * them. Regexes run on re2js (RE2: linear time in the text, no backreferences or lookaround),
 * and their programs are bounded (worker/search/grep/pattern-cost.ts), so a pattern's cost per
 * byte is bounded; the grep's wall-clock budget (worker/search/grep/run.ts) bounds the rest. A
 * literal (`regex: false`) runs on the platform's native RegExp built from the escaped literal:
 * a plain string search (no quantifier, nothing to backtrack), several times faster than re2js
 * on long texts.
 *
 * Semantics (ripgrep's defaults): a match never spans lines; `^`/`$` are line boundaries;
 * case-insensitive matching uses Unicode simple case folding; `whole_word` puts `\b` (ASCII
 * word characters) on both sides. Pure.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { CodeSearchError } from "../../../kernel/errors";
import { ANY, requiredLiterals, type Requirement } from "./literals";
import { checkPatternCost } from "./pattern-cost";
import {
  ALL_RANGES,
  anchorLiterals,
  type LineMatch,
  linePrefilter,
  linesHolding,
  matchJoined,
  nativeFinder,
  perLine,
  re2Finder,
  wholeText,
  type RangeWindow,
} from "./line-scan";

export type { LineMatch, Range, RangeWindow } from "./line-scan";

/** What to search for (the service's input, validated). */
export interface PatternOptions {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  wholeWord: boolean;
}

/** A compiled pattern: what every match requires (for the trigram index) and the line matcher. */
export interface CompiledPattern {
  /** Literal substrings every match contains (worker/search/grep/literals.ts). */
  requirement: Requirement;
  /** Whether the requirement's literals must match case exactly (false when the pattern folds case anywhere, `(?i)` included). */
  caseSensitive: boolean;
  /** The matching lines of `text`, in order; stops after `max` lines. Each line's ranges are those `window` asks for (default: all). */
  matchLines(text: string, max: number, window?: RangeWindow): LineMatch[];
}

/** Characters a RegExp source must escape to stand for themselves (valid with the `u` flag). */
const REGEXP_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** A native RegExp that finds the literal (global, Unicode). */
function literalRegExp(o: PatternOptions): RegExp {
  const body = o.pattern.replace(REGEXP_SYNTAX, "\\$&");
  return new RegExp(o.wholeWord ? `\\b${body}\\b` : body, o.caseSensitive ? "gu" : "giu");
}

/** What to do about a syntax error, in the words of every interface (REST/MCP field `regex`, the CLI's `-E`). */
const LITERAL_HINT =
  'The syntax is RE2\'s (no backreferences or lookaround). To match a special character such as ( [ * . itself, escape it with a backslash (\\( ); to search for the text exactly as typed, send "regex": false (the CLI: grep without -E).';

/**
 * The message and position of a re2js syntax error, quoting only what the user typed. re2js
 * reports some errors (an unbalanced parenthesis) with the whole expression it compiled, which
 * starts with the flags `compileRe2` turned into `(?m)`/`(?i)` prefixes: those are cut off.
 */
function syntaxErrorMessage(
  pattern: string,
  error: string,
  input: string | null | undefined,
  flagsPrefix: string,
): { message: string; position: number | null } {
  let near = input ?? "";
  if (flagsPrefix && near.startsWith(flagsPrefix) && (flagsPrefix + pattern).startsWith(near)) near = near.slice(flagsPrefix.length);
  if (!near) return { message: `pattern: ${error}. ${LITERAL_HINT}`, position: null };
  if (near === pattern) return { message: `pattern: ${error} in "${pattern}". ${LITERAL_HINT}`, position: null };
  const at = pattern.indexOf(near);
  const where = at >= 0 ? ` at position ${at}` : "";
  return { message: `pattern: ${error}${where} ("${near}"). ${LITERAL_HINT}`, position: at >= 0 ? at : null };
}

/**
 * The re2js pattern, compiled; throws `invalid_input` naming the position of a syntax error,
 * e.g. `pattern: missing closing ] at position 1 ("[b")` for `a[b`, or naming the limit a too
 * costly program exceeds (worker/search/grep/pattern-cost.ts).
 */
function compileRe2(o: PatternOptions): RE2JS {
  const flags = RE2JS.MULTILINE | (o.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  let base: RE2JS;
  try {
    base = RE2JS.compile(o.pattern, flags);
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) {
      // RE2JS.compile prepends (?i) and then (?m) for these flags.
      const { message, position } = syntaxErrorMessage(o.pattern, err.error, err.input, `(?m)${o.caseSensitive ? "" : "(?i)"}`);
      throw new CodeSearchError("invalid_input", message, { position });
    }
    throw new CodeSearchError("invalid_input", `pattern: not a valid regular expression. ${LITERAL_HINT}`);
  }
  checkPatternCost(o.pattern, base); // invalid_input past the repetition or program-size cap
  return o.wholeWord ? RE2JS.compile(`\\b(?:${o.pattern})\\b`, flags) : base;
}

/**
 * Compiles `o`. Throws `invalid_input` for a regex syntax error (naming the position). The
 * literal of a `regex: false` search is its own requirement.
 */
export function compilePattern(o: PatternOptions): CompiledPattern {
  if (!o.regex) {
    const find = nativeFinder(literalRegExp(o));
    return {
      requirement: o.pattern.includes("\n") ? ANY : { kind: "lit", text: o.pattern },
      caseSensitive: o.caseSensitive,
      matchLines(text, max, window = ALL_RANGES) {
        return wholeText(text, max, find, window) ?? perLine(text, max, find, window, null);
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
  const find = re2Finder(re);
  return {
    requirement,
    caseSensitive,
    matchLines(text, max, window = ALL_RANGES) {
      if (pre) {
        if (!pre(text)) return [];
        if (anchors && !textAnchors) {
          // Only the lines holding an anchor literal can match: found with indexOf (no split of
          // the whole text), kept when the whole requirement admits them, matched in one string.
          const joined = matchJoined(
            linesHolding(text, anchors).filter((l) => pre(l.text)),
            max,
            find,
            window,
          );
          if (joined) return joined;
        }
        return perLine(text, max, find, window, pre);
      }
      if (!re.test(text)) return [];
      return (!textAnchors && wholeText(text, max, find, window)) || perLine(text, max, find, window, null);
    },
  };
}
