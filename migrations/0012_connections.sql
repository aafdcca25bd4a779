-- Connections (docs/connections.md): every repository of a GitHub organisation or user, or of a
-- GitLab group or user, registered and kept in sync by the Cron Trigger (worker/connections).

-- One row per connection. The code-host token and the connection's webhook secret are sealed
-- with AES-GCM (kernel/secret-box.ts; purposes "connection-token" and
-- "connection-webhook-secret", context the connection id) and never returned.
CREATE TABLE connections (
  id TEXT PRIMARY KEY,                    -- e.g. "github-acme"
  provider TEXT NOT NULL,                 -- github | gitlab
  owner TEXT NOT NULL,                    -- organisation, user or group path (as given)
  owner_kind TEXT NOT NULL,               -- org | user | group (resolved at creation)
  base_url TEXT NOT NULL,                 -- API base, e.g. https://api.github.com, https://gitlab.com
  token_sealed TEXT,                      -- NULL: public repositories only
  webhook_secret_sealed TEXT NOT NULL,
  include_json TEXT NOT NULL,             -- JSON array of globs ([]: everything)
  exclude_json TEXT NOT NULL,             -- JSON array of globs
  forks INTEGER NOT NULL,                 -- 1: forks are included
  archived INTEGER NOT NULL,              -- 1: archived repositories are included
  grace_seconds INTEGER NOT NULL,         -- a repo gone or excluded upstream is removed after this long
  created_at INTEGER NOT NULL,            -- ms since epoch
  last_synced_at INTEGER,                 -- ms since epoch of the last sync that listed the owner
  last_error TEXT,                        -- why the last sync failed (NULL after a good one)
  UNIQUE (provider, base_url, owner)
) WITHOUT ROWID;

-- The upstream repositories a connection knows, keyed by the code host's numeric id (stable
-- across renames). `repo` is the repos.id it is indexed as (NULL when that id was taken by a repo
-- registered by hand: skip_reason says so). missing_since is set when the repository was gone
-- or filtered out at a sync, cleared when it is back; the repo is removed past grace_seconds.
CREATE TABLE connection_repos (
  connection_id TEXT NOT NULL,
  upstream_id TEXT NOT NULL,
  full_name TEXT NOT NULL,                -- owner/name (GitLab: path_with_namespace)
  clone_url TEXT NOT NULL,
  repo TEXT,                              -- repos.id once registered
  registered_at INTEGER,                  -- ms since epoch; NULL: waiting for a later sync (per-sync cap)
  skip_reason TEXT,                       -- e.g. "id_taken"
  missing_since INTEGER,                  -- ms since epoch
  missing_reason TEXT,                    -- deleted | excluded | fork | archived
  PRIMARY KEY (connection_id, upstream_id)
) WITHOUT ROWID;
-- Not unique: two connections may propose the same id; the second one is skipped as id_taken.
CREATE INDEX connection_repos_by_repo ON connection_repos (repo);
