/**
 * @module worker/search/readers/clean
 *
 * What a pasted text carries besides its words, removed before any reader reads it: markup
 * (stripMarkup), package listings, interpreter banners and test-run framing (stripListings) and
 * long paths' machine-specific folders (shortenPaths). Pure
 * (each rule can be switched off for an evaluation: worker/search/rules.ts).
 */
import { ruleOn } from "../rules";

/** `name==1.2.3`, `name-1.2.3`, `name>=1.2`, `name@1.2.3`: an installed package with its version. */
const VERSIONED_NAME_RE = /^[A-Za-z][\w.\-[\]]*(?:==|>=|<=|~=|-|@)v?\d+(?:\.\w+)+[\w.+-]*,?$/;
/** A bare version: `1.2.3`, `v0.13.1`, `6.0.0rc0`, `2019.3.9`. */
const VERSION_RE = /^v?\d+(?:\.\w+)+[\w.+-]*$/;
/** A `pip list` / `conda list` / `npm ls` row: a name, a version, maybe a build or location. */
const LISTING_ROW_RE = /^\s*[-|`+\\ ]*@?[A-Za-z][\w.\-[\]/@]*\s+v?\d+(?:\.\w+)+[\w.+-]*(?:\s+\S+){0,2}\s*$/;
/** Consecutive listing rows needed before they are dropped (a lone "pytest 6.0" stays). */
const MIN_LISTING_RUN = 3;

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
 * ("Successfully installed ..."), interpreter banners and a test run's
 * framing (its session header and section rules). They name
 * the reporter's machine, not the code; their names are rare in the index, so IDF term selection
 * would otherwise pick them over the report's words, and common ones (`python`, `interactive`,
 * `help`) match the repo's own REPL or CLI code.
 */
export function stripListings(text: string): string {
  const lines = text.split(/\r?\n/);
  const listings = ruleOn("clean.listing");
  const drop = lines.map((l) => listings && isVersionedLine(l));
  let run = 0;
  for (let i = 0; listings && i <= lines.length; i++) {
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
  if (ruleOn("clean.banner")) dropInterpreterBanners(lines, drop);
  if (ruleOn("clean.test-session")) dropTestRunFraming(lines, drop);
  return drop.some(Boolean) ? lines.filter((_, i) => !drop[i]).join("\n") : text;
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
  if (!ruleOn("clean.markup")) return text;
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
  if (!ruleOn("clean.long-path")) return text;
  return text.replace(LONG_PATH_RE, (p) => p.split(/[\\/]/).slice(-KEPT_PATH_SEGMENTS).join("/"));
}
