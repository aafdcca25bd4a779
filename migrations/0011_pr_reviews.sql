-- Pull-request reviews posted to GitHub (worker/webhooks/pull-request.ts): one row per
-- (GitHub repository, pull request, head commit), claimed before the review runs, so a
-- redelivered or repeated pull_request event for the same head never posts a second review.
-- status: pending (claimed, running) | posted (review_id set) | failed (may be claimed again).
CREATE TABLE IF NOT EXISTS pr_reviews (
  github_repo TEXT NOT NULL,    -- owner/name
  pr_number INTEGER NOT NULL,
  head_sha TEXT NOT NULL,
  repo TEXT NOT NULL,           -- the indexed repo id the review read
  status TEXT NOT NULL,
  review_id INTEGER,
  findings INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,  -- ms since epoch
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (github_repo, pr_number, head_sha)
);
