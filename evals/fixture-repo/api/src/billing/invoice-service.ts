import type { Pool } from "pg";
import { withTransaction } from "../db/pool.js";
import { HttpError } from "../http/errors.js";
import { computeVat, type TaxSubject } from "./tax.js";

const SELLER_COUNTRY = "DE";
const PAYMENT_TERMS_DAYS = 14;

/** An invoice with its tax breakdown. */
export interface Invoice {
  id: number;
  number: string;
  orderId: number;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  currency: string;
  status: "open" | "paid" | "void" | "uncollectible";
  dueAt: string;
}

/**
 * Invoice numbers are `INV-<year>-<sequence>` with a gap-free sequence per year, as tax
 * authorities require. The sequence row is locked for the duration of the transaction.
 */
export async function nextInvoiceNumber(client: { query: Pool["query"] }, year: number): Promise<string> {
  const { rows } = await client.query(
    `INSERT INTO invoice_sequences (year, last_value) VALUES ($1, 1)
     ON CONFLICT (year) DO UPDATE SET last_value = invoice_sequences.last_value + 1
     RETURNING last_value`,
    [year],
  );
  return `INV-${year}-${String(rows[0].last_value).padStart(6, "0")}`;
}

export class InvoiceService {
  constructor(private readonly pool: Pool) {}

  /** Issues the invoice of a paid order: computes VAT, numbers it, sets the due date. */
  async issueInvoice(orderId: number, buyer: TaxSubject, now: Date): Promise<Invoice> {
    return withTransaction(this.pool, async (client) => {
      const { rows: orders } = await client.query("SELECT total_cents, currency FROM orders WHERE id = $1", [orderId]);
      if (orders.length === 0) throw new HttpError(404, "not_found", `Order ${orderId} does not exist.`);
      const subtotal = Number(orders[0].total_cents);
      const vat = computeVat(subtotal, buyer, SELLER_COUNTRY);
      const number = await nextInvoiceNumber(client, now.getUTCFullYear());
      const dueAt = new Date(now.getTime() + PAYMENT_TERMS_DAYS * 86_400_000);
      const { rows } = await client.query(
        `INSERT INTO invoices (order_id, number, subtotal_cents, tax_cents, total_cents, currency, status, due_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'open', $7) RETURNING *`,
        [orderId, number, subtotal, vat.taxCents, subtotal + vat.taxCents, orders[0].currency, dueAt],
      );
      return toInvoice(rows[0]);
    });
  }

  /** Marks an open invoice void; paid invoices need a credit note instead. */
  async voidInvoice(invoiceId: number): Promise<void> {
    const { rowCount } = await this.pool.query("UPDATE invoices SET status = 'void' WHERE id = $1 AND status = 'open'", [invoiceId]);
    if (rowCount === 0) throw new HttpError(409, "invoice_not_open", "Only open invoices can be voided.");
  }
}

function toInvoice(row: Record<string, any>): Invoice {
  return {
    id: Number(row.id),
    number: row.number,
    orderId: Number(row.order_id),
    subtotalCents: Number(row.subtotal_cents),
    taxCents: Number(row.tax_cents),
    totalCents: Number(row.total_cents),
    currency: row.currency,
    status: row.status,
    dueAt: new Date(row.due_at).toISOString(),
  };
}
