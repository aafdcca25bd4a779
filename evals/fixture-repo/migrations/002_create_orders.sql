-- Orders and their line items. Amounts are integer minor units (cents) to avoid float drift.
CREATE TABLE orders (
  id               BIGSERIAL PRIMARY KEY,
  customer_id      BIGINT NOT NULL REFERENCES customers(id),
  status           TEXT NOT NULL CHECK (status IN ('draft', 'placed', 'paid', 'shipped', 'cancelled')),
  currency         CHAR(3) NOT NULL,
  total_cents      BIGINT NOT NULL DEFAULT 0,
  idempotency_key  TEXT UNIQUE,
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Keyset pagination walks this index: (created_at, id) descending.
CREATE INDEX orders_by_customer_created ON orders (customer_id, created_at DESC, id DESC);

CREATE TABLE order_items (
  order_id     BIGINT NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  sku          TEXT NOT NULL,
  quantity     INTEGER NOT NULL CHECK (quantity > 0),
  unit_cents   BIGINT NOT NULL,
  PRIMARY KEY (order_id, sku)
);
