-- Outgoing webhook endpoints registered by customers and the delivery log.
CREATE TABLE webhook_endpoints (
  id           BIGSERIAL PRIMARY KEY,
  customer_id  BIGINT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  url          TEXT NOT NULL,
  secret       TEXT NOT NULL,
  events       TEXT[] NOT NULL,
  disabled_at  TIMESTAMPTZ
);

CREATE TABLE webhook_deliveries (
  id            BIGSERIAL PRIMARY KEY,
  endpoint_id   BIGINT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_type    TEXT NOT NULL,
  payload       JSONB NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  next_attempt  TIMESTAMPTZ,
  delivered_at  TIMESTAMPTZ,
  last_status   INTEGER
);
