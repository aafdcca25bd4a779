-- Packages a snapshot publishes, read from its root and workspace package.json files when the
-- coordinator activates it (indexer/own-packages.ts, durable-objects/finalize.ts). Search reads
-- them with the repo's row: a stack frame under node_modules/<name>/ names the file at
-- <folder>/<rest> of this repo only (worker/search/stack-trace.ts). Written in the transaction
-- that writes snapshot_files and flips repos.active_commit; deleted with the snapshot.
CREATE TABLE snapshot_packages (
  repo TEXT NOT NULL,
  commit_sha TEXT NOT NULL,
  name TEXT NOT NULL,                   -- published name: express, @hono/node-server
  folder TEXT NOT NULL,                 -- folder of its package.json in the repo, '' for the root
  PRIMARY KEY (repo, commit_sha, name)
) WITHOUT ROWID;
