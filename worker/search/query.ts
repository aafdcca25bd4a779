/**
 * @module worker/search/query
 *
 * Parses a search query into what the channels need: BM25 terms (the shared query tokenizer),
 * candidate symbol names (identifiers written in the query, plus adjacent words joined, so
 * "get user by id" can find `getUserById`), path hints (words naming files or directories) and
 * whether tests are asked for. Pure.
 */
import { isQueryStopWord, tokenize, tokenizeQuery } from "../../indexer/store/contract";
import { MAX_MESSAGE_PHRASES, messagePhrases, quotedPhrases } from "./error-messages";
import { isTestPath } from "./filters";
import { optionFlags } from "./option-flags";
import { LONG_REPORT_TERMS, MIN_SHAPED_REPORT_TERMS, REPORT_MIN_LINES } from "./ranking/weights";
import { parseStackFrames, signatureCallee, type Callee, type StackFrame } from "./stack-frames";

/** Most symbol-name candidates taken from one query (a pasted bug report has hundreds of words). */
export const MAX_SYMBOL_CANDIDATES = 40;
/** Queries with at most this many words also try adjacent words joined as identifiers. */
const JOIN_WORDS_MAX_QUERY_WORDS = 16;

/** A parsed query. */
export interface ParsedQuery {
  /** The query text: markup and environment listings removed, long paths shortened (stripMarkup, stripListings, shortenPaths). */
  text: string;
  /** Query-side tokens (tokenizeQuery): stop words and a report's own aliases and placeholders (reporterLocals) dropped, deduplicated. */
  terms: string[];
  /** Candidate symbol names, most code-like first (original case kept). */
  identifiers: string[];
  /** Lowercased path fragments named in the query: `src/router`, `router.ts`. */
  pathHints: string[];
  /** Whether a question (not a report) talks about tests (then tests are not excluded by default). */
  mentionsTests: boolean;
  /**
   * A pasted bug report, whose answer is code, not docs: more than 24 terms, or at least 6 in a
   * text shaped like a report (hasReportShape: pasted output or three lines).
   */
  isReport: boolean;
  /**
   * Query tokens the text marks as code (codeEvidenceWords): their rarity in the index is
   * evidence, unlike a rare English word's (terms.ts).
   */
  codeTerms: string[];
  /** Lowercased names the first line (a report's title) marks as code (codeNames); empty unless `isReport`. */
  titleNames: string[];
  /** Stack frames pasted in the query, innermost first (parseStackFrames). */
  frames: StackFrame[];
  /** The function a Python `TypeError` says a call's arguments did not bind to (signatureCallee); null unless `isReport`. */
  callee: Callee | null;
  /** Long command-line options written in the query (`--collect-only`), as written (optionFlags). */
  optionFlags: string[];
  /**
   * Literal runs to look up as phrases: of pasted exception messages (messagePhrases) and, in a
   * question, of double-quoted phrases (quotedPhrases); at most MAX_MESSAGE_PHRASES.
   */
  phrases: string[];
  /** Members written with their container (`JsonReader.skipValue`, `LineBuffer::fill`, `Base#compile!`), as written (qualifiedNames). */
  qualified: QualifiedName[];
  /**
   * Members a report's code uses on an object it constructed, of a class its title names ("Wrong
   * Derivative kind attribute", `d = Derivative(A, x)`, `d.kind`; receiverMembers); empty unless `isReport`.
   */
  receivers: QualifiedName[];
  /**
   * Distinct English function words of the query ("where", "does", "the": the query stop list,
   * isQueryStopWord): English prose has several, a keyword or identifier query and a question in
   * another language few or none (the gate's absent-name rule reads it). 0 for a report.
   */
  functionWords: number;
  /**
   * Lowercased names the text writes as code (codeNames: identifier-shaped words, dotted names'
   * parts, calls, inline code; and qualified members' names), unlike `identifiers` without the
   * joined runs of prose words: a result whose symbol is one of them is the thing the question
   * names (the gate's agreement rule, worker/search/gate.ts). Empty for a report.
   */
  spelledNames: string[];
}

/** A member named with its container: `container.name`, `container::name` or `container#name`. */
export interface QualifiedName {
  container: string;
  name: string;
}

/** A report's title: its first non-blank line. */
function reportTitle(text: string): string {
  return text.trimStart().split("\n", 1)[0];
}

