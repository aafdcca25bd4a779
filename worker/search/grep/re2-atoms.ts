/**
 * @module worker/search/grep/re2-atoms
 *
 * Reading one atom of an RE2 pattern at a position, for the literal analysis of grep/literals.ts:
 * where a quantifier, a character class or an escape ends, and the few characters a small class
 * or escape stands for. Pure; the pattern has already been compiled by re2js, so its syntax is
 * valid.
 */

/** Quantifier at `i`: its minimum count and the index after it, or null when none starts there. */
export function quantifierAt(p: string, i: number): { min: number; end: number } | null {
  const c = p[i];
  let min: number;
  let end: number;
  if (c === "*" || c === "?") [min, end] = [0, i + 1];
  else if (c === "+") [min, end] = [1, i + 1];
  else if (c === "{") {
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(p.slice(i));
    if (!m) return null; // a `{` that is no repeat is a literal in RE2
    [min, end] = [Number(m[1]), i + m[0].length];
  } else return null;
  if (p[end] === "?") end++; // lazy form: same strings
  return { min, end };
}

/** Index just past the character class opening at `i` (`[`), RE2 syntax: `[]a]`, `[^]a]`, `[[:alpha:]]`, escapes. */
export function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++;
  while (j < p.length && p[j] !== "]") {
    if (p[j] === "\\") j += 2;
    else if (p[j] === "[" && p[j + 1] === ":") {
      const close = p.indexOf(":]", j + 2);
      j = close < 0 ? j + 1 : close + 2;
    } else j++;
  }
  return j + 1;
}

/** Index just past the escape at `i` (`\`) and the literal character it stands for, or null when it is no single plain character. */
export function escapeAt(p: string, i: number): { end: number; char: string | null } {
  const c = p[i + 1];
  if (c === undefined) return { end: i + 1, char: null };
  if ((c === "p" || c === "P") && p[i + 2] === "{") return { end: p.indexOf("}", i + 2) + 1 || p.length, char: null };
  if (c === "x" && p[i + 2] === "{") return { end: p.indexOf("}", i + 2) + 1 || p.length, char: null };
  if (c === "x") return { end: i + 4, char: null };
  if (c === "p" || c === "P") return { end: i + 3, char: null };
  // Escaped punctuation stands for itself; letters and digits are classes or special characters.
  if (!/[0-9A-Za-z]/.test(c)) return { end: i + 2, char: c };
  return { end: i + 2, char: null };
}

/**
 * Most characters a class stands for and still counts as a set of literals: `def\s+` requires
 * one of "def ", "def\t", "def\f", "def\r", far rarer than "def" (in TypeScript, "undefined"
 * and "default" hold it). `\d` (10) fits; `[a-z]` (26) requires nothing. The expanded strings
 * still pass through EXACT_SET_MAX (grep/literals.ts) when crossed with a run.
 */
export const CLASS_SET_MAX = 10;

/** Characters RE2's `\s` stands for within a line (`[\t\n\f\r ]` without the newline: a match never spans lines). */
const SPACE_CHARS = ["\t", "\f", "\r", " "];
const DIGIT_CHARS = [..."0123456789"];
/** Control-character escapes that stand for one character. */
const CONTROL_ESCAPES: Record<string, string> = { t: "\t", f: "\f", r: "\r", v: "\v", a: "\x07" };

/** The characters an escape inside a class stands for (at `j`, a `\`), and the index after it; null when not a small known set. */
export function classEscape(p: string, j: number): { chars: string[]; end: number } | null {
  const c = p[j + 1];
  if (c === undefined) return null;
  if (c === "s") return { chars: SPACE_CHARS, end: j + 2 };
  if (c === "d") return { chars: DIGIT_CHARS, end: j + 2 };
  if (CONTROL_ESCAPES[c]) return { chars: [CONTROL_ESCAPES[c]], end: j + 2 };
  if (!/[0-9A-Za-z]/.test(c)) return { chars: [c], end: j + 2 };
  return null;
}

/**
 * The characters of the class opening at `i` (`[`), when it is a small positive set (at most
 * CLASS_SET_MAX, no negation, no POSIX class, no case folding to consider: the caller's
 * requirement is folded like any literal); else null. A newline is dropped: no match holds one.
 */
export function classSet(p: string, i: number): string[] | null {
  let j = i + 1;
  if (p[j] === "^") return null;
  const chars = new Set<string>();
  const one = (): { chars: string[] } | null => {
    if (p[j] === "[" && p[j + 1] === ":") return null;
    if (p[j] === "\\") {
      const e = classEscape(p, j);
      if (!e) return null;
      j = e.end;
      return e;
    }
    const ch = String.fromCodePoint(p.codePointAt(j)!);
    j += ch.length;
    return { chars: [ch] };
  };
  let first = true;
  while (j < p.length && (p[j] !== "]" || first)) {
    first = false;
    const lo = one();
    if (!lo) return null;
    if (p[j] === "-" && p[j + 1] !== "]" && j + 1 < p.length) {
      j++;
      const hi = one();
      if (!hi || lo.chars.length !== 1 || hi.chars.length !== 1) return null;
      const [a, b] = [lo.chars[0].codePointAt(0)!, hi.chars[0].codePointAt(0)!];
      if (b < a || b - a >= CLASS_SET_MAX) return null;
      for (let cp = a; cp <= b; cp++) chars.add(String.fromCodePoint(cp));
    } else for (const ch of lo.chars) chars.add(ch);
    if (chars.size > CLASS_SET_MAX + 1) return null;
  }
  chars.delete("\n");
  return chars.size === 0 || chars.size > CLASS_SET_MAX ? null : [...chars];
}

/** Zero-width escapes: they consume nothing, so a literal run continues across them. */
export const ZERO_WIDTH_ESCAPES = new Set(["b", "B", "A", "z"]);
