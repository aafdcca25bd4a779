-- Authentication: API tokens for scripts and web sessions. Owned by worker/auth/.
-- Secrets are never stored: tokens and session ids are kept as SHA-256 hex digests.

-- API tokens, created by an admin (POST /api/tokens) and shown once.
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,                  -- public id, e.g. tok_3f9a...; part of the token string
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,      -- SHA-256 hex of the whole token string
  scopes TEXT NOT NULL,                 -- JSON array of "search" | "index" | "admin"
  repos TEXT,                           -- JSON array of repo ids, NULL for every repo
  created_by TEXT NOT NULL,             -- caller id of the admin who created it
  created_at INTEGER NOT NULL,          -- ms since epoch
  expires_at INTEGER,                   -- ms since epoch, NULL for no expiry
  last_used_at INTEGER,                 -- ms since epoch, updated at most once a minute
  revoked_at INTEGER                    -- ms since epoch, NULL while valid
);

-- Web sessions after the upstream login (local or GitHub). The cookie holds the session id.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,             -- SHA-256 hex of the session id in the cookie
  caller TEXT NOT NULL,                 -- JSON Caller (worker/services/context.ts)
  login TEXT NOT NULL,                  -- display name, e.g. the GitHub login
  csrf_token TEXT NOT NULL,             -- synchronizer token for state-changing requests
  created_at INTEGER NOT NULL,          -- ms since epoch
  expires_at INTEGER NOT NULL           -- ms since epoch
) WITHOUT ROWID;
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
