-- Compact snapshot statistics, CHUNK_FORMAT_VERSION 10 (issue #45). snapshot_terms repeats the
-- snapshot's commit (40 to 48 characters) in every row: 4.2 of its 8.0 MB on sympy (dbstat).
-- snapshot_df holds the same document frequencies under a small per-repo snapshot number,
-- snapshot_stats.terms_key, assigned when the snapshot is activated (the repo's largest + 1).
-- Readers (worker/search/term-stats.ts) read both tables: snapshots activated before this
-- migration keep their snapshot_terms rows (terms_key NULL) until garbage collection deletes
-- them with the snapshot.
ALTER TABLE snapshot_stats ADD COLUMN terms_key INTEGER;

CREATE TABLE snapshot_df (
  repo TEXT NOT NULL,
  terms_key INTEGER NOT NULL,           -- snapshot_stats.terms_key of (repo, commit)
  term TEXT NOT NULL,
  df INTEGER NOT NULL,                  -- chunks of the snapshot holding the term
  PRIMARY KEY (repo, terms_key, term)
) WITHOUT ROWID;
