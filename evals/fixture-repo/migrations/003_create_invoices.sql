-- Invoices issued for paid orders, and every attempt to collect them.
CREATE TABLE invoices (
  id             BIGSERIAL PRIMARY KEY,
  order_id       BIGINT NOT NULL UNIQUE REFERENCES orders(id),
  number         TEXT NOT NULL UNIQUE,
  subtotal_cents BIGINT NOT NULL,
  tax_cents      BIGINT NOT NULL,
  total_cents    BIGINT NOT NULL,
  currency       CHAR(3) NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void', 'uncollectible')),
  due_at         TIMESTAMPTZ NOT NULL,
  paid_at        TIMESTAMPTZ
);

CREATE TABLE payment_attempts (
  id           BIGSERIAL PRIMARY KEY,
  invoice_id   BIGINT NOT NULL REFERENCES invoices(id),
  attempted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  succeeded    BOOLEAN NOT NULL,
  failure_code TEXT
);

CREATE INDEX payment_attempts_by_invoice ON payment_attempts (invoice_id, attempted_at);

-- Gap-free invoice numbering per calendar year (see nextInvoiceNumber in the API).
CREATE TABLE invoice_sequences (
  year        INTEGER PRIMARY KEY,
  last_value  INTEGER NOT NULL
);
