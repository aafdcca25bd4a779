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
 * is kept only when it is rare: a run found in more than MAX_MESSAGE_FILES files (or
 * MAX_MESSAGE_CHUNKS chunks) is a phrase of the language, not this program's message. The runtime's own messages (`object has no
 * attribute`, `Cannot read properties of undefined`) never name the repo's code and are not
 * looked up (RUNTIME_MESSAGES). A question's double-quoted phrase is looked up the same way
 * (quotedPhrases): quoting asks for the words as written.
 */
import { isQueryStopWord, tokenize } from "../../indexer/store/contract";
import { SNAPSHOT_JOIN } from "./snapshot-sql";
import { filterSql } from "./filters";
import { applyPrior } from "./prior";
import { MAX_MESSAGE_CHUNKS, MAX_MESSAGE_FILES, MESSAGE_PRIOR, MIN_PHRASE_WORDS } from "./ranking/weights";
import type { SearchFilters } from "./types";

/** Most literal runs looked up per query (longest first). */
export const MAX_MESSAGE_PHRASES = 4;

/**
 * An exception name and its message on one line: a dotted name ending in Error, Exception,
 * Warning, Fault or Failure (Python, JavaScript, Java, C#, PHP), with Node's ` [ERR_X]` code,
 * then `: message`. Whatever comes before the name is a prefix: `Uncaught `, `Uncaught (in
 * promise) `, `Caused by: `, `PHP Fatal error:  Uncaught `, `Exception in thread "main" `, a
 * log line's timestamp and level, pytest's `E   `. Go's `panic: ` starts its line.
 */
const EXCEPTION_RE = /(?:^|[\s([>])(?:[A-Za-z_][\w$]*(?:\.|::|\\))*[\w$]*(?:Error|Exception|Warning|Fault|Failure)(?: ?\[[^\]]*\])?:[ \t]+(.+)$/;
const PANIC_RE = /^[ \t]*panic:[ \t]+(.+)$/;

/** Characters of a line read for an exception message: a message's literal is near its start, and the patterns stay linear-time. */
export const MAX_MESSAGE_LINE_CHARS = 1000;

/** Interpolated parts of a message: quoted or bracketed values, reprs, numbers, paths, code. */
const INTERPOLATED_RE =
  /(?<!\p{L})'[^'\n]*'|(?<!\p{L})‘[^’\n]*’|"[^"\n]*"|`[^`\n]*`|“[^”\n]*”|\([^)\n]*\)|\[[^\]\n]*\]|\{[^}\n]*\}|<[^>\n]*>|\S*[/\\=]\S*|\S*\w[.:]+\w\S*|\S*\d\S*/gu;

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
  "too many values to unpack",
  "not enough values to unpack",
  "maximum recursion depth exceeded",
  "out of bounds for length",
  "slice bounds out of range",
  "send on closed channel",
  "integer divide by zero",
  "unexpected end of json input",
  "cannot be cast to class",
].map((m) => tokenize(m).join(" "));

/**
 * The literal runs of the exception messages in `text` (see the module note): each at least
 * MIN_PHRASE_WORDS words, as written (trimmed of edge punctuation), longest first, deduplicated
 * case-insensitively, at most MAX_MESSAGE_PHRASES. Runs that are or contain a runtime message
 * are dropped. Linear in the text.
 */
