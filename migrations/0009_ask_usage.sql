-- Per-identity daily ledger of model usage for answers (worker/ask/budget.ts): tokens (input +
-- output + cache reads + cache writes), estimated USD and calls per caller id per UTC day.
CREATE TABLE IF NOT EXISTS ask_usage (
  identity TEXT NOT NULL,
  day TEXT NOT NULL,            -- YYYY-MM-DD, UTC
  tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  calls INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (identity, day)
);
