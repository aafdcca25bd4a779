-- The last Cron Trigger tick (worker/schedule/ticks.ts), so health and the CLI's status can say
-- when scheduled work last ran and when it runs next. One row per cron expression.
CREATE TABLE IF NOT EXISTS schedule_ticks (
  cron TEXT PRIMARY KEY,
  last_tick_at INTEGER NOT NULL
);