/**
 * A line that binds a name to a constructed object: `d = Derivative(A, x)`, `ds =
 * xr.Dataset(...)`, `const app = new Hono()`, behind `>>>`, `...` or IPython's `In [3]:`.
 * Group 1: the name; group 2: the class, capitalized as PEP 8 and JavaScript name classes.
 */
const CONSTRUCTED_RE =
  /^[ \t]*(?:>>>[ \t]?|\.\.\.[ \t]?|In \[\d+\]:[ \t]*)?(?:(?:const|let|var)[ \t]+)?([A-Za-z_$][\w$]{0,254})[ \t]*=[ \t]*(?:new[ \t]+)?(?:[A-Za-z_$][\w$]{0,254}\.){0,8}([A-Z][\w$]{0,254})\(/gm;
/** `name.member`, not after a dot (`a.b.c` gives `a.b` only). */
const MEMBER_USE_RE = /(?<![\w$.])([A-Za-z_$][\w$]{0,254})\.([A-Za-z_$][\w$]{0,254})/g;
/** Receivers read from one report, at most (each names a definition the stage looks for). */
const MAX_RECEIVERS = 8;

/**
 * The members a report's code uses on objects it constructed (CONSTRUCTED_RE) of a class its
 * title names: for the title "Wrong Derivative kind attribute", `d = Derivative(A, x)` and a
 * later `d.kind`, `{ container: "Derivative", name: "kind" }`. A title names the report's
 * subject, and the code shows which member of it misbehaves; a class the code only constructs
 * on the way (`Integral(A, x)` beside it) is a client or a comparison. Special (`__x__`)
 * members and file names (`wcs.py`) are left out; a name bound twice keeps its last class. At most MAX_RECEIVERS, in
 * order of use.
 */
export function receiverMembers(text: string): QualifiedName[] {
  const title = new Set(reportTitle(text).match(/[A-Za-z_$][\w$]*/g) ?? []);
  const classOf = new Map<string, string>();
  for (const m of text.matchAll(CONSTRUCTED_RE)) if (title.has(m[2])) classOf.set(m[1], m[2]);
  if (!classOf.size) return [];
  const out = new Map<string, QualifiedName>();
  for (const m of text.matchAll(MEMBER_USE_RE)) {
    const container = classOf.get(m[1]);
    // `wcs.py` in a traceback's path is a file, not a member of the object `wcs`.
    if (!container || m[2].startsWith("__") || FILE_NAME_RE.test(m[0])) continue;
    out.set(`${container}\0${m[2]}`, { container, name: m[2] });
    if (out.size >= MAX_RECEIVERS) break;
  }
  return [...out.values()];
}

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

/** `name==1.2.3`, `name-1.2.3`, `name>=1.2`, `name@1.2.3`: an installed package with its version. */
const VERSIONED_NAME_RE = /^[A-Za-z][\w.\-[\]]*(?:==|>=|<=|~=|-|@)v?\d+(?:\.\w+)+[\w.+-]*,?$/;
/** A bare version: `1.2.3`, `v0.13.1`, `6.0.0rc0`, `2019.3.9`. */
const VERSION_RE = /^v?\d+(?:\.\w+)+[\w.+-]*$/;
/** A `pip list` / `conda list` / `npm ls` row: a name, a version, maybe a build or location. */
const LISTING_ROW_RE = /^\s*[-|`+\\ ]*@?[A-Za-z][\w.\-[\]/@]*\s+v?\d+(?:\.\w+)+[\w.+-]*(?:\s+\S+){0,2}\s*$/;
/** Consecutive listing rows needed before they are dropped (a lone "pytest 6.0" stays). */
const MIN_LISTING_RUN = 3;

/** `name: value` on one line, as in `xr.show_versions()`, `pd.show_versions()`, `pylint --version`. */
const KEY_VALUE_RE = /^\s*[A-Za-z][\w.\- ]{0,30}:\s+(\S.{0,100})?$/;
/** A value that is a version or an empty slot: `1.10.6`, `3.8.3 (default, ...)`, `None`, `not installed`. */
const VERSION_VALUE_RE = /^(?:v?\d+(?:\.\w+)+\S*(?:\s.*)?|None|null|not installed|unknown|)$/i;
/** `name: value` rows in one run (blank lines allowed) before it counts as an environment report. */
const MIN_KEY_VALUE_RUN = 5;

/** Comma-separated single words in one line beyond which it is a package list ("Installing collected packages: a, b, ..."). */
const MIN_LISTED_NAMES = 10;

function isVersionedLine(line: string): boolean {
  if (
    line.split(",").length >= MIN_LISTED_NAMES &&
    line
      .split(",")
      .slice(1)
      .every((p) => /^\s*[\w.\-[\]]+\s*$/.test(p))
  )
    return true;
  const tokens = line.split(/[\s,]+/).filter(Boolean);
  if (tokens.length < 2) return false;
  const versioned = tokens.filter((t) => VERSIONED_NAME_RE.test(t) || VERSION_RE.test(t)).length;
  return versioned >= 2 && versioned * 2 >= tokens.length;
}

/**
 * The lines an interactive interpreter prints when it starts, pasted with a REPL session:
 * CPython's version line (`Python 3.6.0 |Anaconda, Inc.| (default, Dec 23 2016, 12:22:00)`) and
 * compiler line (`[GCC 7.5.0] on linux`), its `Type "help", "copyright", "credits" or "license"
 * for more information.` (CPython's Modules/main.c), and IPython's banner (`IPython 7.1 -- An
 * enhanced Interactive Python.`) with its help table (`?`, `%quickref`, `help`, `object?` rows,
 * IPython's core/usage.py). Fixed texts of the interpreters, the same in every repository.
 */
const INTERPRETER_BANNER_RES = [
  /^\s*Python [23]\.\d+(?:\.\d+)?\S*\s.*\((?:default|main|tags\/[^,)]*|heads\/[^,)]*|v\d[^,)]*|r\d+[^,)]*)[,)]/,
  /^\s*\[(?:GCC|Clang|MSC|PyPy)\b[^\]\n]*\](?: on \w+)?\s*$/,
  /^\s*Type\s+["']?(?:help|copyright)["']?.*\bfor more information\.?\s*$/i,
  /^\s*IPython \d[\w.]* -- An enhanced Interactive Python\b/,
  /^\s*(?:\?|%quickref|help|object\?)\s+-> /,
];

/** Marks in `drop` the lines of interpreter banners (INTERPRETER_BANNER_RES). */
function dropInterpreterBanners(lines: string[], drop: boolean[]): void {
  lines.forEach((line, i) => {
    if (INTERPRETER_BANNER_RES.some((re) => re.test(line))) drop[i] = true;
  });
}

/**
 * The first line of a test run's session header as pytest prints it (terminal.py,
 * `pytest_sessionstart`): its rule (`=== test session starts ===`) and its platform line
 * (`platform linux -- Python 3.8.3, pytest-6.0.0, py-1.9.0, pluggy-0.13.1`; older versions
 * `platform linux2 -- Python 2.7.6 -- py-1.4.20 -- pytest-2.5.2`).
 */
const TEST_SESSION_START_RES = [/^\s*=+ test session starts\b/i, /^\s*`?platform \S+ -- Python \d/];
/**
 * A line of that header after its first: `cachedir:`, `rootdir:`, `plugins:`, plugins' own
 * `key: value` lines (`benchmark: ...`, `django: settings: ...`), hypothesis's `hypothesis
 * profile 'default' -> ...`, `Using --randomly-seed=...`, and `collecting ... collected 3 items`.
 */
const TEST_SESSION_HEADER_RE = /^\s*(?:[A-Za-z][\w .-]{0,40}:\s|hypothesis profile |using |collect(?:ing|ed) )/i;
/** Lines of one header after its start; pytest prints a handful, plugins a few more. */
const MAX_TEST_SESSION_HEADER = 15;
/** The warnings summary's link to pytest's docs, under its rule. */
const PYTEST_DOCS_LINK_RE = /^\s*-- Docs: https?:\/\/docs\.pytest\.org\//;

/**
 * Whether `line` is a rule with a title, as pytest draws them between a run's sections
 * (terminal.py's `write_sep`): `=== FAILURES ===`, `=== short test summary info ===`, `---
 * Captured stdout call ---`, `=== 1 failed, 2 passed in 0.12s ===`. Scanned by hand: a regex
 * for "rule, title, rule" backtracks quadratically on a long line of spaces.
 */
function isTitledRule(line: string): boolean {
  const t = line.trim();
  const c = t[0];
  if (c !== "=" && c !== "-") return false;
  let i = 0;
  while (t[i] === c) i++;
  let j = t.length;
  while (j > i && t[j - 1] === c) j--;
  return i >= 3 && t.length - j >= 3 && t[i] === " " && t[j - 1] === " " && t.slice(i, j).trim() !== "";
}

/**
 * Marks in `drop` the framing of a pasted test run: the session header (TEST_SESSION_START_RES
 * and the TEST_SESSION_HEADER_RE lines after it) and the section rules (isTitledRule). They
 * describe the reporter's machine and the runner's layout, the same in every report; the test
 * code, its assertion and failure lines and the traceback between them stay.
 */
function dropTestRunFraming(lines: string[], drop: boolean[]): void {
  for (let i = 0; i < lines.length; i++) {
    if (isTitledRule(lines[i]) || PYTEST_DOCS_LINK_RE.test(lines[i])) drop[i] = true;
    if (!TEST_SESSION_START_RES.some((re) => re.test(lines[i]))) continue;
    drop[i] = true;
    for (let j = i + 1; j < lines.length && j <= i + MAX_TEST_SESSION_HEADER; j++) {
      if (TEST_SESSION_START_RES.some((re) => re.test(lines[j]))) drop[j] = true;
      else if (TEST_SESSION_HEADER_RE.test(lines[j])) drop[j] = true;
      else break;
    }
  }
}

/**
 * Removes environment listings from a pasted report: runs of package/version rows (`pip list`,
 * `pip freeze`, `conda list`, `npm ls`), lines that are mostly `name-1.2.3` tokens
 * ("Successfully installed ..."), tools' version reports, interpreter banners and a test run's
 * framing (its session header and section rules). They name
 * the reporter's machine, not the code; their names are rare in the index, so IDF term selection
 * would otherwise pick them over the report's words, and common ones (`python`, `interactive`,
 * `help`) match the repo's own REPL or CLI code.
 */
export function stripListings(text: string): string {
  const lines = text.split(/\r?\n/);
  const drop = lines.map((l) => isVersionedLine(l));
  let run = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && (LISTING_ROW_RE.test(lines[i]) || VERSIONED_NAME_RE.test(lines[i].trim()))) {
      run++;
      continue;
    }
    if (run >= MIN_LISTING_RUN) {
      for (let j = i - run; j < i; j++) drop[j] = true;
      dropListingHeading(lines, drop, i - run);
    }
    run = 0;
  }
  dropEnvironmentReports(lines, drop);
  dropInterpreterBanners(lines, drop);
  dropTestRunFraming(lines, drop);
  return drop.some(Boolean) ? lines.filter((_, i) => !drop[i]).join("\n") : text;
}

