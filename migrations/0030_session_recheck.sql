-- Web sessions re-check their person at GitHub (worker/permissions/session-recheck.ts), as OAuth
-- grants do at every refresh: `upstream` is the person's GitHub token sealed with AES-GCM
-- (kernel/secret-box.ts, purpose `session-github-token`, context the session's id_hash);
-- NULL for local sign-ins. `checked_at` (ms) is when membership was last proven.
ALTER TABLE sessions ADD COLUMN upstream TEXT;
ALTER TABLE sessions ADD COLUMN checked_at INTEGER;
