-- Grep candidates without touching `files` (worker/search/grep/candidates.ts). `files` is
-- WITHOUT ROWID with each file's whole text in its row, and SQLite compares an index b-tree
-- cell that overflows its page by reading the whole cell: every primary-key seek into `files`
-- (to learn a candidate's size and language) read the overflow chains of the texts it passed,
-- about 0.25 ms per seek on sympy (2,046 files: 0.5 s per grep before any text was verified).
-- grep_docs is a rowid table with small rows, so the candidate list now comes from the trigram
-- index and grep_docs alone; `files` is read only for the texts that are verified.
ALTER TABLE grep_docs ADD COLUMN language TEXT;
ALTER TABLE grep_docs ADD COLUMN byte_size INTEGER;

-- Backfill from files (one pass over the table; rows written from now on carry both columns).
UPDATE grep_docs SET
  language = (SELECT f.language FROM files f WHERE f.repo = grep_docs.repo AND f.file_id = grep_docs.file_id),
  byte_size = (SELECT f.byte_size FROM files f WHERE f.repo = grep_docs.repo AND f.file_id = grep_docs.file_id);
