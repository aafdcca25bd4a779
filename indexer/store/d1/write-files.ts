/**
 * @module indexer/store/d1/write-files
 *
 * Idempotent writes of indexed file versions to D1: the `files` row, its `chunks` with their
 * `chunks_fts` rows (BM25's only postings), its `file_terms` row (chunks per term, summed into a
 * snapshot's statistics at activation), its `symbols`, and its grep trigram rows (`grep_docs` +
 * `grep_trigrams`). A chunk's code is a range of `files.text` (`text_from`, `text_len`), not a
 * second copy (format 10, migrations/0025). Every write first deletes what the same file version
 * wrote before, inside one `db.batch()` (a transaction), so a batch delivered twice leaves
 * exactly the rows of one delivery and a failed batch leaves none.
 */
import { chunkColumns, chunkId, chunkPostings, GREP_FORMAT_VERSION, type ChunkedFile, type ChunkRecord } from "../contract";
import { chunkTextRanges } from "./chunk-text";
import { fileTermsRows } from "./file-terms";
import { inListParts, insertRows, numberedList } from "./multi-row";

/** One file version ready to write: its identity, text and chunker output. */
export interface IndexedFile {
  repo: string;
  fileId: string;
  path: string;
  blobSha: string;
  text: string;
  chunked: ChunkedFile;
}

/**
 * Statements moving the repo's staged postings of format 9 into `chunk_terms` in key order
 * (term, chunk_rowid) and removing them from the staging table (migrations/0014). Format 10
 * stages nothing (BM25 reads `chunks_fts`, migrations/0025); activation still runs this so a
 * snapshot whose files an older deployment wrote is counted whole. With `minRows` > 0 both do
 * nothing until the repo has at least that many staged.
 */