/**
 * A version with letters in it, as PEP 440 and SemVer 2.0 write pre-, post- and development
 * releases and local or build labels: `6.0.0rc0`, `3.0.0a3`, `1.8.dev`, `0.22.2.post1`,
 * `2.14.0-dev0`, `v3.10.0b2`, `1.1.dev518+gcad2d473f.d20191103`, `4.0.0-beta.2`. Numbers are not
 * query terms, but the letters of such a version would be (`rc`, `dev`, `post`, `a3`).
 */
const LETTERED_VERSION_RE = /(?<![\w.])v?\d+(?:\.\d+)+(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post|final)(?:[-_.]?\d+)?)+(?:\+[\w.]+)?(?![\w])/gi;

/**
 * Removes lettered versions (LETTERED_VERSION_RE) from `text`: a release names when the code
 * was, not where. A version without letters is left to tokenization, which drops numbers.
 */
export function stripVersions(text: string): string {
  return text.replace(LETTERED_VERSION_RE, " ");
}

/** A line between a listing's heading and its rows that has no words: blank, a fence, a rule (`------- -------`). */
const LISTING_GAP_RE = /^[\s\-=+|`~]*$/;
/** Most words in a line that heads a listing: its column header (`Package Version Location`) or command (`$ pip list`, "Pip list gives"). */
const MAX_LISTING_HEADING_WORDS = 4;
/** Heading lines read above a listing's first row: its column header, the command, a section heading (`### pip list`). */
const MAX_LISTING_HEADING_LINES = 3;

/**
 * Marks in `drop` the short lines right above a dropped listing whose first row is `first`: the
 * column header (`Package    Version    Location`) and the command or sentence that printed it
 * (`$ pip list`, `conda list`, "Pip list gives"), at most MAX_LISTING_HEADING_LINES lines of at
 * most MAX_LISTING_HEADING_WORDS words each, over blank, fence and rule lines. They belong to the
 * listing: `pip`, `package` and `location` are words of the repo's packaging code, not of the bug.
 */
function dropListingHeading(lines: string[], drop: boolean[], first: number): void {
  let taken = 0;
  for (let i = first - 1; i >= 0 && taken < MAX_LISTING_HEADING_LINES; i--) {
    if (drop[i] || LISTING_GAP_RE.test(lines[i])) continue;
    const words = lines[i].match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (words.length > MAX_LISTING_HEADING_WORDS || /[()[\]{}=:;]/.test(lines[i])) return;
    drop[i] = true;
    taken++;
  }
}

/**
 * Marks in `drop` the runs of `name: value` rows (blank and single continuation lines allowed
 * inside) whose values are mostly versions or empty (`None`): the environment reports tools
 * print (`show_versions()`, `--version` dumps). Configuration snippets (`ignore-paths: ...`) have other values and stay.
 */
function dropEnvironmentReports(lines: string[], drop: boolean[]): void {
  let start = -1;
  let rows = 0;
  let versioned = 0;
  const flush = (end: number) => {
    if (rows >= MIN_KEY_VALUE_RUN && versioned * 2 >= rows) for (let j = start; j < end; j++) drop[j] = true;
    start = -1;
    rows = 0;
    versioned = 0;
  };
  for (let i = 0; i <= lines.length; i++) {
    const m = i < lines.length ? KEY_VALUE_RE.exec(lines[i]) : null;
    if (m) {
      if (start < 0) start = i;
      rows++;
      if (VERSION_VALUE_RE.test((m[1] ?? "").trim())) versioned++;
    } else if (start >= 0 && i + 1 < lines.length && (!lines[i].trim() || KEY_VALUE_RE.test(lines[i + 1]))) {
      // A blank line, or one continuation line (`[GCC 7.3.0]` after `python: 3.7.3 (default, ...)`).
      continue;
    } else {
      flush(i);
    }
  }
}

const WORD_RE = /[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*/gu;
/** Path-like words; segments are bounded (255, the usual file-name limit) so a 30k-character run without a slash is not rescanned from every offset. */
const PATH_RE =
  /(?:[\w.-]{1,255}\/)+[\w.-]{0,255}|[\w-]{1,255}\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|md|json|ya?ml|toml|sql|sh)\b/g;
const TEST_WORDS = new Set(["test", "tests", "testing", "spec", "specs", "unittest", "pytest", "jest", "vitest", "fixture", "fixtures"]);
/** Lowercased English words that are never useful as symbol names on their own. */
const NOT_SYMBOLS = new Set(
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
interface CodeMarks {
  words: { word: string; at: number }[];
  calls: { name: string; at: number }[];
  spans: { words: string[]; at: number }[];
}

function scanCodeMarks(text: string): CodeMarks {
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

/** HTML comments (issue templates' instructions) and the formatting tags issue trackers render. */
const HTML_COMMENT_RE = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_TAG_RE = /<\/?(?:details|summary|tt|br|p|b|i|em|strong|code|pre|sub|sup|kbd|hr|img|a|ul|ol|li|table|tr|td|th|div|span)\b[^>\n]*>/gi;
/** Memory addresses (`0x101f82ed0`) and long hex hashes with digits and letters (commits, object ids). */
const HEX_RE = /\b0x[0-9a-fA-F]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,64}\b/g;

/**
 * A code fence's info string: the text after an opening ``` or ~~~ (CommonMark 0.31, 4.5: it names
 * the block's language, `python`, `shell`, `console`; a backtick fence's info string holds no backtick).
 */
const FENCE_INFO_RE = /^([ \t]{0,3}(?:`{3,}|~{3,}))[^\S\n]*[^\s`][^\n`]*$/gm;
/** What a GitHub issue form writes for an optional field left empty. */
const EMPTY_FORM_FIELD_RE = /^[ \t]*_No response_[ \t]*$/gm;

/**
 * Removes what a pasted report carries besides its words: HTML comments (the issue template's
 * instructions), rendering tags (`<details>`, `<tt>`), memory addresses and hashes, code fences'
 * info strings (```` ```python ````) and the empty fields of GitHub issue forms (`_No response_`).
 * Their tokens name the rendering, not the code: rare ones are what IDF term selection picks, and
 * common ones (`python`, `shell`, `response`) match code about something else.
 */
export function stripMarkup(text: string): string {
  return text.replace(HTML_COMMENT_RE, " ").replace(HTML_TAG_RE, " ").replace(HEX_RE, " ").replace(FENCE_INFO_RE, "$1").replace(EMPTY_FORM_FIELD_RE, "");
}

/** A path of four or more segments, POSIX or Windows (`/home/u/env/lib/site-packages/pkg/mod.py`, `C:\\Users\\u\\x.py`). */
const LONG_PATH_RE = /(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+){4,}/g;
/** Trailing segments of a long path kept as words: the package directory and the file. */
const KEPT_PATH_SEGMENTS = 2;

/**
 * Shortens long paths to their last two segments. A traceback's frames repeat the reporter's
 * directories (`/Users/jane/miniconda3/envs/py3/lib/python3.9/site-packages/`): rare words that
 * name the machine, not the code. The file and its package stay (path hints keep the whole path).
 */
export function shortenPaths(text: string): string {
  return text.replace(LONG_PATH_RE, (p) => p.split(/[\\/]/).slice(-KEPT_PATH_SEGMENTS).join("/"));
}

/** A word of two or three letter-only parts joined by hyphens: `re-writer`, `import-mode`, `run-last-failure`. */
const HYPHENATED_RE = /(?<![\w-])\p{L}{2,}(?:-\p{L}{2,}){1,2}(?![\w-])/gu;

/**
 * The hyphenated words of `text` joined and lowercased (`re-writer` -> `rewriter`,
 * `import-mode` -> `importmode`): reports write a compound the way English does, and code names
 * it as one identifier (`AssertionRewriter`, `ImportMode`). Only for reports: in a question,
 * header names (`Content-Length`) joined pulled other chunks up (docs/experiments/round-07.md).
 */
export function hyphenJoined(text: string): string[] {
  return [...new Set((text.match(HYPHENATED_RE) ?? []).map((w) => w.replace(/-/g, "").toLowerCase()))];
}

/** A file name with a source or config extension, as PATH_RE takes it: `url.ts`, `setup.py`. */
const FILE_NAME_RE = /^[\w-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|md|json|ya?ml|toml|sql|sh)$/;
/** A dotted name: `xarray.core.concat`, `ascii.rst`. */
const DOTTED_NAME_RE = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

/** Pasted output: a fenced code block, a Python REPL prompt, a Python traceback. */
const PASTED_OUTPUT_RE = /```|^\s*>>> |Traceback \(most recent call last\)/m;

/**
 * Whether `raw` is shaped like a bug report rather than a question: it has pasted output
 * (PASTED_OUTPUT_RE) or at least REPORT_MIN_LINES non-blank lines. A short report (a title, a
 * sentence and a REPL session) is as much a report as a long one, while questions, even long
 * ones, are a sentence or two.
 */
export function hasReportShape(raw: string): boolean {
  if (PASTED_OUTPUT_RE.test(raw)) return true;
  return (
    raw
      .trim()
      .split("\n")
      .filter((l) => l.trim()).length >= REPORT_MIN_LINES
  );
}

/** A line of Python that imports (`import numpy as np`, `from a import b as c, d as e`), behind a `>>>` prompt too. */
const IMPORT_LINE_RE = /^[ \t]*(?:>>>[ \t]?|\.\.\.[ \t]?)?(?:from[ \t]+[\w.]+[ \t]+)?import[ \t][^\n]*$/gm;
/** An alias an import binds: `as np`. */
const IMPORT_ALIAS_RE = /\bas[ \t]+([A-Za-z_]\w*)/g;
/**
 * The names a line of Python binds: assignment targets at the line's start (`M1 = ...`,
 * `t1, t2 = ...`, `x: int = ...`, behind `>>>`, `...` or IPython's `In [3]:`) and loop variables
 * (`for m1 in ...`). Group 1: the names, comma-separated.
 */
const BOUND_NAMES_RES = [
  /^[ \t]*(?:>>>[ \t]?|\.\.\.[ \t]?|In \[\d+\]:[ \t]*)?((?:[A-Za-z_]\w*[ \t]*,[ \t]*)*[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm,
  /\bfor[ \t]+\(?((?:[A-Za-z_]\w*[ \t]*,[ \t]*)*[A-Za-z_]\w*)\)?[ \t]+in[ \t]/g,
];
/** A numbered placeholder: up to three letters and a number (`M1`, `t2`, `x10`, `ds2`). */
const PLACEHOLDER_RE = /^[A-Za-z]{1,3}\d+$/;

/**
 * Metasyntactic names: the placeholders of the Jargon File ("foo", "baz", "qux", "quux" ...),
 * Python's documentation ("spam", "eggs") and Japanese usage ("hoge", "fuga", "piyo"). "bar" is
 * one only beside "foo": alone it is an English word (a bar chart).
 */
const METASYNTACTIC = new Set([
  "foo",
  "foobar",
  "baz",
  "qux",
  "quux",
  "corge",
  "grault",
  "garply",
  "waldo",
  "plugh",
  "xyzzy",
  "thud",
  "spam",
  "eggs",
  "hoge",
  "fuga",
  "piyo",
]);

/** A word that may have a METASYNTACTIC part (or "bar"), before it is tokenized. */
const PLACEHOLDER_PART_RE = new RegExp([...METASYNTACTIC, "bar"].join("|"), "i");

/**
 * The placeholder names of a report's code, lowercased: each metasyntactic word (METASYNTACTIC)
 * and every word that has one as a part, joined as tokenization joins it (`test_foo` -> `testfoo`,
 * `FooConfig` -> `fooconfig`; their other parts, `test` and `config`, stay).
 */
function placeholderNames(text: string): Set<string> {
  const out = new Set<string>();
  // Only words that contain a placeholder are tokenized (a report has thousands of words).
  const words = new Set((text.match(/[A-Za-z_]\w*/g) ?? []).filter((w) => PLACEHOLDER_PART_RE.test(w)));
  const parts = new Map([...words].map((w) => [w, tokenize(w)]));
  const hasFoo = [...parts.values()].some((t) => t.includes("foo"));
  const placeholder = (t: string) => METASYNTACTIC.has(t) || (hasFoo && t === "bar");
  for (const toks of parts.values()) {
    if (!toks.some(placeholder)) continue;
    for (const t of toks) if (placeholder(t)) out.add(t);
    if (toks.length > 1) out.add(toks[0]);
  }
  return out;
}

/**
 * The names a report's code binds for itself, lowercased: the aliases it imports modules as
 * (`import sympy as sy`, `import numpy as np`) and the numbered placeholders it assigns or loops
 * over (`M1 = Matrix.zeros(0, 0)`, `t1, t2 = ...`), and its metasyntactic names (`foo`,
 * `test_foo`; placeholderNames). They are the reporter's, and a repo's own
 * `m1` (a quantum number in `wigner.py`) shares the token by chance; a rare one is what term
 * selection picks first. Longer names it assigns may be settings the repo reads
 * (`autodoc_typehints = "description"` in a pasted `conf.py`) and are kept.
 */
export function reporterLocals(text: string): Set<string> {
  const out = placeholderNames(text);
  for (const line of text.match(IMPORT_LINE_RE) ?? []) for (const m of line.matchAll(IMPORT_ALIAS_RE)) out.add(m[1].toLowerCase());
  for (const re of BOUND_NAMES_RES) {
    for (const m of text.matchAll(re)) for (const n of m[1].split(",")) if (PLACEHOLDER_RE.test(n.trim())) out.add(n.trim().toLowerCase());
  }
  return out;
}

/** Exception messages' literal runs and, in a question (a report quotes code and output), quoted ones. */
function phrasesOf(raw: string, isReport: boolean): string[] {
  const messages = messagePhrases(raw);
  if (isReport) return messages;
  const seen = new Set(messages.map((m) => m.toLowerCase()));
  return [...messages, ...quotedPhrases(raw).filter((q) => !seen.has(q.toLowerCase()))].slice(0, MAX_MESSAGE_PHRASES);
}

/** Parses `raw` (markup and environment listings removed first, long paths shortened); never throws. */
export function parseQuery(raw: string): ParsedQuery {
  const full = stripVersions(stripListings(stripMarkup(raw)));
  const text = shortenPaths(full);
  const terms = tokenizeQuery(text);
  const marks = scanCodeMarks(text);
  const words = marks.words.map((w) => w.word);
  const code = codeNames(text, marks);
  // Single prose words, used only for a query of one or two words.
  const prose = words.length <= 2 ? words.filter((w) => w.length >= 2 && !w.includes(".") && !NOT_SYMBOLS.has(w.toLowerCase())) : [];
  // Runs of 2..4 adjacent words joined ("get user by id" -> getuserbyid), not starting or
  // ending with a function word.
  const joined: string[] = [];
  const plain = words.filter((w) => /^\p{L}+$/u.test(w));
  const edgeOk = (w: string) => !NOT_SYMBOLS.has(w.toLowerCase());
  if (words.length <= JOIN_WORDS_MAX_QUERY_WORDS) {
    for (let n = 2; n <= 4; n++) {
      for (let i = 0; i + n <= plain.length; i++) {
        if (edgeOk(plain[i]) && edgeOk(plain[i + n - 1])) joined.push(plain.slice(i, i + n).join(""));
      }
    }
  }
  const isReport = terms.length > LONG_REPORT_TERMS || (terms.length >= MIN_SHAPED_REPORT_TERMS && hasReportShape(raw));
  // A report's own aliases and placeholders (`sy`, `M1`) name nothing of the repo.
  const locals = isReport ? reporterLocals(full) : new Set<string>();
  if (locals.size) terms.splice(0, terms.length, ...terms.filter((t) => !locals.has(t)));
  const joinedCompounds = isReport ? hyphenJoined(text).filter((j) => !terms.includes(j)) : [];
  terms.push(...joinedCompounds);
  const seen = new Set<string>();
  const identifiers: string[] = [];
  // Single prose words ("match", "stream") name too many symbols to be evidence; they stay
  // with BM25. Code-like words and joined runs are specific.
  // A member written with its container is code, whatever its shape (`LineBuffer::fill`).
  const qualified = qualifiedNames(text);
  for (const w of [...code, ...qualified.map((q) => q.name), ...joined, ...prose]) {
    const key = w.toLowerCase();
    if (seen.has(key) || locals.has(key)) continue;
    seen.add(key);
    identifiers.push(w);
    if (identifiers.length >= MAX_SYMBOL_CANDIDATES) break;
  }
  // Dotted module names (`xarray.core.concat`, `org.acme.billing.Invoice`) name files too: as
  // paths without extension (the path channel matches them by their last segments). A report
  // also names modules by two (`ascii.rst`, `printing.pretty`); in a question two are a member
  // of a type (`Context.RoutePattern`), which the qualified stage reads.
  // A file name (`url.ts`, `setup.py`) is a path already, not a module.
  const namesModule = (w: string) => {
    const segments = w.split(".").length;
    return DOTTED_NAME_RE.test(w) && (segments >= 3 || (isReport && !FILE_NAME_RE.test(w)));
  };
  const modules = words.filter(namesModule).map((w) => w.replace(/\./g, "/"));
  const pathHints = [...new Set([...(full.match(PATH_RE) ?? []), ...modules].map((p) => p.toLowerCase().replace(/^\.\//, "")).filter((p) => p.length >= 3))];
  // In a pasted bug report, test words are incidental ("pytest 5.3", "in my test ...") and the
  // fix is in the code; only a question asking about tests includes them.
  // Words, not identifiers' parts: `TestMode` and `TestClient` name code, not tests; a test
  // file's path (`mode_test.go`) asks for tests.
  const mentionsTests = !isReport && (words.some((w) => TEST_WORDS.has(w.toLowerCase())) || pathHints.some((p) => isTestPath(p)));
  const termSet = new Set(terms);
  // A joined compound is evidence of code where the index has it: English spells it apart.
  const codeTerms = [...new Set([...codeEvidenceWords(marks).flatMap((w) => tokenize(w)), ...joinedCompounds])].filter((t) => termSet.has(t));
  const titleNames = isReport ? codeNames(reportTitle(text)).map((n) => n.toLowerCase()) : [];
  const functionWords = isReport
    ? 0
    : new Set(
        text
          .toLowerCase()
          .match(/[a-z]+(?:'[a-z]+)?/g)
          ?.filter((w) => isQueryStopWord(w)),
      ).size;
  return {
    text,
    terms,
    identifiers,
    pathHints,
    mentionsTests,
    isReport,
    codeTerms,
    titleNames,
    frames: parseStackFrames(raw),
    callee: isReport ? signatureCallee(raw) : null,
    optionFlags: optionFlags(full),
    phrases: phrasesOf(raw, isReport),
    qualified,
    receivers: isReport ? receiverMembers(full) : [],
    functionWords,
    spelledNames: isReport ? [] : [...new Set([...code, ...qualified.map((q) => q.name)].map((n) => n.toLowerCase()))],
  };
}
