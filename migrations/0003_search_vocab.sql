-- Search (worker/search/channels/bm25.ts): document frequency of each FTS5 term, for choosing
-- the most informative terms of a long query by IDF. A read-only view over chunks_fts's index.
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_vocab USING fts5vocab(chunks_fts, row);