export function movePostingsStatements(db: D1Database, repo: string, minRows = 0): D1PreparedStatement[] {
  const when = minRows > 0 ? " AND (SELECT count(*) FROM chunk_terms_staged WHERE repo = ?1) >= ?2" : "";
  const bind = minRows > 0 ? [repo, minRows] : [repo];
  return [
    db
      .prepare(
        "INSERT INTO chunk_terms (repo, term, chunk_rowid, file_id, tf_symbol, tf_path, tf_body) " +
          `SELECT repo, term, chunk_rowid, file_id, tf_symbol, tf_path, tf_body FROM chunk_terms_staged WHERE repo = ?1${when} ORDER BY term, chunk_rowid`,
      )
      .bind(...bind),
    db.prepare(`DELETE FROM chunk_terms_staged WHERE repo = ?1${when}`).bind(...bind),
  ];
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/** The chunk records a file version produces, with ids (`${fileId}-${ordinal}`). */
export function toChunkRecords(file: IndexedFile): ChunkRecord[] {
  return file.chunked.chunks.map((c, i) => ({
    ...c,
    id: chunkId(file.fileId, i),
    repo: file.repo,
    fileId: file.fileId,
    path: file.path,
    language: file.chunked.language,
  }));
}

/**
 * Statements that remove everything the file versions `fileIds` of `repo` wrote, in this format
 * or an older one (format 9's `chunk_terms` and staged postings too: garbage collection deletes
 * old versions with these): 9 statements per 99 file ids (`IN` lists, multi-row.ts).
 */
export function deleteFilesStatements(db: D1Database, repo: string, fileIds: readonly string[]): D1PreparedStatement[] {
  return inListParts(fileIds, 1).flatMap((ids) => {
    const list = `(${numberedList(2, ids.length)})`;
    const ofFiles = `repo = ?1 AND file_id IN ${list}`;
    const sql = [
      `DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE ${ofFiles})`,
      `DELETE FROM chunk_terms WHERE chunk_rowid IN (SELECT rowid FROM chunks WHERE ${ofFiles})`,
      `DELETE FROM chunk_terms_staged WHERE repo = ?1 AND chunk_rowid IN (SELECT rowid FROM chunks WHERE ${ofFiles})`,
      `DELETE FROM chunks WHERE ${ofFiles}`,
      `DELETE FROM file_terms WHERE ${ofFiles}`,
      `DELETE FROM symbols WHERE ${ofFiles}`,
      `DELETE FROM files WHERE ${ofFiles}`,
      `DELETE FROM grep_trigrams WHERE rowid IN (SELECT rowid FROM grep_docs WHERE ${ofFiles})`,
      `DELETE FROM grep_docs WHERE ${ofFiles}`,
    ];
    return sql.map((q) => db.prepare(q).bind(repo, ...ids));
  });
}

/** `deleteFilesStatements` for one file version. */
export function deleteFileStatements(db: D1Database, repo: string, fileId: string): D1PreparedStatement[] {
  return deleteFilesStatements(db, repo, [fileId]);
}

const CHUNK_INSERT =
  "INSERT INTO chunks (id, repo, file_id, path, language, kind, symbol, container, signature, start_line, end_line, content, token_count, text_from, text_len)";
const SYMBOL_INSERT = "INSERT INTO symbols (repo, file_id, path, name, name_lower, kind, container, signature, doc, start_line, end_line, chunk_id)";

/**
 * Statements that (re)write file versions (distinct file ids): first every delete, then each
 * table's rows in file order with as many rows per statement as D1's 100 parameters allow
 * (multi-row.ts). Rows, and the order rowids are given in, are those of writing the files one
 * by one. The grep trigram rows take their text from the `files` rows just written, so a file's
 * text is bound once.
 */
export function writeFilesStatements(db: D1Database, files: readonly IndexedFile[]): { statements: D1PreparedStatement[]; chunks: ChunkRecord[] } {
  // A file version given twice is written once, as its last copy (as writing them in turn did).
  const last = new Map(files.map((f, i) => [`${f.repo}\u0000${f.fileId}`, i]));
  const unique = files.filter((f, i) => last.get(`${f.repo}\u0000${f.fileId}`) === i);
  const statements: D1PreparedStatement[] = [];
  const chunks: ChunkRecord[] = [];
  // Consecutive files of one repo share statements (the pipeline writes one repo at a time).
  for (let i = 0; i < unique.length;) {
    let j = i + 1;
    while (j < unique.length && unique[j]!.repo === unique[i]!.repo) j++;
    const w = repoFilesStatements(db, unique[i]!.repo, unique.slice(i, j));
    statements.push(...w.statements);
    chunks.push(...w.chunks);
    i = j;
  }
  return { statements, chunks };
}

function repoFilesStatements(db: D1Database, repo: string, files: readonly IndexedFile[]): { statements: D1PreparedStatement[]; chunks: ChunkRecord[] } {
  const encoder = new TextEncoder();
  const fileRows: unknown[][] = [];
  const grepRows: unknown[][] = [];
  const chunkRows: unknown[][] = [];
  const ftsRows: unknown[][] = [];
  const termRows: unknown[][] = [];
  const symbolRows: unknown[][] = [];
  const allChunks: ChunkRecord[] = [];
  for (const file of files) {
    const { fileId, path } = file;
    const chunks = toChunkRecords(file);
    allChunks.push(...chunks);
    const byteSize = encoder.encode(file.text).byteLength;
    const language = file.chunked.language;
    fileRows.push([repo, fileId, path, file.blobSha, language, lineCount(file.text), byteSize, JSON.stringify(file.chunked.imports), file.text]);
    grepRows.push([repo, fileId, GREP_FORMAT_VERSION, language, byteSize]);
    const ranges = chunkTextRanges(file.text, chunks);
    /** term -> chunks of this file holding it (file_terms). */
    const fileTerms = new Map<string, number>();
    chunks.forEach((c, i) => {
      const columns = chunkColumns(path, c);
      const postings = chunkPostings(columns);
      for (const t of postings.terms.keys()) fileTerms.set(t, (fileTerms.get(t) ?? 0) + 1);
      const range = ranges[i];
      chunkRows.push([
        c.id,
        repo,
        fileId,
        path,
        c.language,
        c.kind,
        c.symbol ?? null,
        c.container ?? null,
        c.signature ?? null,
        c.startLine,
        c.endLine,
        range ? "" : c.content,
        postings.tokenCount,
        range?.from ?? null,
        range?.length ?? null,
      ]);
      ftsRows.push([c.id, ...columns.map((tokens) => tokens.join(" "))]);
    });
    fileTermsRows(fileTerms).forEach((terms, part) => termRows.push([repo, fileId, part, terms]));
    const chunkFor = (line: number) => chunks.find((c) => c.startLine <= line && line <= c.endLine)?.id ?? null;
    for (const s of file.chunked.symbols) {
      symbolRows.push([
        repo,
        fileId,
        path,
        s.name,
        s.name.toLowerCase(),
        s.kind,
        s.container ?? null,
        s.signature ?? null,
        s.doc ?? null,
        s.startLine,
        s.endLine,
        chunkFor(s.startLine),
      ]);
    }
  }
  const fileIds = files.map((f) => f.fileId);
  const statements = [
    ...deleteFilesStatements(db, repo, fileIds),
    ...insertRows(
      db,
      "INSERT INTO files (repo, file_id, path, blob_sha, language, line_count, byte_size, imports, text)",
      "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
      fileRows,
    ),
    ...insertRows(db, "INSERT INTO grep_docs (repo, file_id, format, language, byte_size)", "(?, ?, ?, ?, ?)", grepRows),
    ...inListParts(fileIds, 1).map((ids) =>
      db
        .prepare(
          "INSERT INTO grep_trigrams (rowid, text) SELECT d.rowid, f.text FROM grep_docs d JOIN files f ON f.repo = d.repo AND f.file_id = d.file_id " +
            `WHERE d.repo = ?1 AND d.file_id IN (${numberedList(2, ids.length)}) ORDER BY d.rowid`,
        )
        .bind(repo, ...ids),
    ),
    ...insertRows(db, CHUNK_INSERT, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", chunkRows),
    ...insertRows(db, "INSERT INTO chunks_fts (rowid, symbol, path, body)", "((SELECT rowid FROM chunks WHERE id = ?), ?, ?, ?)", ftsRows),
    ...insertRows(db, "INSERT INTO file_terms (repo, file_id, part, terms)", "(?, ?, ?, ?)", termRows),
    ...insertRows(db, SYMBOL_INSERT, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", symbolRows),
  ];
  return { statements, chunks: allChunks };
}

/** `writeFilesStatements` for one file version. */
export function writeFileStatements(db: D1Database, file: IndexedFile): { statements: D1PreparedStatement[]; chunks: ChunkRecord[] } {
  return writeFilesStatements(db, [file]);
}

/**
 * Writes file versions in one D1 transaction. Returns the chunk records written (for embedding).
 * Throws whatever D1 throws; nothing is written then.
 */
export async function writeFiles(db: D1Database, files: IndexedFile[]): Promise<ChunkRecord[]> {
  const { statements, chunks } = writeFilesStatements(db, files);
  if (!statements.length) return chunks;
  await db.batch(statements);
  return chunks;
}
