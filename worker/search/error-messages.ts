/**
 * @module worker/search/error-messages
 *
 * Exception messages pasted in a query (`ValueError: Imaginary coordinates are not permitted.`),
 * and the prior they give the file whose code raises them. A message is written once, as a
 * string literal where the program raises it, and that chunk is where a report's trouble starts
 * even when the trace does not reach it (no trace pasted, or a trace cut at the library's
 * boundary). Its words are common ("coordinates", "permitted"), so BM25 alone spreads them
 * over every file that uses them; as a phrase they name the raise site.
 *
 * A message's literal parts are the runs of plain words between its interpolated values
 * (quoted names, numbers, reprs, brackets): `Expecting sequence of coordinates, not `Point2D``
 * gives `Expecting sequence of coordinates, not`. Each run is looked up as an FTS5 phrase over
 * the chunk bodies (tokens, so a literal split over lines or concatenated still matches), and
 * is kept only when it is rare: a run found in more than MAX_MESSAGE_CHUNKS chunks is a phrase
 * of the language, not this program's message. The runtime's own messages (`object has no
 * attribute`, `Cannot read properties of undefined`) never name the repo's code and are not
 * looked up (RUNTIME_MESSAGES). A question's double-quoted phrase is looked up the same way
 * (quotedPhrases): quoting asks for the words as written.
 */
import { tokenize } from "../../indexer/store/contract";
import { SNAPSHOT_JOIN } from "./channels/scope";
import { filterSql } from "./filters";
import { applyPrior } from "./prior";
import type { SearchFilters } from "./types";

/** Most literal runs looked up per query (longest first). */
export const MAX_MESSAGE_PHRASES = 4;
/** Fewest words in a literal run: two common words are no address. */
export const MIN_PHRASE_WORDS = 3;
/** A run found in more chunks than this is not one program's message. */
export const MAX_MESSAGE_CHUNKS = 3;

/**
 * Multiplier of the scores of the chunks of a file whose code holds a pasted message, as
 * OPTION_PRIOR for a declared option (worker/search/option-flags.ts): the literal names the file
 * as surely as a declaration does.
 */
export const MESSAGE_PRIOR = 2;

/**
 * An exception line: a dotted name ending in Error, Exception, Warning, Fault or Failure (Python,
 * JavaScript, Java, C#, PHP, Ruby's `(Foo::BarError)` aside), or Go's `panic:`, then `: message`.
 * The name may follow `Uncaught `, `Unhandled exception. `, `Fatal error: `, Java's
 * `Exception in thread "main" ` and a trace's `E   ` prefix (pytest).
 */
const EXCEPTION_LINE_RE =
  /^[ \t>E]*(?:Uncaught |Unhandled exception\. |Fatal error: |Exception in thread "[^"\n]*" )*(?:(?:[A-Za-z_][\w$]*[.:\\]{1,2})*[\w$]*(?:Error|Exception|Warning|Fault|Failure)|panic)(?:\[[^\]\n]*\])?:[ \t]+(.+)$/gm;

/** Interpolated parts of a message: quoted or bracketed values, reprs, numbers, paths, code. */
const INTERPOLATED_RE = /(?<!\p{L})'[^'\n]*'|(?<!\p{L})‘[^’\n]*’|"[^"\n]*"|`[^`\n]*`|“[^”\n]*”|\([^)\n]*\)|\[[^\]\n]*\]|\{[^}\n]*\}|<[^>\n]*>|\S*[/\\=]\S*|\S*\w[.:]+\w\S*|\S*\d\S*/gu;

/** Runtime messages (CPython, V8, Ruby, Go, the JVM, .NET) that occur in any program's output, as index tokens. */
const RUNTIME_MESSAGES = [
  "object has no attribute",
  "is not defined",
  "index out of range",
  "object is not subscriptable",
  "object is not iterable",
  "object is not callable",
  "unsupported operand type",
  "not supported between instances of",
  "got an unexpected keyword argument",
  "positional argument",
  "missing required positional argument",
  "cannot read properties of undefined",
  "cannot read properties of null",
  "is not a function",
  "is not a constructor",
  "maximum call stack size exceeded",
  "object reference not set to an instance of an object",
  "a task was canceled",
  "key not found",
  "no such file or directory",
  "permission denied",
  "connection refused",
  "division by zero",
  "undefined local variable or method",
  "undefined method",
  "wrong number of arguments",
  "uninitialized constant",
  "stack level too deep",
  "no implicit conversion of",
  "assignment to entry in nil map",
  "invalid memory address or nil pointer dereference",
  "sequence contains no elements",
  "value cannot be null",
  "is not iterable",
  "unexpected token",
  "can only concatenate",
  "must be str not",
].map((m) => tokenize(m).join(" "));

