/**
 * @module worker/search/readers/reading
 *
 * What every reader reads the same way: the cleaned text and its terms and code marks
 * (readText, before any reader is chosen), and the words the channels look up (readWords),
 * given the few choices a reader makes about them (names the text binds for itself, joined
 * compounds, whether two-part dotted names name modules). Pure.
 */
import { tokenize, tokenizeQuery } from "../../../indexer/store/contract";
import { optionFlags } from "../option-flags";
import type { QualifiedName } from "../plan";
import { parseStackFrames, type StackFrame } from "../stack-frames";
import { shortenPaths, stripListings, stripMarkup } from "./clean";
import {
  codeEvidenceWords,
  codeNames,
  FILE_NAME_RE,
  MAX_SYMBOL_CANDIDATES,
  NOT_SYMBOLS,
  PATH_RE,
  qualifiedNames,
  scanCodeMarks,
  type CodeMarks,
} from "./code-marks";

/** Queries with at most this many words also try adjacent words joined as identifiers. */
const JOIN_WORDS_MAX_QUERY_WORDS = 16;
/** A dotted name: `xarray.core.concat`, `ascii.rst`. */
const DOTTED_NAME_RE = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;

/** A query text as every reader sees it, before one is chosen. */
export interface TextFacts {
  /** The text as searched (issue-template lines already removed). */
  raw: string;
  /** Markup and listings removed (stripMarkup, stripListings). */
  full: string;
  /** `full` with long paths shortened (shortenPaths). */
  text: string;
  /** Query-side tokens of `text` (tokenizeQuery), before a reader drops any. */
  terms: string[];
  marks: CodeMarks;
  /** The words of `text`, dotted names whole. */
  words: string[];
  /** The names `text` marks as code (codeNames), its first line's first. */
  code: string[];
  /** Members written with their container (qualifiedNames). */
  qualified: QualifiedName[];
}

/** Cleans `raw` and finds its terms, words and code marks; never throws. */
export function readText(raw: string): TextFacts {
  const full = stripListings(stripMarkup(raw));
  const text = shortenPaths(full);
  const terms = tokenizeQuery(text);
  const marks = scanCodeMarks(text);
  return { raw, full, text, terms, marks, words: marks.words.map((w) => w.word), code: codeNames(text, marks), qualified: qualifiedNames(text) };
}

/** A reader's choices about the words: what it drops, joins and reads as a module. */
export interface WordChoices {
  /** Lowercased names the text binds for itself (reporterLocals), dropped from terms and identifiers. */
  locals: ReadonlySet<string>;
  /** Joined compounds to add as terms (hyphenJoined), given the terms left after `locals`. */
  compounds: (terms: string[]) => string[];
  /** Whether a dotted name of two parts (`ascii.rst`, `printing.pretty`) names a module, not a member. */
  twoPartModules: boolean;
}

/** The words the channels look up, as `choices` read them. */
export interface Words {
  terms: string[];
  identifiers: string[];
  pathHints: string[];
  codeTerms: string[];
  frames: StackFrame[];
  optionFlags: string[];
}

/** Reads the words of `f` the channels look up, with a reader's `choices`. */
export function readWords(f: TextFacts, choices: WordChoices): Words {
  const { words, locals } = { words: f.words, locals: choices.locals };
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
  // A reader's own aliases and placeholders (`sy`, `M1`) name nothing of the repo.
  const terms = locals.size ? f.terms.filter((t) => !locals.has(t)) : [...f.terms];
  const joinedCompounds = choices.compounds(terms);
  terms.push(...joinedCompounds);
  const seen = new Set<string>();
  const identifiers: string[] = [];
  // Single prose words ("match", "stream") name too many symbols to be evidence; they stay
  // with BM25. Code-like words and joined runs are specific.
  // A member written with its container is code, whatever its shape (`LineBuffer::fill`).
  for (const w of [...f.code, ...f.qualified.map((q) => q.name), ...joined, ...prose]) {
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
    return DOTTED_NAME_RE.test(w) && (segments >= 3 || (choices.twoPartModules && !FILE_NAME_RE.test(w)));
  };
  const modules = words.filter(namesModule).map((w) => w.replace(/\./g, "/"));
  const pathHints = [...new Set([...(f.full.match(PATH_RE) ?? []), ...modules].map((p) => p.toLowerCase().replace(/^\.\//, "")).filter((p) => p.length >= 3))];
  const termSet = new Set(terms);
  // A joined compound is evidence of code where the index has it: English spells it apart.
  const codeTerms = [...new Set([...codeEvidenceWords(f.marks).flatMap((w) => tokenize(w)), ...joinedCompounds])].filter((t) => termSet.has(t));
  return { terms, identifiers, pathHints, codeTerms, frames: parseStackFrames(f.raw), optionFlags: optionFlags(f.full) };
}

/**
 * Occurrences of each of `terms` in `text` (tokenizeQuery deduplicates); a multi-line text's
 * first line is its title and says what matters, so its terms count twice more.
 */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const tokens = tokenize(text);
  for (const t of tokenizeQuery(text, tokens)) counts.set(t, 0);
  for (const t of tokens) if (counts.has(t)) counts.set(t, counts.get(t)! + 1);
  const title = text.trimStart().split("\n", 1)[0];
  if (title.length < text.trim().length) for (const t of tokenize(title)) if (counts.has(t)) counts.set(t, counts.get(t)! + 2);
  return counts;
}
