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
 * Statements that remove everything one file version wrote, in this format or an older one
 * (format 9's `chunk_terms` and staged postings too: garbage collection deletes old versions with
 * these).
 */
export function deleteFileStatements(db: D1Database, repo: string, fileId: string): D1PreparedStatement[] {
  return [
    db.prepare("DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE repo = ?1 AND file_id = ?2)").bind(repo, fileId),
    db.prepare("DELETE FROM chunk_terms WHERE chunk_rowid IN (SELECT rowid FROM chunks WHERE repo = ?1 AND file_id = ?2)").bind(repo, fileId),
    db
      .prepare("DELETE FROM chunk_terms_staged WHERE repo = ?1 AND chunk_rowid IN (SELECT rowid FROM chunks WHERE repo = ?1 AND file_id = ?2)")
      .bind(repo, fileId),
    db.prepare("DELETE FROM chunks WHERE repo = ?1 AND file_id = ?2").bind(repo, fileId),
    db.prepare("DELETE FROM file_terms WHERE repo = ?1 AND file_id = ?2").bind(repo, fileId),
    db.prepare("DELETE FROM symbols WHERE repo = ?1 AND file_id = ?2").bind(repo, fileId),
    db.prepare("DELETE FROM files WHERE repo = ?1 AND file_id = ?2").bind(repo, fileId),
    db.prepare("DELETE FROM grep_trigrams WHERE rowid IN (SELECT rowid FROM grep_docs WHERE repo = ?1 AND file_id = ?2)").bind(repo, fileId),
    db.prepare("DELETE FROM grep_docs WHERE repo = ?1 AND file_id = ?2").bind(repo, fileId),
  ];
}

/** Statements that (re)write one file version. Each binds well under D1's 100 parameters. */
export function writeFileStatements(db: D1Database, file: IndexedFile): { statements: D1PreparedStatement[]; chunks: ChunkRecord[] } {
  const { repo, fileId, path } = file;
  const chunks = toChunkRecords(file);
  const byteSize = new TextEncoder().encode(file.text).byteLength;
  const statements = deleteFileStatements(db, repo, fileId);
  statements.push(
    db
      .prepare("INSERT INTO files (repo, file_id, path, blob_sha, language, line_count, byte_size, imports, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(repo, fileId, path, file.blobSha, file.chunked.language, lineCount(file.text), byteSize, JSON.stringify(file.chunked.imports), file.text),
  );
  statements.push(
    db
      .prepare("INSERT INTO grep_docs (repo, file_id, format, language, byte_size) VALUES (?, ?, ?, ?, ?)")
      .bind(repo, fileId, GREP_FORMAT_VERSION, file.chunked.language, byteSize),
    db
      .prepare("INSERT INTO grep_trigrams (rowid, text) VALUES ((SELECT rowid FROM grep_docs WHERE repo = ? AND file_id = ?), ?)")
      .bind(repo, fileId, file.text),
  );
  const ranges = chunkTextRanges(file.text, chunks);
  /** term -> chunks of this file holding it (file_terms). */
  const fileTerms = new Map<string, number>();
  chunks.forEach((c, i) => {
    const columns = chunkColumns(path, c);
    const postings = chunkPostings(columns);
    for (const t of postings.terms.keys()) fileTerms.set(t, (fileTerms.get(t) ?? 0) + 1);
    const range = ranges[i];
    statements.push(
      db
        .prepare(
          "INSERT INTO chunks (id, repo, file_id, path, language, kind, symbol, container, signature, start_line, end_line, content, token_count, text_from, text_len) " +
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
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
        ),
      db
        .prepare("INSERT INTO chunks_fts (rowid, symbol, path, body) VALUES ((SELECT rowid FROM chunks WHERE id = ?), ?, ?, ?)")
        .bind(c.id, ...columns.map((tokens) => tokens.join(" "))),
    );
  });
  fileTermsRows(fileTerms).forEach((terms, part) =>
    statements.push(db.prepare("INSERT INTO file_terms (repo, file_id, part, terms) VALUES (?, ?, ?, ?)").bind(repo, fileId, part, terms)),
  );
  const chunkFor = (line: number) => chunks.find((c) => c.startLine <= line && line <= c.endLine)?.id ?? null;
  for (const s of file.chunked.symbols) {
    statements.push(
      db
        .prepare(
          "INSERT INTO symbols (repo, file_id, path, name, name_lower, kind, container, signature, doc, start_line, end_line, chunk_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
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
        ),
    );
  }
  return { statements, chunks };
}

/**
 * Writes file versions in one D1 transaction. Returns the chunk records written (for embedding).
 * Throws whatever D1 throws; nothing is written then.
 */
export async function writeFiles(db: D1Database, files: IndexedFile[]): Promise<ChunkRecord[]> {
  const statements: D1PreparedStatement[] = [];
  const chunks: ChunkRecord[] = [];
  for (const f of files) {
    const w = writeFileStatements(db, f);
    statements.push(...w.statements);
    chunks.push(...w.chunks);
  }
  if (!statements.length) return chunks;
  await db.batch(statements);
  return chunks;
}
