/**
 * @module worker/search/readers/code-marks
 *
 * The words a query marks as code: identifier-shaped words, names written as calls, inline code
 * spans and members written with their container (`JsonReader.skipValue`). Every reader reads
 * them the same way. Pure.
 */
import type { QualifiedName } from "../plan";

/** Most symbol-name candidates taken from one query (a pasted bug report has hundreds of words). */
export const MAX_SYMBOL_CANDIDATES = 40;

/**
 * `A.b`, `A::b`, `A#b` and chains (`a::B::c`, up to 8 links): the last link names the member,
 * the one before it its container. Identifiers are at most 255 characters and a chain starts
 * at a word start, so the scan stays linear.
 */
const QUALIFIED_RE = /(?<![\p{L}\p{N}_$.:#])((?:[\p{L}_$][\p{L}\p{N}_$]{0,254}(?:\.|::|#)){1,8})([\p{L}_$][\p{L}\p{N}_$]{0,254}[!?]?)(?![\p{L}\p{N}_$])/gu;

/**
 * The members `text` names with their container (QUALIFIED_RE), deduplicated, in order; both
 * parts at least 2 characters (`e.g` is not a member).
 */
export function qualifiedNames(text: string): QualifiedName[] {
  const out = new Map<string, QualifiedName>();
  for (const m of text.matchAll(QUALIFIED_RE)) {
    const container = m[1].split(/\.|::|#/).at(-2)!;
    const name = m[2];
    if (container.length >= 2 && name.length >= 2) out.set(`${container}\0${name}`, { container, name });
    if (out.size >= MAX_SYMBOL_CANDIDATES) break;
  }
  return [...out.values()];
}

const WORD_RE = /[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/gu;
/** Path-like words; segments are bounded (255, the usual file-name limit) so a 30k-character run without a slash is not rescanned from every offset. */
/** A file name with a source or config extension, as PATH_RE takes it: `url.ts`, `setup.py`. */
export const FILE_NAME_RE = /^[\w-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|md|json|ya?ml|toml|sql|sh)$/;
export const PATH_RE =
  /(?:[\w.-]{1,255}\/)+[\w.-]{0,255}|[\w-]{1,255}\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|md|json|ya?ml|toml|sql|sh)\b/g;
export const TEST_WORDS = new Set(["test", "tests", "testing", "spec", "specs", "unittest", "pytest", "jest", "vitest", "fixture", "fixtures"]);
/** Lowercased English words that are never useful as symbol names on their own. */
export const NOT_SYMBOLS = new Set(
  "the a an and or of to in on for by is are was be it this that with from as at how what where which who why when does do can should would will not no there their its into via using use used".split(
    " ",
  ),
);

/** Whether a word is shaped like an identifier: camelCase, PascalCase with an inner capital, `_`, `$` or a dot (digits alone do not count: `m1`, `x2`). */
function isIdentifierShaped(word: string): boolean {
  return /[a-z][A-Z]|[A-Z]{2,}[a-z]|_|\$|\./.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word);
}

/** Whether a word looks like code rather than prose: identifier-shaped, or with digits. */
export function isCodeLike(word: string): boolean {
  return isIdentifierShaped(word) || /\p{N}/u.test(word);
}

/** `name(`: a call or definition. Tried only where a name starts, so a long run of name characters without `(` is scanned once. */
const CALL_RE = /(?<![\p{L}\p{N}_$])([\p{L}_$][\p{L}\p{N}_$]{0,254})\(/gu;
/** A span in single backticks (Markdown inline code), on one line. */
const BACKTICK_RE = /`([^`\n]{1,80})`/g;

/** The matches markedWords reads, found once per text (parseQuery asks for two kinds of code word). */
export interface CodeMarks {
  words: { word: string; at: number }[];
  calls: { name: string; at: number }[];
  spans: { words: string[]; at: number }[];
}

/** Finds the words, calls and inline code spans of `text` once (markedWords reads them). */
export function scanCodeMarks(text: string): CodeMarks {
  return {
    words: [...text.matchAll(WORD_RE)].map((m) => ({ word: m[0], at: m.index! })),
    calls: [...text.matchAll(CALL_RE)].map((m) => ({ name: m[1], at: m.index! })),
    spans: [...text.matchAll(BACKTICK_RE)].map((m) => ({ words: m[1].match(WORD_RE) ?? [], at: m.index! })),
  };
}

/**
 * The words `text` marks as code, with their offsets: words `isCode` accepts, the parts of dotted
 * names, names written as calls, and the words of inline code spans (dotted ones split).
 */
function markedWords(text: string | CodeMarks, isCode: (word: string) => boolean): { name: string; at: number }[] {
  const marks = typeof text === "string" ? scanCodeMarks(text) : text;
  const out: { name: string; at: number }[] = [];
  const add = (w: string, at: number) => {
    for (const p of w.split(".")) out.push({ name: p, at });
  };
  for (const { word, at } of marks.words) if (word.includes(".") || isCode(word)) add(word, at);
  for (const { name, at } of marks.calls) add(name, at);
  for (const { words, at } of marks.spans) for (const w of words) add(w, at);
  return out;
}

/**
 * Words the text marks as code: identifier-shaped words, names written as calls (`sign(x)`)
 * and words in inline code spans (`` `nthroot_mod` ``). A report names the code it is about
 * this way; its other words are English, whose rarity in code says little.
 */
export function codeEvidenceWords(text: string | CodeMarks): string[] {
  return markedWords(text, isIdentifierShaped).map((w) => w.name);
}

/**
 * The names a query marks as code (isCodeLike words, the parts of dotted names, names written
 * as calls and words in inline code), those of its first line (a report's title) first, then
 * in order of appearance. Dunder names (`__init__`) name a protocol every class implements,
 * not a place, and are left out.
 */
export function codeNames(text: string, marks?: CodeMarks): string[] {
  const newline = text.indexOf("\n");
  const titleEnd = newline < 0 ? text.length : newline;
  const found = markedWords(marks ?? text, isCodeLike).filter(
    ({ name }) => name.length >= 2 && !NOT_SYMBOLS.has(name.toLowerCase()) && !/^__\w+__$/.test(name),
  );
  const rank = (f: { at: number }) => (f.at < titleEnd ? 0 : 1);
  found.sort((a, b) => rank(a) - rank(b) || a.at - b.at);
  return [...new Set(found.map((f) => f.name))];
}
