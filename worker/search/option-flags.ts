/**
 * @module worker/search/option-flags
 *
 * Command-line options named in a query (`pytest --fixtures`, `--collect-only`), and the prior
 * they give the file that defines them. An option is defined once, where the program declares
 * it (`parser.addoption("--fixtures", ...)`, `add_argument("--verbose")`,
 * `.option("-c, --collect-only")`), and that file holds the code the option switches on; its
 * words ("fixtures", "collect", "only") are common, so BM25 alone spreads them over every file
 * that mentions fixtures. The lookup reads only chunks containing the option's words (FTS5)
 * whose text holds the option literally (`instr`), and keeps those where it is an argument of a
 * declaring call (DECLARE_RE), not a use (`inline_run("--collect-only")`).
 */
import { tokenize } from "../../indexer/store/contract";
import { filterSql } from "./filters";
import type { SearchFilters } from "./types";
import { CHUNK_CONTENT, CHUNK_FILE_JOIN, SNAPSHOT_JOIN } from "./snapshot-sql";
import { applyPrior } from "./prior";
import { OPTION_PRIOR } from "./ranking/weights";

/** Most options looked up per query. */
export const MAX_OPTION_FLAGS = 8;

/** Chunks read per option: declarations are few; more means the words are everywhere. */
const ROWS_PER_OPTION = 50;

/** `--name` with letters, digits and inner hyphens, not part of a longer token (`a--b`, `---`). */
const FLAG_RE = /(?<![\w-])--([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)(?![\w-])/g;

/** A line opening or closing a fenced code block (Markdown ``` or ~~~). */
const FENCE_RE = /^[ \t]{0,3}(```|~~~)/;

/** `text` without the lines of fenced code blocks (an unclosed fence runs to the end). Linear in the text. */
function withoutFencedBlocks(text: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const m = FENCE_RE.exec(line);
    if (fence) {
      if (m && m[1] === fence) fence = null;
    } else if (m && !(line.trimEnd().length > 3 + line.indexOf(m[1]) && line.trimEnd().endsWith(m[1]))) {
      fence = m[1]; // an opening fence; a line that also ends with it is inline code (```x --flag```)
    } else {
      kept.push(line);
    }
  }
  return kept.join("\n");
}

/**
 * The long options (`--collect-only`, `--outputFile`) the text talks about: written in its
 * prose, title or inline code, not inside fenced code blocks, where a report pastes the
 * commands that reproduce it (`sphinx-quickstart --no-sep --project p --author me`) and their
 * options name the tool's whole command line, not the subject. As written (options are
 * case-sensitive), in order of appearance, deduplicated, at most MAX_OPTION_FLAGS; a name of
 * one character is not taken (`--x`).
 */
export function optionFlags(text: string): string[] {
  const out = new Set<string>();
  for (const m of withoutFencedBlocks(text).matchAll(FLAG_RE)) {
    if (m[1].length < 2) continue;
    out.add(`--${m[1]}`);
    if (out.size >= MAX_OPTION_FLAGS) break;
  }
  return [...out];
}

/** Calls that declare options: argparse/optparse, pytest's `addoption` and `_addoption`, commander/yargs `option`, click's `option`. */
const DECLARE_CALL = String.raw`(?<![A-Za-z0-9])_*(?:add_?option|add_?argument|addoption|option|Option|flag|Flag)\s*\(`;
/** String arguments before the option (`"-c", `, `'-v', `) within one call. */
const LEADING_STRINGS = String.raw`(?:\s*["'][^"'\n]*["']\s*,)*\s*`;

/**
 * SQL prefilter for DECLARE_CALL (LIKE is case-insensitive for ASCII): uses of an option in
 * tests outnumber its declaration. Docs (`.md`, `.rst`, text) show example declarations, not the program's.
 */
const DECLARING_WORDS_SQL = `(${CHUNK_CONTENT} LIKE '%option%' OR ${CHUNK_CONTENT} LIKE '%argument%' OR ${CHUNK_CONTENT} LIKE '%flag%') AND c.language NOT IN ('markdown', 'text')`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `content` declares `flag` (as `--name`): the flag is one of the leading string
 * arguments of a declaring call, alone (`"--fixtures"`) or with its short form and argument
 * (`"-c, --collect-only <n>"`).
 */
export function declaresOption(content: string, flag: string): boolean {
  const literal = String.raw`["'](?:-\w,\s*)?${escape(flag)}(?:[ =<\[][^"'\n]*)?["']`;
  return new RegExp(DECLARE_CALL + LEADING_STRINGS + literal).test(content);
}

/**
 * The files of `repo`'s snapshot `commit` that declare one of `flags`, as a map from file
 * (`repo\0path`) to the id of its first declaring chunk, read in one D1 batch (a statement per
 * flag). Files the filters exclude are not read.
 */
export async function optionDeclarationFiles(
  db: D1Database,
  repo: string,
  commit: string,
  flags: string[],
  filters: SearchFilters,
): Promise<Map<string, string>> {
  const f = filterSql(filters);
  const lookups = flags
    .map((flag) => ({ flag, words: tokenize(flag.slice(2)) }))
    .filter(({ words }) => words.length > 0)
    .map(({ flag, words }) => ({
      flag,
      statement: db
        .prepare(
          `SELECT c.id AS id, c.path AS path, ${CHUNK_CONTENT} AS content FROM chunks_fts CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid ${SNAPSHOT_JOIN} ${CHUNK_FILE_JOIN} ` +
            `WHERE chunks_fts MATCH ? AND c.repo = ? AND instr(${CHUNK_CONTENT}, ?) > 0 AND ${DECLARING_WORDS_SQL}${f.sql} LIMIT ${ROWS_PER_OPTION}`,
        )
        .bind(commit, words.map((w) => `"${w}"`).join(" AND "), repo, flag, ...f.params),
    }));
  const out = new Map<string, string>();
  if (!lookups.length) return out;
  const results = await db.batch<{ id: string; path: string; content: string }>(lookups.map((l) => l.statement));
  results.forEach((r, i) => {
    for (const row of r.results) {
      const file = `${repo}\0${row.path}`;
      if (!out.has(file) && declaresOption(row.content, lookups[i].flag)) out.set(file, row.id);
    }
  });
  return out;
}

/**
 * Multiplies by OPTION_PRIOR the scores of candidates whose file (`fileOf`) is in `files`, and
 * re-sorts best first (ties: input order). Returns a new array (the input when `files` is empty).
 */
export function applyOptionPrior<T extends { score: number }>(candidates: T[], files: ReadonlySet<string>, fileOf: (c: T) => string): T[] {
  if (!files.size) return candidates;
  return applyPrior(candidates, (c) => (files.has(fileOf(c)) ? OPTION_PRIOR : 1));
}
