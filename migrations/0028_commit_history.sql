-- Commit history of git sources (issue #49; indexer/history/, docs/history.md). Per-repo rows,
-- read and written only through indexer/store/d1/history.ts so that they can move to a shard.

-- One row per fetched commit. `boundary` = 1: its parents were not fetched (the depth limit),
-- so history and blame stop there. Times are unix seconds; `committer_time` orders walks.
CREATE TABLE commits (
  repo TEXT NOT NULL,
  sha TEXT NOT NULL,
  parents TEXT NOT NULL,               -- parent SHAs, space-separated, in git's order
  boundary INTEGER NOT NULL,
  author_name TEXT NOT NULL,
  author_email TEXT NOT NULL,
  author_time INTEGER NOT NULL,
  committer_time INTEGER NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (repo, sha)
);

-- What a commit changed in a file, against one parent (`parent_index`, 0-based). Non-merge
-- commits: one row per added, modified or renamed file. Merges: no row when the file equals the
-- first parent's; status `=` naming the parent it equals; otherwise one row per parent.
-- `hunks`: "os,oe,ns,ne;..." 0-based half-open line ranges (old side, new side) of the line diff.
CREATE TABLE commit_changes (
  repo TEXT NOT NULL,
  path TEXT NOT NULL,
  sha TEXT NOT NULL,
  parent_index INTEGER NOT NULL,
  status TEXT NOT NULL,                -- A added, M modified, R renamed from old_path, = same as the parent
  old_path TEXT,
  hunks TEXT,
  PRIMARY KEY (repo, path, sha, parent_index)
) WITHOUT ROWID;

-- BM25 over commit messages, pre-tokenized like chunks_fts (indexer/store/tokenize.ts); rowid = commits.rowid.
CREATE VIRTUAL TABLE commits_fts USING fts5 (
  subject, body, author,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);

-- Whether a repo keeps history, and the depth it was fetched with.
CREATE TABLE repo_history (
  repo TEXT PRIMARY KEY,
  head TEXT NOT NULL,                  -- the commit history was last recorded from
  ref TEXT NOT NULL,                   -- the full ref it was fetched as (refs/heads/main)
  depth TEXT NOT NULL,                 -- HISTORY_DEPTH at that time ("2000", "365d")
  commits INTEGER NOT NULL,            -- commits rows of the repo
  updated_at INTEGER NOT NULL          -- ms
);
