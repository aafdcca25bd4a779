-- A repo its connection can no longer see (gone upstream, excluded, or access lost) stops
-- serving at once: `withdrawn_at` (ms) is set by the connection sync and read by `canSee`
-- (worker/services/context.ts). The index is kept for the grace period, so access coming back
-- clears the column and the repo serves again without re-indexing.
ALTER TABLE repos ADD COLUMN withdrawn_at INTEGER;
-- Repos already marked missing before this migration stop serving now too.
UPDATE repos SET withdrawn_at = (
  SELECT min(cr.missing_since) FROM connection_repos cr WHERE cr.repo = repos.id AND cr.missing_since IS NOT NULL AND cr.registered_at IS NOT NULL
) WHERE id IN (SELECT repo FROM connection_repos WHERE missing_since IS NOT NULL AND registered_at IS NOT NULL);