/**
 * The literal runs of the exception messages in `text` (see the module note): each at least
 * MIN_PHRASE_WORDS words, as written (trimmed of edge punctuation), longest first, deduplicated
 * case-insensitively, at most MAX_MESSAGE_PHRASES. Runs that are or contain a runtime message
 * are dropped. Linear in the text.
 */
export function messagePhrases(text: string): string[] {
  // PHP ends a message with its location (` in /app/src/x.php:12`), not part of the literal.
  return literalRuns([...text.matchAll(EXCEPTION_LINE_RE)].map((m) => m[1].replace(/ in \S+:\d+\s*$/, "")));
}

/** A double-quoted phrase (straight or curly quotes) on one line. */
const QUOTED_RE = /"([^"\n]+)"|“([^”\n]+)”/g;

/**
 * The literal runs of the double-quoted phrases of a question (`where is "Imaginary coordinates
 * are not permitted" raised`): quoting asks for the words as written, as in grep or a code
 * host's exact-match search. Same runs, limits and order as messagePhrases.
 */
export function quotedPhrases(text: string): string[] {
  return literalRuns([...text.matchAll(QUOTED_RE)].map((m) => m[1] ?? m[2]));
}

/** The literal runs of `messages` (module note), longest first, deduplicated by their tokens, at most MAX_MESSAGE_PHRASES. */
function literalRuns(messages: string[]): string[] {
  const runs = new Map<string, string>();
  for (const message of messages) {
    for (const part of message.replace(INTERPOLATED_RE, "|").split(/[^\p{L}\s,;'’_-]+/u)) {
      const run = part.replace(/^[\s,;'’-]+|[\s,;'’-]+$/g, "");
      const words = tokenize(run);
      if (words.length < MIN_PHRASE_WORDS) continue;
      const key = words.join(" ");
      if (RUNTIME_MESSAGES.some((r) => key.includes(r))) continue;
      if (!runs.has(key)) runs.set(key, run);
    }
  }
  return [...runs.values()].sort((a, b) => tokenize(b).length - tokenize(a).length).slice(0, MAX_MESSAGE_PHRASES);
}

/** The FTS5 query for a literal run: its index tokens as one phrase in the body column. */
export function phraseExpression(run: string): string {
  return `body : "${tokenize(run).join(" ")}"`;
}

/**
 * The files of `repo`'s snapshot `commit` whose code holds one of `phrases`, as a map from
 * file (`repo\0path`) to its first matching chunk id, read in one D1 batch (a statement per
 * phrase). A phrase found in more than MAX_MESSAGE_CHUNKS chunks gives nothing; prose files
 * (Markdown, text) quote messages without raising them and are not read, nor are files the
 * filters exclude.
 */
export async function messageFiles(db: D1Database, repo: string, commit: string, phrases: string[], filters: SearchFilters): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!phrases.length) return out;
  const f = filterSql(filters);
  const results = await db.batch<{ id: string; path: string }>(
    phrases.map((p) =>
      db
        .prepare(
          `SELECT c.id AS id, c.path AS path FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid ${SNAPSHOT_JOIN} ` +
            `WHERE chunks_fts MATCH ? AND c.repo = ? AND c.language NOT IN ('markdown', 'text')${f.sql} LIMIT ${MAX_MESSAGE_CHUNKS + 1}`,
        )
        .bind(commit, phraseExpression(p), repo, ...f.params),
    ),
  );
  for (const r of results) {
    if (r.results.length > MAX_MESSAGE_CHUNKS) continue;
    for (const row of r.results) {
      const file = `${repo}\0${row.path}`;
      if (!out.has(file)) out.set(file, row.id);
    }
  }
  return out;
}

/**
 * Multiplies by MESSAGE_PRIOR the scores of candidates whose file (`fileOf`) is in `files`, and
 * re-sorts best first (ties: input order). Returns a new array (the input when `files` is empty).
 */
export function applyMessagePrior<T extends { score: number }>(candidates: T[], files: ReadonlySet<string>, fileOf: (c: T) => string): T[] {
  if (!files.size) return candidates;
  return applyPrior(candidates, (c) => (files.has(fileOf(c)) ? MESSAGE_PRIOR : 1));
}