export function messagePhrases(text: string): string[] {
  const messages: string[] = [];
  for (const line of text.split("\n")) {
    const head = line.slice(0, MAX_MESSAGE_LINE_CHARS);
    const m = EXCEPTION_RE.exec(head) ?? PANIC_RE.exec(head);
    if (!m) continue;
    // PHP ends a message with its location (` in /app/src/x.php:12`); Python quotes a KeyError's.
    const message = m[1].replace(/ in \S+:\d+\s*$/, "").trim();
    messages.push(/^(['"])(.*)\1$/.exec(message)?.[2] ?? message);
  }
  // The last exception of a log is the one that ended it (the earlier ones were handled or retried).
  return literalRuns(messages.reverse());
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

/**
 * The literal runs of `messages` (module note), each message's longest first, in the order of
 * `messages`, deduplicated by their tokens, at most MAX_MESSAGE_PHRASES. A run needs two words
 * that are not stop words (`but it was` says nothing about the program).
 */
function literalRuns(messages: string[]): string[] {
  const runs = new Map<string, string>();
  for (const message of messages) {
    const found: { key: string; run: string; words: number }[] = [];
    for (const part of message.replace(INTERPOLATED_RE, "|").split(/[^\p{L}\s,;'’_-]+/u)) {
      const run = part.replace(/^[\s,;'’-]+|[\s,;'’-]+$/g, "");
      const words = tokenize(run);
      if (words.length < MIN_PHRASE_WORDS || words.filter((w) => !isQueryStopWord(w)).length < 2) continue;
      const key = words.join(" ");
      if (!RUNTIME_MESSAGES.some((r) => key.includes(r))) found.push({ key, run, words: words.length });
    }
    for (const f of found.sort((a, b) => b.words - a.words)) if (!runs.has(f.key)) runs.set(f.key, f.run);
  }
  return [...runs.values()].slice(0, MAX_MESSAGE_PHRASES);
}

/** The FTS5 query for a literal run: its index tokens as one phrase in the body column. */
export function phraseExpression(run: string): string {
  return `body : "${tokenize(run).join(" ")}"`;
}

/**
 * The files of `repo`'s snapshot `commit` whose code holds one of `phrases`, as a map from
 * file (`repo\0path`) to its first matching chunk id, read in one D1 batch (a statement per
 * phrase). A phrase found in more than MAX_MESSAGE_FILES files or MAX_MESSAGE_CHUNKS chunks
 * gives nothing; prose files (Markdown, text) quote messages without raising them and are not
 * read, nor are files the filters exclude.
 */
export async function messageFiles(db: D1Database, repo: string, commit: string, phrases: string[], filters: SearchFilters): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!phrases.length) return out;
  const f = filterSql(filters);
  const results = await db.batch<{ id: string; path: string }>(
    phrases.map((p) =>
      db
        .prepare(
          `SELECT c.id AS id, c.path AS path FROM chunks_fts CROSS JOIN chunks c ON c.rowid = chunks_fts.rowid ${SNAPSHOT_JOIN} ` +
            `WHERE chunks_fts MATCH ? AND c.repo = ? AND c.language NOT IN ('markdown', 'text')${f.sql} LIMIT ${MAX_MESSAGE_CHUNKS + 1}`,
        )
        .bind(commit, phraseExpression(p), repo, ...f.params),
    ),
  );
  for (const r of results) {
    if (r.results.length > MAX_MESSAGE_CHUNKS || new Set(r.results.map((row) => row.path)).size > MAX_MESSAGE_FILES) continue;
    for (const row of r.results) {
      const file = `${repo}\0${row.path}`;
      if (!out.has(file)) out.set(file, row.id);
    }
  }
  return out;
}

/**
 * Multiplies by MESSAGE_PRIOR the scores of candidates whose file (`fileOf`) is in `files`, and
 * once more those of the raising chunks themselves (`raising`, chunk ids: the message is raised
 * there, not in the file's other functions), and re-sorts best first (ties: input order).
 * Returns a new array (the input when `files` is empty). As the trace prior treats the chunk
 * where a trace surfaced (worker/search/stack-trace.ts).
 */
export function applyMessagePrior<T extends { score: number; chunkId: string }>(
  candidates: T[],
  files: ReadonlySet<string>,
  fileOf: (c: T) => string,
  raising: ReadonlySet<string> = new Set(),
): T[] {
  if (!files.size) return candidates;
  return applyPrior(candidates, (c) => (files.has(fileOf(c)) ? MESSAGE_PRIOR : 1) * (raising.has(c.chunkId) ? MESSAGE_PRIOR : 1));
}
