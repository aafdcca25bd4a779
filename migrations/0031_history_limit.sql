-- How far a repo's recorded history falls short of HISTORY_DEPTH (issue #49, docs/history.md).
-- `limit_note`: why less was recorded (a budget halved the window, a step stopped at a commit),
-- shown by history and blame answers; null when history reaches the depth. `pending` = 1: a step
-- stopped at its budget and the next refresh continues from where it stopped.
ALTER TABLE repo_history ADD COLUMN limit_note TEXT;
ALTER TABLE repo_history ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
