/**
 * @module worker/search/grep/literals
 *
 * What a regular expression (RE2 syntax) requires of any text it matches, as a boolean formula
 * over literal substrings: `and`/`or` of `lit` nodes, or `any` when nothing is required. This
 * is zoekt's and Russ Cox's codesearch approach (https://swtch.com/~rsc/regexp/regexp4.html),
 * reduced to literal runs: a run of plain characters in a concatenation must occur in every
 * match; alternation gives `or`; anything optional (`?`, `*`, `{0,n}`) or not a plain
 * character (classes, `.`, `\d`, ...) ends a run and requires nothing.
 *
 * The analysis is conservative: whatever it does not understand requires nothing, so the
 * formula never rules out a text that matches (a superset of the true matches; the engine
 * verifies). It runs only on patterns that re2js has already compiled, so syntax is valid. Pure.
 */
import { classEnd, classEscape, classSet, escapeAt, quantifierAt, ZERO_WIDTH_ESCAPES } from "./re2-atoms";

export { CLASS_SET_MAX } from "./re2-atoms";

/** A requirement on the text: every match contains ... */
export type Requirement = { kind: "any" } | { kind: "lit"; text: string } | { kind: "and"; of: Requirement[] } | { kind: "or"; of: Requirement[] };

export const ANY: Requirement = { kind: "any" };

/** `and` of the parts, dropping `any`; `any` when none is left. */
export function allOf(parts: Requirement[]): Requirement {
  const kept = parts.flatMap((p) => (p.kind === "any" ? [] : p.kind === "and" ? p.of : [p]));
  return kept.length === 0 ? ANY : kept.length === 1 ? kept[0] : { kind: "and", of: kept };
}

/** `or` of the branches; `any` as soon as one branch requires nothing. */
export function anyOf(branches: Requirement[]): Requirement {
  if (branches.length === 0 || branches.some((b) => b.kind === "any")) return ANY;
  const flat = branches.flatMap((b) => (b.kind === "or" ? b.of : [b]));
  return flat.length === 1 ? flat[0] : { kind: "or", of: flat };
}

/**
 * Most alternatives an exact set holds: `(a|b)(c|d)` multiplies, and past this the parts stay
 * an `and` of their own requirements (still a superset). codesearch bounds its sets likewise.
 */
export const EXACT_SET_MAX = 16;

/** Result of parsing an alternation: its requirement, and the exact strings it matches when it matches only a few plain literals. */
interface Parsed {
  req: Requirement;
  exact: string[] | null;
}

/** Every string of `a` followed by every string of `b`, or null past EXACT_SET_MAX. */
function cross(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > EXACT_SET_MAX) return null;
  return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
}

class Analyzer {
  i = 0;
  constructor(readonly p: string) {}

  /** alternation := concat ('|' concat)* ; stops at ')' or the end. */
  alternation(): Parsed {
    const branches: Parsed[] = [this.concat()];
    while (this.p[this.i] === "|") {
      this.i++;
      branches.push(this.concat());
    }
    if (branches.length === 1) return branches[0];
    const union = branches.every((b) => b.exact !== null) ? [...new Set(branches.flatMap((b) => b.exact!))] : null;
    return { req: anyOf(branches.map((b) => b.req)), exact: union && union.length <= EXACT_SET_MAX ? union : null };
  }

