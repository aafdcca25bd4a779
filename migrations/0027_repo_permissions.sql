-- Permissions that follow the code host (docs/auth.md, "Who sees what"). Read by `canSee`
-- (worker/services/context.ts) through the caller's readable set (worker/auth/permissions.ts).
--
-- repos.visibility: `everyone` (registered by URL or upload with no access list: every signed-in
-- reader, as before), `listed` (URL or upload with an admin's access list), or the code host's
-- own `public`, `private` or `internal` for repos registered through a connection. `private`,
-- `internal` and `listed` repos are shown only to callers that repo_readers names.
ALTER TABLE repos ADD COLUMN visibility TEXT NOT NULL DEFAULT 'everyone';
-- Repos a connection registered before this migration are private until their next sync says
-- otherwise and lists their readers (fail closed: at most one sync interval hidden from readers).
UPDATE repos SET visibility = 'private' WHERE id IN (SELECT repo FROM connection_repos WHERE registered_at IS NOT NULL AND repo IS NOT NULL);

-- Who may read a restricted repo. principal: `github:<login>` or `gitlab:<username>` (lower
-- case), or `team:<org>/<team-slug>` (access lists only). source: `host` rows come from a
-- connection sync (the repo's readers) or a person's sync at sign-in and token refresh (the
-- repos they can read), the latest wins; a `host` row older than the permission lag
-- (PERMISSION_MAX_AGE_MS) no longer grants anything, so a sync that keeps failing hides the
-- repo rather than serving stale grants. `admin` rows are an access list set by an admin
-- (PATCH /api/repos/{id}) and do not age.
CREATE TABLE repo_readers (
  repo TEXT NOT NULL,
  principal TEXT NOT NULL,
  source TEXT NOT NULL,                   -- host | admin
  synced_at INTEGER NOT NULL,             -- ms since epoch of the sync that proved it
  PRIMARY KEY (repo, principal)
) WITHOUT ROWID;
CREATE INDEX repo_readers_by_principal ON repo_readers (principal);

-- When a connection sync last proved the readers of a private or internal repo (ms), and why it
-- could not at the last try (the repo is then withdrawn until a sync proves them again).
ALTER TABLE connection_repos ADD COLUMN readers_synced_at INTEGER;
ALTER TABLE connection_repos ADD COLUMN readers_error TEXT;
