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
 */

export { isQueryStopWord, tokenize, tokenizeQuery } from "./tokenize";

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
export const CHUNK_FORMAT_VERSION = 8;

/** Kinds of chunk a chunker emits. `window` is a line window of a file without a grammar. */
export type ChunkKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "interface"
  | "struct"
  | "trait"
  | "enum"
  | "type"
  | "module"
  | "section"
  | "window";

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
  return `${head}\n${chunk.content}`;
}

/**
 * Id of a file version: hex SHA-1 of `repo \0 path \0 blobSha \0 CHUNK_FORMAT_VERSION`,
 * first 32 hex chars. Content-addressed: the same blob at the same path gives the same id,
 * so an unchanged file is never re-indexed.
 */
export async function fileId(repo: string, path: string, blobSha: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${repo}\0${path}\0${blobSha}\0${CHUNK_FORMAT_VERSION}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 32);
}

/** Id of the n-th chunk (0-based) of a file version: `${fileId}-${ordinal}`, at most 64 bytes (Vectorize id limit). */
export function chunkId(fileIdHex: string, ordinal: number): string {
  return `${fileIdHex}-${ordinal}`;
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

/**
 * Port for text embeddings. Implementations: `indexer/embed/local.ts` (hashed features, the
 * default offline) and `indexer/embed/workers-ai.ts`.
 */
export interface EmbeddingProvider {
  /** Model name recorded in the index, e.g. `@cf/baai/bge-base-en-v1.5` or `local-hash-v1`. */
  readonly model: string;
  /** Vector length. */
  readonly dimensions: number;
  /** Largest number of texts per `embed` call the backend accepts. */
  readonly maxBatch: number;
  /** Embeds texts; returns one L2-normalised vector per text, in order. `kind` lets asymmetric models prefix queries. */
  embed(texts: string[], kind: "document" | "query"): Promise<Float32Array[]>;
}

/** A vector to store, keyed by chunk id. */
export interface VectorRecord {
  id: string;
  vector: Float32Array;
  metadata: { path: string; language: string };
}

/** A nearest-neighbour match; score is cosine similarity in [-1, 1]. */
export interface VectorMatch {
  id: string;
  score: number;
}

/** Optional hints of `VectorStore.query`. */
export interface VectorQueryOptions {
  /**
   * The repo's active snapshot as the caller read it: `repos.active_commit`, `active_indexed_at`
   * and, when known, `embedding_model` (a cache may reuse vectors across snapshots only while
   * the model that built them is the same).
   */
  snapshot?: { commit: string; indexedAt: number | null; model?: string | null };
}

/**
 * Port for vector search, one namespace per repo. Implementations: `indexer/store/vectors/local.ts`
 * (exact cosine over D1 rows, the default offline) and `indexer/store/vectors/vectorize.ts`.
 */
export interface VectorStore {
  upsert(repo: string, records: VectorRecord[]): Promise<void>;
  /**
   * Nearest neighbours by cosine, best first. `topK` is capped by the backend (Vectorize: 100
   * without metadata). `options.snapshot` is the repo's active snapshot as the caller already
   * read it (`repos.active_commit`, `active_indexed_at`); a store that keys a cache by it (the
   * local one) then need not read it again. Backends without such a cache ignore it.
   */
  query(repo: string, vector: Float32Array, topK: number, options?: VectorQueryOptions): Promise<VectorMatch[]>;
  delete(repo: string, ids: string[]): Promise<void>;
}
