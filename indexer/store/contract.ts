/**
 * @module indexer/store/contract
 *
 * The storage contract between the index side (`indexer/`, `durable-objects/`) and the query
 * side (`worker/search/`, `worker/services/`). The two sides import this module and never each
 * other. It holds the record shapes written to D1 (migrations/0001_init.sql), the id formats,
 * the ports for platform services, and the format versions.
 *
 * Changelog of CHUNK_FORMAT_VERSION:
 *   1: tree-sitter chunks with a context header in the indexed text; ids from SHA-1.
 *   2: the tokenizer also emits a letter run joined with the digits after it (`v2`, `http2`).
 *   3: Ruby `class << self` defs are methods of the enclosing class; Java enum members are split
 *      out like a class's (enum constants with a body are classes); well-formed definitions
 *      inside ERROR nodes are chunked (a C file no longer falls back to windows for one bad head).
 *   4: enum members are `constant` symbols: Java constants without a body (their lines stay in
 *      the enum's header chunk), TypeScript, C# and C/C++ members, Rust variants, PHP cases
 *      (chunks unchanged); a C function whose head `#if`/`#else` split in two starts at the
 *      `#if` (chunk and symbol hold both heads).
 *   5: JavaScript/TypeScript definitions by assignment are chunks and symbols: `X.prototype.m =
 *      function` (method `m` of `X`), `app.m = function`, `exports.f = () => {}`,
 *      `module.exports = function f`, `X.prototype = { m() {} }`, a named function passed to a
 *      module-level call (`defineGetter(req, 'ip', function ip() {})`); a chain's other targets
 *      and a function's own name are extra symbols (`res.type`, `contentType`); a JSDoc block
 *      (`/**`) one blank line above a function, method or class belongs to it (chunk and
 *      symbol doc), unless it opens the file.
 *      A `.h` file whose text reads as C++ (linguist's rules) is parsed and stored as `cpp`;
 *      C++ names drop template arguments (`parse_context<Char>::check` is `check` in
 *      `parse_context`), `X::X` outside the class is a constructor; C++ is parsed with lone
 *      macro lines (`FMT_BEGIN_NAMESPACE`) commented out.
 *   6: Go `const` / `var` declarations make a symbol of every name: each spec of a
 *      `const ( .. )` / `var ( .. )` group with its own line and signature (doc: its comment,
 *      else the group's), replacing one symbol named after the first spec spanning the block;
 *      `const A, B = 1, 2` makes A and B; `_` makes none. A group stays one chunk named after
 *      its first name (a `var ( .. )` group's chunk was unnamed).
 *   7: C and C++ are parsed with attribute-like macros blanked (`class FMT_API format_error`,
 *      `FMT_CONSTEXPR20 basic_memory_buffer(..)`, `static REDIS_INLINE int`, `void f()
 *      FMT_NOEXCEPT {`, `FMT_ENABLE_IF(..)` template parameters), or as before when that
 *      parses worse; signatures are read from the file's text, so they keep the macros.
 *   8: a signature ends before a comment between the head and the body (Ruby's `def f(x)`
 *      followed by a `# ...` line carried that comment).
 *   9: a line of chunk code longer than MAX_INDEXED_LINE_CHARS is indexed by its head only
 *      (chunkIndexText), so one minified or inlined-data line cannot swamp BM25's document
 *      length; chunks carry `token_count` and `chunk_terms` postings, and every activated
 *      snapshot `snapshot_terms` / `snapshot_stats` (migrations/0007), from which BM25 reads
 *      per-snapshot statistics (chunkPostings).
 *  10: compact storage (issue #45, migrations/0025): a chunk's code is a range of `files.text`
 *      (`chunks.text_from`, `text_len`, in code points; `content` is ''), BM25 reads term
 *      frequencies from `chunks_fts` (`chunks_fts_instance`) instead of `chunk_terms`, and a
 *      snapshot's document frequencies are summed from its files' `file_terms` rows. Chunks,
 *      symbols and indexed text unchanged.
 */

import { takeTokens } from "./token-stash";
import { tokenize } from "./tokenize";

export { isQueryStopWord, tokenize, tokenizeQuery } from "./tokenize";
export { stem } from "./stem";
export { tokenizeKept } from "./token-stash";

/**
 * Format of the grep trigram index (`grep_docs` + `grep_trigrams`, migrations/0008): what text
 * is indexed and how. A reader uses the trigram postings only of `grep_docs` rows whose
 * `format` equals this; other files are verified by scanning (so a bump never loses a match,
 * it only costs speed until the files are re-indexed).
 *
 * Changelog of GREP_FORMAT_VERSION:
 *   1: the whole file text (`files.text`) through FTS5's `trigram` tokenizer, case-folded
 *      (`case_sensitive 0`), `detail=none`; one row per file version, rowid = `grep_docs.rowid`.
 */
export const GREP_FORMAT_VERSION = 1;

/** Bump when chunk boundaries, indexed text, symbols or ids change; old rows are then rebuilt. */
export const CHUNK_FORMAT_VERSION = 10;

/** Kinds of chunk a chunker emits. `window` is a line window of a file without a grammar. */
export type ChunkKind = "function" | "method" | "constructor" | "class" | "interface" | "struct" | "trait" | "enum" | "type" | "module" | "section" | "window";

/** One chunk of a file as a chunker returns it. Lines are 1-based and inclusive. */
export interface Chunk {
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  /** Name of the defining symbol (function, class ...), absent for module blocks and windows. */
  symbol?: string;
  /** Enclosing class, impl, namespace or module, e.g. `UserService`. */
  container?: string;
  /** First line(s) of the definition, up to the body, e.g. `function getUser(id: string): User`. */
  signature?: string;
  /** Original code of lines startLine..endLine, exactly as in the file. */
  content: string;
}

