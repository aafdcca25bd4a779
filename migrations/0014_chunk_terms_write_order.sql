-- Write order of BM25 postings (indexer/store/d1/write-files.ts). chunk_terms is keyed by
-- (repo, term, chunk_rowid) for the query's range scans, so a chunk's postings land on as many
-- b-tree pages as it has terms; written chunk by chunk, nearly every row missed SQLite's page
-- cache (cold hono: half of all indexing CPU). Writes now stage postings in chunk order
-- (appends); once a repo has enough staged, and always when a snapshot is activated, they move
-- into chunk_terms sorted by term in one statement, so the inserts walk the tree in key order.
-- Search reads chunk_terms only, and a snapshot's postings are all there once it is active.
CREATE TABLE chunk_terms_staged (
  repo TEXT NOT NULL,
  chunk_rowid INTEGER NOT NULL,         -- chunks.rowid
  term TEXT NOT NULL,
  file_id TEXT NOT NULL,
  tf_symbol INTEGER NOT NULL,
  tf_path INTEGER NOT NULL,
  tf_body INTEGER NOT NULL,
  PRIMARY KEY (repo, chunk_rowid, term)
) WITHOUT ROWID;

-- Deleting a file version's postings, and counting a snapshot's document frequencies, go
-- through its chunks' rowids. The index on (repo, file_id) took random inserts in term order;
-- new chunk rowids only grow, so this one is appended to.
DROP INDEX chunk_terms_by_file;
CREATE INDEX chunk_terms_by_chunk ON chunk_terms (chunk_rowid);
