/**
 * @module worker/search/readers/report-words
 *
 * What only a pasted bug report's text says: its shape (hasReportShape), its title, the members
 * its code uses on objects of the class the title names (receiverMembers), its hyphenated
 * compounds (hyphenJoined) and the names its code binds for itself (reporterLocals). The report
 * reader reads them; the chooser reads the shape. Pure.
 */
import { tokenize } from "../../../indexer/store/contract";
import type { QualifiedName } from "../plan";
import { FILE_NAME_RE } from "./code-marks";
import { REPORT_MIN_LINES } from "../ranking/weights";
import { ruleOn } from "../rules";

/** A report's title: its first non-blank line. */
export function reportTitle(text: string): string {
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
  const out = ruleOn("report.placeholder-names") ? placeholderNames(text) : new Set<string>();
  if (ruleOn("report.import-aliases"))
    for (const line of text.match(IMPORT_LINE_RE) ?? []) for (const m of line.matchAll(IMPORT_ALIAS_RE)) out.add(m[1].toLowerCase());
  for (const re of ruleOn("report.numbered-locals") ? BOUND_NAMES_RES : []) {
    for (const m of text.matchAll(re)) for (const n of m[1].split(",")) if (PLACEHOLDER_RE.test(n.trim())) out.add(n.trim().toLowerCase());
  }
  return out;
}
