-- Compact storage, CHUNK_FORMAT_VERSION 10 (issue #45; docs/storage.md "Storage per source byte").
-- Before: a chunk's postings were held twice (chunks_fts, and one chunk_terms row per chunk and
-- distinct term with an index by chunk: 4.9 bytes of D1 per source byte on hono) and its code
-- twice (chunks.content beside files.text: 1.3 bytes per source byte).

-- BM25 reads each term's frequency per chunk and column from chunks_fts itself, through this
-- view of its index: one row per occurrence (term, doc = chunks.rowid, col, offset), range
-- scans by term. Format 10 writes no chunk_terms rows; the table stays for rows of format 9
-- until garbage collection deletes them with their file versions.
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_instance USING fts5vocab(chunks_fts, instance);

-- The number of chunks of one file version holding each term, as a JSON object
-- {"term": chunks, ...}: written with the file version, deleted with it, and summed over a
-- snapshot's member files into snapshot_terms when the snapshot is activated. A rowid table:
-- a WITHOUT ROWID row over about 1 KB moves to overflow pages (SQLite keeps index-tree cells
-- small), and hono's rows average 1.4 KB, whose overflow pages were half empty (dbstat).
-- A file version with very many terms has several rows (part 0, 1 ...), each under D1's 2 MB
-- per row (indexer/store/d1/file-terms.ts).
CREATE TABLE file_terms (
  rowid INTEGER PRIMARY KEY,
  repo TEXT NOT NULL,
  file_id TEXT NOT NULL,
  part INTEGER NOT NULL,
  terms TEXT NOT NULL,
  UNIQUE (repo, file_id, part)
);

-- A chunk's code is files.text from code point text_from (1-based) for text_len code points:
-- readers take substr(files.text, text_from, text_len), and chunks.content is '' in format 10.
-- NULL in rows of format 9, whose content column still holds the code.
ALTER TABLE chunks ADD COLUMN text_from INTEGER;
ALTER TABLE chunks ADD COLUMN text_len INTEGER;
