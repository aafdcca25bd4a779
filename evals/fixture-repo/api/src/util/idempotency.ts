import type { Pool } from "pg";
import type { Order } from "../orders/order-service.js";

/**
 * Finds the order a previous request with the same Idempotency-Key created, so that a client
 * retrying after a timeout does not place the order twice. Keys are scoped to the customer.
 */
export async function findByIdempotencyKey(pool: Pool, customerId: number, key: string): Promise<Order | null> {
  const { rows } = await pool.query(
    "SELECT * FROM orders WHERE customer_id = $1 AND idempotency_key = $2",
    [customerId, key],
  );
  if (rows.length === 0) return null;
  const row = rows[0];
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    status: row.status,
    currency: row.currency,
    totalCents: Number(row.total_cents),
    createdAt: new Date(row.created_at).toISOString(),
  };
}
