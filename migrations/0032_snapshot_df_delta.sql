-- Statistics of a second ref as a delta (issue #49, docs/refs.md "Cost of a second branch").
-- Every snapshot had its own full snapshot_df: one row per term of the repo (10,036 rows,
-- 0.27 MB by dbstat for hono's second ref, whose own new files took 2.5 MB), whatever the
-- ref shares with the default branch. With base_key set, the snapshot's snapshot_df rows are
-- the difference against the rows numbered base_key (the active snapshot's when it was
-- activated): df = base df + own row, a term with no own row has the base's df, and a term
-- whose sum is 0 is absent (indexer/store/d1/snapshot-stats.ts, worker/search/term-stats.ts).
-- NULL (every row before this migration, and the active snapshot's): the rows are full.
ALTER TABLE snapshot_stats ADD COLUMN base_key INTEGER;
