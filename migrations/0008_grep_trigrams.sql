-- Exact and regex search (grep, worker/search/grep/): a trigram index over the text of every
-- indexed file version, part of the snapshot like chunks and symbols. Written by the pipeline
-- with the file's other rows (indexer/store/d1/write-files.ts), deleted with them (garbage
-- collection, repo deletion). Format: GREP_FORMAT_VERSION in indexer/store/contract.ts.

-- One row per indexed file version; rowid is the grep_trigrams rowid (files is WITHOUT ROWID).
CREATE TABLE grep_docs (
  rowid INTEGER PRIMARY KEY,
  repo TEXT NOT NULL,
  file_id TEXT NOT NULL,
  format INTEGER NOT NULL,              -- GREP_FORMAT_VERSION that wrote the row
  UNIQUE (repo, file_id)
);

-- FTS5's trigram tokenizer (SQLite >= 3.34): every 3-character sequence of the file text,
-- case-folded. detail=none keeps only which rows hold a trigram (no positions): a query is an
-- AND/OR of single trigrams, a superset of the files that match, which the regex engine then
-- verifies line by line. Contentless: the text lives in files.text only.
CREATE VIRTUAL TABLE grep_trigrams USING fts5 (
  text,
  content = '', contentless_delete = 1, detail = 'none',
  tokenize = 'trigram case_sensitive 0'
);
