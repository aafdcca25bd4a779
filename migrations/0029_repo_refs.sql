-- Several refs per git repository (issue #49, docs/refs.md). `repos.ref` stays the default ref
-- (the remote's HEAD when none was asked for) and `repos.active_commit` stays its snapshot, so
-- every reader that names no ref is unchanged. `ref_patterns` lists the other refs the repo
-- tracks, by full name or glob (["refs/heads/release/*", "refs/tags/v2.*"]).
ALTER TABLE repos ADD COLUMN ref_patterns TEXT NOT NULL DEFAULT '[]';

-- One row per tracked ref, the default included (is_default = 1): its own snapshot (repo,
-- commit_sha) in the repo's shard. File versions are keyed by content (`fileId`), so refs that
-- share files share their rows. Written by the coordinator; read by the ref resolver
-- (worker/services/refs.ts). Applied to every shard as well, where it mirrors the catalog's rows
-- of the repos that shard serves (garbage collection keeps every tracked ref's snapshot).
CREATE TABLE repo_refs (
  repo TEXT NOT NULL,
  name TEXT NOT NULL,                   -- full ref: refs/heads/main, refs/tags/v2.1
  is_default INTEGER NOT NULL DEFAULT 0,
  pattern TEXT,                         -- the ref_patterns entry it matched; NULL for the default
  commit_sha TEXT,                      -- its indexed snapshot; NULL until the first one completes
  indexed_at INTEGER,                   -- ms since epoch, when commit_sha was activated
  status TEXT NOT NULL DEFAULT 'queued',-- queued | indexing | ready | failed
  last_error TEXT,
  updated_at INTEGER NOT NULL,          -- ms since epoch
  PRIMARY KEY (repo, name)
) WITHOUT ROWID;

-- A connection's default ref patterns (docs/refs.md): applied to every repo it registers, as that
-- repo's `ref_patterns`. Full names or globs; a short name means a branch (refs/heads/...).
ALTER TABLE connections ADD COLUMN ref_patterns TEXT NOT NULL DEFAULT '[]';