  /** A sequence of atoms up to '|' or ')' or the end. */
  concat(): Parsed {
    const parts: Requirement[] = [];
    // The literal run so far, as the set of strings it can be (one, unless an alternation group
    // of plain literals was crossed into it: `c\.(req|res)` is {"c.req", "c.res"}).
    let run: string[] = [""];
    let exact = true;
    const append = (text: string) => {
      run = run.map((r) => r + text);
    };
    const flush = () => {
      if (run.some((r) => r !== "")) parts.push(anyOf(run.map((text): Requirement => (text ? { kind: "lit", text } : ANY))));
      run = [""];
    };
    const p = this.p;
    while (this.i < p.length && p[this.i] !== "|" && p[this.i] !== ")") {
      const c = p[this.i];
      // One atom: a plain character (`char`), a group (`group`), or something requiring nothing.
      let char: string | null = null;
      let group: Parsed | null = null;
      // A small class (`[ab]`, `\s`, `\d`): one of a few characters.
      let set: string[] | null = null;
      let zeroWidth = false;
      if (c === "(") {
        this.i++;
        if (p[this.i] === "?") {
          // (?flags) alone changes flags and matches nothing; (?flags:...), (?P<n>...), (?<n>...) are groups.
          const flags = /^\?[a-zA-Z-]*\)/.exec(p.slice(this.i));
          if (flags) {
            this.i += flags[0].length;
            continue;
          }
          const head = /^\?(?:[a-zA-Z-]*:|P?<[^>]*>)/.exec(p.slice(this.i));
          this.i += head ? head[0].length : 1;
        }
        group = this.alternation();
        if (p[this.i] === ")") this.i++;
      } else if (c === "[") {
        set = classSet(p, this.i);
        this.i = classEnd(p, this.i);
      } else if (c === "\\") {
        if (p[this.i + 1] === "Q") {
          const close = p.indexOf("\\E", this.i + 2);
          const text = p.slice(this.i + 2, close < 0 ? p.length : close);
          this.i = close < 0 ? p.length : close + 2;
          if (quantifierAt(p, this.i)) {
            // A quantifier applies to the last character only: keep the rest as literal.
            append([...text].slice(0, -1).join(""));
            flush();
            this.i = quantifierAt(p, this.i)!.end;
            exact = false;
          } else append(text);
          continue;
        }
        if (ZERO_WIDTH_ESCAPES.has(p[this.i + 1])) {
          zeroWidth = true;
          this.i += 2;
        } else {
          const known = classEscape(p, this.i);
          if (known && known.chars.length === 1) [char, this.i] = [known.chars[0], known.end];
          else if (known) [set, this.i] = [known.chars, known.end];
          else {
            const e = escapeAt(p, this.i);
            this.i = e.end;
            char = e.char;
          }
        }
      } else if (c === "^" || c === "$") {
        zeroWidth = true;
        this.i++;
      } else if (c === ".") {
        this.i++;
      } else {
        char = String.fromCodePoint(p.codePointAt(this.i)!);
        this.i += char.length;
      }
      const q = quantifierAt(p, this.i);
      if (q) this.i = q.end;
      if (zeroWidth) continue; // consumes nothing (a quantified assertion still consumes nothing)
      if (char !== null && !q) {
        append(char);
        continue;
      }
      if (set !== null && (!q || q.min >= 1)) {
        // One of the set's characters: crossed into the run as a group of literals would be.
        const crossed = cross(run, set);
        if (!q && crossed) {
          run = crossed;
          continue;
        }
        if (crossed) run = crossed;
        flush();
        // x+ : the text after starts with one of the set; with no quantifier the run restarts there too.
        run = set;
        exact = false;
        continue;
      }
      if (group && !q && group.exact !== null) {
        const crossed = cross(run, group.exact);
        if (crossed) {
          run = crossed;
          continue;
        }
        // Too many alternatives: the run ends here and the group's strings stand alone after it.
        flush();
        run = group.exact.length <= EXACT_SET_MAX ? group.exact : [""];
        exact = false;
        continue;
      }
      exact = false;
      if (char !== null && q && q.min >= 1) {
        // x+ : the run so far ends with one x, and the text after starts with one.
        append(char);
        flush();
        run = [char];
        continue;
      }
      flush();
      if (group && (!q || q.min >= 1)) parts.push(group.req);
    }
    // Without any optional or non-literal atom, nothing was flushed before: the run is the whole text.
    const whole = run;
    flush();
    return { req: allOf(parts), exact: exact ? whole : null };
  }
}

/**
 * The requirement of an RE2 pattern: literal substrings (with `and`/`or`) every match contains.
 * Example: `parse(Signed|Unsigned)\(` -> or(lit "parseSigned(", lit "parseUnsigned(").
 * Literal-only patterns give one `lit`. Unknown constructs give `any` for their part.
 */
export function requiredLiterals(pattern: string): Requirement {
  const a = new Analyzer(pattern);
  const parsed = a.alternation();
  // A stray ')' cannot survive re2js's parse; if the analyzer stopped early anyway, trust nothing.
  return a.i < pattern.length ? ANY : parsed.req;
}
