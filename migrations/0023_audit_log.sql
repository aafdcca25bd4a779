-- The audit log (worker/services/audit.ts): security-relevant events, who, what, when, from
-- where; never secrets or code. Append-only: rows are never updated, and deleted only by the
-- retention prune (AUDIT_RETENTION_DAYS, run by the scheduled handler).
CREATE TABLE IF NOT EXISTS audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  event TEXT NOT NULL,
  target TEXT,
  ip TEXT,
  detail TEXT
);
CREATE INDEX IF NOT EXISTS audit_log_actor ON audit_log (actor, id);
CREATE INDEX IF NOT EXISTS audit_log_event ON audit_log (event, id);
CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at);
CREATE TRIGGER IF NOT EXISTS audit_log_append_only BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
