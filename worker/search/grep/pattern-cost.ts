/**
 * @module worker/search/grep/pattern-cost
 *
 * Bounds on a regex's RE2 program, checked before any text is read. RE2 runs in time linear in
 * the text, but the factor is the number of program states alive at once: `[\s\S]{1000}` keeps
 * a thousand alive and cost 30 s over 10 MB (issue #43). Counted repetition is what multiplies
 * states, so its total is capped (GREP_MAX_REPEAT), and the compiled program's size is capped
 * (GREP_MAX_PROGRAM_SIZE, also its memory). Pure.
 */
import type { RE2JS } from "re2js";
import { CodeSearchError } from "../../../kernel/errors";

/**
 * Most states counted repetition may add to a pattern: the sum over every `{n}`, `{n,}` and
 * `{n,m}` of its bound (m, else n), nested ones multiplied (`(a{10}){10}` is 100). A SHA-256
 * (`[0-9a-f]{64}`) or a UUID fit; `[\s\S]{1000}` does not.
 */
export const GREP_MAX_REPEAT = 256;
/** Largest RE2 program (re2js `programSize()`, about one unit per instruction): a 1,000-character literal regex is 1,002. */
export const GREP_MAX_PROGRAM_SIZE = 1_200;

/** The end of the character class opened at `open` (index of its `]`), or the pattern's end. */
function classEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === "^") i++;
  if (p[i] === "]") i++;
  for (; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "[" && p[i + 1] === ":") i = Math.max(i, p.indexOf(":]", i + 2) + 1);
    else if (p[i] === "]") return i;
  }
  return p.length;
}

/**
 * The counted-repetition total of an RE2 pattern (see GREP_MAX_REPEAT): each item weighs 1, a
 * group the sum of its items, and `{n,m}` multiplies the item before it by m (n when unbounded);
 * the total is the sum of what repetition added. Escapes, `\Q…\E` and classes are single items.
 */
export function countedRepetition(p: string): number {
  // One frame per open group: `added` = repetition states added inside it, `last` = the previous item's added states (-1: none).
  const stack: { added: number; last: number }[] = [{ added: 0, last: -1 }];
  const top = () => stack[stack.length - 1];
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    const f = top();
    if (ch === "\\") {
      if (p[i + 1] === "Q") {
        const end = p.indexOf("\\E", i + 2);
        i = end < 0 ? p.length : end + 1;
      } else i += /[pP]/.test(p[i + 1] ?? "") && p[i + 2] === "{" ? Math.max(1, p.indexOf("}", i) - i) : 1;
      f.last = 0;
    } else if (ch === "[") {
      i = classEnd(p, i);
      f.last = 0;
    } else if (ch === "(") {
      stack.push({ added: 0, last: -1 });
    } else if (ch === ")" && stack.length > 1) {
      const inner = stack.pop()!;
      top().added += inner.added;
      top().last = inner.added;
    } else if (ch === "{" && f.last >= 0) {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(p.slice(i));
      if (!m) {
        f.last = 0; // a literal {
        continue;
      }
      const bound = Number(m[3] || m[1]);
      // The item now stands `bound` times: its own state and what repetition inside it added.
      const extra = bound * (f.last + 1) - (f.last + 1);
      f.added += Math.max(0, extra);
      f.last += Math.max(0, extra);
      i += m[0].length - 1;
    } else if (ch === "|") {
      f.last = -1;
    } else if (!"*+?".includes(ch)) {
      f.last = 0;
    }
  }
  return stack[0].added;
}

/** Throws `invalid_input` when `pattern` (compiled as `re`) exceeds GREP_MAX_REPEAT or GREP_MAX_PROGRAM_SIZE, naming the limit. */
export function checkPatternCost(pattern: string, re: RE2JS): void {
  const repeat = countedRepetition(pattern);
  if (repeat > GREP_MAX_REPEAT) {
    throw new CodeSearchError(
      "invalid_input",
      `pattern: counted repetition adds ${repeat} states, more than ${GREP_MAX_REPEAT} (e.g. [\\s\\S]{1000}); use a smaller count, or + / * (e.g. [\\s\\S]+).`,
      { limit: GREP_MAX_REPEAT },
    );
  }
  const size = re.programSize();
  if (size > GREP_MAX_PROGRAM_SIZE) {
    throw new CodeSearchError(
      "invalid_input",
      `pattern: its RE2 program has ${size} instructions, more than ${GREP_MAX_PROGRAM_SIZE}; simplify it or split it into several greps.`,
      {
        limit: GREP_MAX_PROGRAM_SIZE,
      },
    );
  }
}
