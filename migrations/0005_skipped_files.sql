-- Files of a snapshot that are not indexed, with why (indexer/filter/skip-reason.ts: reason)
-- and which rule decided it (rule id such as dir:node_modules, name:.envrc, secretlint/aws;
-- never file content). Written in the transaction that writes snapshot_files and flips
-- repos.active_commit (durable-objects/finalize.ts); deleted with the snapshot. Read by
-- GET /api/repos/{id}/skipped (worker/services/skipped.ts).
CREATE TABLE skipped_files (
  repo TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  path TEXT NOT NULL,
  reason TEXT NOT NULL,
  rule TEXT NOT NULL,
  PRIMARY KEY (repo, commit_sha, path)
) WITHOUT ROWID;
CREATE INDEX skipped_files_by_reason ON skipped_files (repo, commit_sha, reason, path);
