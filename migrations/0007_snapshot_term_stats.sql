-- Per-snapshot term statistics for BM25 (worker/search/channels/bm25.ts). FTS5's own bm25()
-- reads the row count, token totals and document frequencies of the whole chunks_fts table:
-- every repo at once, and with contentless_delete its row count and token totals only grow as
-- rows are deleted and rewritten. Ranking reads these tables instead; chunks_fts stays for
-- boolean and phrase MATCH, whose result sets do not depend on statistics.

-- Tokens of the chunk's three BM25 columns (symbol + path + body), BM25's document length.
ALTER TABLE chunks ADD COLUMN token_count INTEGER NOT NULL DEFAULT 0;

-- Postings: one row per (chunk, distinct term), with the term's frequency in each column.
-- Content-addressed like the chunk (written and deleted with its file version), so snapshots
-- share them; a snapshot's statistics come from the postings of its member files.
CREATE TABLE chunk_terms (
  repo TEXT NOT NULL,
  term TEXT NOT NULL,
  chunk_rowid INTEGER NOT NULL,         -- chunks.rowid
  file_id TEXT NOT NULL,
  tf_symbol INTEGER NOT NULL,
  tf_path INTEGER NOT NULL,
  tf_body INTEGER NOT NULL,
  PRIMARY KEY (repo, term, chunk_rowid)
) WITHOUT ROWID;
CREATE INDEX chunk_terms_by_file ON chunk_terms (repo, file_id);

-- Document frequency of every term in one snapshot (chunks of its member files holding it),
-- written when the snapshot is activated, deleted with it.
CREATE TABLE snapshot_terms (
  repo TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  term TEXT NOT NULL,
  df INTEGER NOT NULL,
  PRIMARY KEY (repo, commit_sha, term)
) WITHOUT ROWID;

-- Chunk count and token total of one snapshot (BM25's N and average document length).
CREATE TABLE snapshot_stats (
  repo TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  chunks INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  PRIMARY KEY (repo, commit_sha)
) WITHOUT ROWID;