/** A definition for the symbol table. Lines are 1-based and inclusive. */
export interface SymbolDef {
  name: string;
  kind: ChunkKind | "field" | "variable" | "constant";
  container?: string;
  signature?: string;
  doc?: string;
  startLine: number;
  endLine: number;
}

/** What a chunker returns for one file. */
export interface ChunkedFile {
  language: string;
  chunks: Chunk[];
  symbols: SymbolDef[];
  /** Import / include / use statements, one per entry, for the file outline. */
  imports: string[];
}

/** A chunk row as stored in D1 `chunks` (plus its FTS row). */
export interface ChunkRecord extends Chunk {
  id: string;
  repo: string;
  fileId: string;
  path: string;
  language: string;
}

/**
 * The text indexed for a chunk (BM25 body and embedding input): a short context header naming
 * the path, container and symbol, then the code. Search returns `content`, never this text.
 */
export function chunkIndexText(path: string, chunk: Chunk): string {
  const head = [path, chunk.container, chunk.symbol].filter(Boolean).join(" ");
  return `${head}\n${boundLongLines(chunk.content)}`;
}

/**
 * Characters of one line that are indexed; the rest of a longer line is left out of the indexed
 * text (never out of the chunk's `content`). A 20,000-character line (an inlined SVG, a minified
 * bundle, a data table) otherwise adds thousands of tokens to the chunk's BM25 length, and its
 * own symbol's name no longer ranks it. 1,000 characters hold ten ordinary 100-column lines,
 * more than any hand-written line, so only generated lines are cut.
 */
export const MAX_INDEXED_LINE_CHARS = 1_000;

/** `text` with every line longer than MAX_INDEXED_LINE_CHARS cut to that many characters. */
export function boundLongLines(text: string): string {
  if (text.length <= MAX_INDEXED_LINE_CHARS) return text;
  return text
    .split("\n")
    .map((line) => (line.length > MAX_INDEXED_LINE_CHARS ? line.slice(0, MAX_INDEXED_LINE_CHARS) : line))
    .join("\n");
}

/** BM25 postings of one chunk: each distinct term's frequency per column, and the token count. */
export interface ChunkPostings {
  /** term -> [symbol, path, body] frequencies. */
  terms: Map<string, [number, number, number]>;
  /** Tokens over the three columns: BM25's document length. */
  tokenCount: number;
}

/**
 * The BM25 columns of a chunk as token lists, the form written to `chunks_fts` (space-joined) and
 * counted into `chunk_terms`: symbol (symbol and container), path, body (chunkIndexText).
 */
export function chunkColumns(path: string, chunk: Chunk): [string[], string[], readonly string[]] {
  // The body's tokens are usually those the local embedding kept a moment ago (token-stash.ts).
  return [tokenize([chunk.symbol, chunk.container].filter(Boolean).join(" ")), tokenize(path), takeTokens(chunkIndexText(path, chunk))];
}

/**
 * Postings of a chunk's columns (chunkColumns). Terms are the tokens as FTS5's unicode61
 * tokenizer keeps them (tokenize emits lowercase letter and digit runs, which unicode61 leaves
 * whole), so `chunk_terms` and `chunks_fts` hold the same words.
 */
export function chunkPostings(columns: readonly [readonly string[], readonly string[], readonly string[]]): ChunkPostings {
  const terms = new Map<string, [number, number, number]>();
  let tokenCount = 0;
  columns.forEach((tokens, col) => {
    tokenCount += tokens.length;
    for (const t of tokens) {
      let tf = terms.get(t);
      if (!tf) terms.set(t, (tf = [0, 0, 0]));
      tf[col]++;
    }
  });
  return { terms, tokenCount };
}

/**
 * Id of a file version: hex SHA-1 of `repo \0 path \0 blobSha \0 CHUNK_FORMAT_VERSION`,
 * first 32 hex chars. Content-addressed: the same blob at the same path gives the same id,
 * so an unchanged file is never re-indexed.
 */
export async function fileId(repo: string, path: string, blobSha: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${repo}\0${path}\0${blobSha}\0${CHUNK_FORMAT_VERSION}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
  return [...digest]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 32);
}

/** Id of the n-th chunk (0-based) of a file version: `${fileId}-${ordinal}`, at most 64 bytes (Vectorize id limit). */
export function chunkId(fileIdHex: string, ordinal: number): string {
  return `${fileIdHex}-${ordinal}`;
}

/** The file version id a chunk id (`chunkId`) starts with: the text before its last `-`. */
export function fileIdOfChunk(id: string): string {
  return id.slice(0, id.lastIndexOf("-"));
}

/**
 * A package the repo itself publishes, as its manifest names it: a row of D1
 * `snapshot_packages`. Written at activation (indexer/own-packages.ts reads root and workspace
 * `package.json` files); read by search, where a stack frame under `node_modules/<name>/` then
 * names the repo file at `<folder>/<rest>` (worker/search/stack-trace.ts).
 */
export interface RepoPackage {
  /** The published name, `express` or `@hono/node-server`. */
  name: string;
  /** The folder holding the manifest, `""` for the repo root, `packages/server` for a workspace member. */
  folder: string;
}

// The embedding and vector ports are shared by the index and the query side: kernel/ports.ts.
export type { EmbeddingProvider, VectorMatch, VectorQueryOptions, VectorRecord, VectorStore } from "../../kernel/ports";
