/**
 * @module worker/search/grep/candidates
 *
 * D1 reads of a grep: the files of a repo's active snapshot that may match (from the trigram
 * index, migrations/0008), their texts in batches, and the symbols that enclose matches. Files
 * whose trigram rows are missing or of another GREP_FORMAT_VERSION are always candidates, so a
 * format change or a file indexed before migration 0008 is scanned, never missed.
 */
import { GREP_FORMAT_VERSION } from "../../../indexer/store/contract";
import type { TextFilter } from "./text-filter";

/** Most candidate files read per repo and request; past it the grep says `truncated`. */
export const GREP_CANDIDATES_MAX = 50_000;
/** Ids per `IN (...)` list (D1: 100 bound parameters per statement; a text read also binds the repo and TEXT_FILTER_LITERALS_MAX literals). */
export const GREP_IDS_PER_QUERY = 90;

/** A file of the active snapshot that may match. `bytes` is its UTF-8 size. */
export interface CandidateFile {
  path: string;
  fileId: string;
  language: string;
  bytes: number;
}

/** SQL-side filters of the candidates (globs and the test filter run in JS on the paths). */
export interface CandidateFilters {
  pathPrefix?: string;
  language?: string;
  /** Only paths >= this (resuming from a cursor). */
  fromPath?: string;
}

// A file's language and size come from grep_docs (migrations/0013), and from `files` only for a
// file without a grep_docs row (indexed before migration 0008) or written before 0013: a
// primary-key seek into `files` reads the overflowing texts it passes (see that migration).
const fromFiles = (col: string) => `(SELECT f.${col} FROM files f WHERE f.repo = sf.repo AND f.file_id = sf.file_id)`;
const LANGUAGE = `COALESCE(d.language, ${fromFiles("language")})`;
const BYTE_SIZE = `COALESCE(d.byte_size, ${fromFiles("byte_size")})`;

/**
 * Candidate files of (repo, commit), sorted by path (SQLite's binary order), at most
 * GREP_CANDIDATES_MAX + 1 (one more says the cap was hit). `match` is an FTS5 expression over
 * `grep_trigrams` (worker/search/grep/trigram-query.ts), or null for every file (the scan).
 */
export async function candidateFiles(db: D1Database, repo: string, commit: string, match: string | null, f: CandidateFilters): Promise<CandidateFile[]> {
  const where: string[] = ["sf.repo = ?1", "sf.commit_sha = ?2"];
  const params: unknown[] = [repo, commit];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql.replace(/\?/g, () => `?${params.push(values.shift())}`));
  };
  if (f.fromPath !== undefined) add("sf.path >= ?", f.fromPath);
  if (f.pathPrefix) add("sf.path >= ? AND sf.path < ?", f.pathPrefix, `${f.pathPrefix}\u{10FFFF}`);
  if (f.language) add(`${LANGUAGE} = ?`, f.language);
  if (match !== null) {
    // The MATCH runs once, as a list the outer rows probe (rowids of every repo; the join keeps
    // this repo's). Rows of another format, or files without one, are candidates whatever it says.
    const m = params.push(match);
    const v = params.push(GREP_FORMAT_VERSION);
    where.push(`(d.rowid IS NULL OR d.format <> ?${v} OR d.rowid IN (SELECT rowid FROM grep_trigrams WHERE grep_trigrams MATCH ?${m}))`);
  }
  const limit = params.push(GREP_CANDIDATES_MAX + 1);
  const { results } = await db
    .prepare(
      `SELECT sf.path, sf.file_id, ${LANGUAGE} AS language, ${BYTE_SIZE} AS byte_size
       FROM snapshot_files sf LEFT JOIN grep_docs d ON d.repo = sf.repo AND d.file_id = sf.file_id
       WHERE ${where.join(" AND ")} ORDER BY sf.path LIMIT ?${limit}`,
    )
    .bind(...params)
    .all<{ path: string; file_id: string; language: string; byte_size: number }>();
  return results.map((r) => ({ path: r.path, fileId: r.file_id, language: r.language, bytes: r.byte_size }));
}

/**
 * Texts of file versions of `repo`, by file id (at most GREP_IDS_PER_QUERY ids a call); with
 * `filter` (worker/search/grep/text-filter.ts), only the texts it admits (the others are left
 * out of the map: SQLite checked them, nothing was transferred).
 */
export async function fileTexts(db: D1Database, repo: string, fileIds: string[], filter: TextFilter | null = null): Promise<Map<string, string>> {
  const { results } = await db
    .prepare(`SELECT file_id, text FROM files WHERE repo = ? AND file_id IN (${fileIds.map(() => "?").join(", ")})${filter ? ` AND ${filter.sql}` : ""}`)
    .bind(repo, ...fileIds, ...(filter?.params ?? []))
    .all<{ file_id: string; text: string }>();
  return new Map(results.map((r) => [r.file_id, r.text]));
}

/** A definition that encloses a match: the innermost symbol whose lines hold it. Lines 1-based, inclusive. */
export interface EnclosingSymbol {
  name: string;
  kind: string;
  container: string | null;
  startLine: number;
  endLine: number;
}

/**
 * For each `(fileId, line)`, the innermost symbol of that file version whose lines hold the
 * line (smallest span; ties: the later start), or null. One statement per GREP_IDS_PER_QUERY files.
 */
export async function enclosingSymbols(db: D1Database, repo: string, wanted: { fileId: string; line: number }[]): Promise<(EnclosingSymbol | null)[]> {
  const ids = [...new Set(wanted.map((w) => w.fileId))];
  const byFile = new Map<string, EnclosingSymbol[]>();
  for (let i = 0; i < ids.length; i += GREP_IDS_PER_QUERY) {
    const part = ids.slice(i, i + GREP_IDS_PER_QUERY);
    const { results } = await db
      .prepare(`SELECT file_id, name, kind, container, start_line, end_line FROM symbols WHERE repo = ? AND file_id IN (${part.map(() => "?").join(", ")})`)
      .bind(repo, ...part)
      .all<{ file_id: string; name: string; kind: string; container: string | null; start_line: number; end_line: number }>();
    for (const r of results) {
      const list = byFile.get(r.file_id) ?? [];
      list.push({ name: r.name, kind: r.kind, container: r.container, startLine: r.start_line, endLine: r.end_line });
      byFile.set(r.file_id, list);
    }
  }
  return wanted.map(({ fileId, line }) => {
    let best: EnclosingSymbol | null = null;
    for (const s of byFile.get(fileId) ?? []) {
      if (s.startLine > line || s.endLine < line) continue;
      const span = s.endLine - s.startLine;
      if (!best || span < best.endLine - best.startLine || (span === best.endLine - best.startLine && s.startLine > best.startLine)) best = s;
    }
    return best;
  });
}
