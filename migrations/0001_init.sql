-- Codebase Copilot storage, format 1. See docs/storage.md for ids and invariants.
-- Written by indexer/ (files, chunks, chunks_fts, symbols, local_vectors) and by the
-- RepoCoordinator (repos, snapshot_files); read by worker/search and worker/services.

-- One row per registered repo. active_commit is the current snapshot: flipped by the
-- coordinator in one UPDATE once every file of the new snapshot is written.
CREATE TABLE repos (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  source_kind TEXT NOT NULL,            -- 'git' | 'archive'
  url TEXT,                             -- git URL without credentials; NULL for archives
  ref TEXT,                             -- requested ref (branch, tag or commit)
  status TEXT NOT NULL DEFAULT 'queued',-- queued | fetching | indexing | ready | failed (mirror of the coordinator)
  active_commit TEXT,                   -- NULL until the first snapshot is complete
  active_indexed_at INTEGER,            -- ms since epoch
  embedding_model TEXT,                 -- model that built the active vectors
  embedding_dims INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Snapshot membership: which file version each path has in each snapshot (repo, commit).
CREATE TABLE snapshot_files (
  repo TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  path TEXT NOT NULL,
  file_id TEXT NOT NULL,
  PRIMARY KEY (repo, commit_sha, path)
) WITHOUT ROWID;
CREATE INDEX snapshot_files_by_file ON snapshot_files (repo, file_id);

-- One row per indexed file version. file_id = fileId(repo, path, blobSha) (contract.ts).
CREATE TABLE files (
  repo TEXT NOT NULL,
  file_id TEXT NOT NULL,
  path TEXT NOT NULL,
  blob_sha TEXT NOT NULL,
  language TEXT NOT NULL,
  line_count INTEGER NOT NULL,
  byte_size INTEGER NOT NULL,
  imports TEXT NOT NULL DEFAULT '[]',   -- JSON array of import statements (outline)
  text TEXT NOT NULL,
  PRIMARY KEY (repo, file_id)
) WITHOUT ROWID;

-- Chunks: the unit search returns. rowid is the chunks_fts rowid.
CREATE TABLE chunks (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,              -- `${file_id}-${ordinal}`, <= 64 bytes (Vectorize id limit)
  repo TEXT NOT NULL,
  file_id TEXT NOT NULL,
  path TEXT NOT NULL,
  language TEXT NOT NULL,
  kind TEXT NOT NULL,
  symbol TEXT,
  container TEXT,
  signature TEXT,
  start_line INTEGER NOT NULL,          -- 1-based, inclusive
  end_line INTEGER NOT NULL,            -- 1-based, inclusive
  content TEXT NOT NULL                 -- original code of lines start_line..end_line
);
CREATE INDEX chunks_by_file ON chunks (repo, file_id);

-- BM25 over pre-tokenized text (indexer/store/tokenize.ts): columns are field-weighted at query time.
CREATE VIRTUAL TABLE chunks_fts USING fts5 (
  symbol, path, body,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);

-- Symbol table: definitions found by the chunker.
CREATE TABLE symbols (
  repo TEXT NOT NULL,
  file_id TEXT NOT NULL,
  path TEXT NOT NULL,
  name TEXT NOT NULL,
  name_lower TEXT NOT NULL,
  kind TEXT NOT NULL,
  container TEXT,
  signature TEXT,
  doc TEXT,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  chunk_id TEXT
);
CREATE INDEX symbols_by_name ON symbols (repo, name_lower);
CREATE INDEX symbols_by_file ON symbols (repo, file_id);

-- Local VectorStore (indexer/store/vectors/local.ts): exact cosine search, the default without Vectorize.
CREATE TABLE local_vectors (
  repo TEXT NOT NULL,
  id TEXT NOT NULL,                     -- chunk id
  vector BLOB NOT NULL,                 -- Float32Array, little-endian, L2-normalised
  PRIMARY KEY (repo, id)
) WITHOUT ROWID;
