-- Shards (issue #45, docs/storage.md "Shards"): a repo's index rows live in one shard database
-- (binding SHARD_<n>). `shard` is where its active snapshot is served from (NULL: not placed yet,
-- read as shard 0); `moving_to` is the shard a move re-indexes it into (POST /api/repos/{id}/move),
-- NULL when no move is under way. Only the catalog (binding DB) fills these columns; the same
-- migrations are applied to every shard, where `repos` holds one mirror row per repo it serves.
ALTER TABLE repos ADD COLUMN shard INTEGER;
ALTER TABLE repos ADD COLUMN moving_to INTEGER;
