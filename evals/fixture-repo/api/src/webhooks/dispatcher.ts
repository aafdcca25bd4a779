import type { Pool } from "pg";
import { retryWithBackoff } from "../util/retry.js";
import { signPayload } from "./signature.js";

const MAX_ATTEMPTS = 8;
const DELIVERY_TIMEOUT_MS = 10_000;

/** An event to deliver to every endpoint subscribed to its type. */
export interface WebhookEvent {
  type: string;
  data: unknown;
}

/**
 * Delivers events to customers' endpoints. Each delivery is signed, retried with backoff
 * while the receiver answers 5xx or times out, and logged in `webhook_deliveries`. After
 * MAX_ATTEMPTS failures the endpoint is disabled.
 */
export class WebhookDispatcher {
  constructor(
    private readonly pool: Pool,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async dispatch(customerId: number, event: WebhookEvent): Promise<void> {
    const { rows: endpoints } = await this.pool.query(
      "SELECT id, url, secret FROM webhook_endpoints WHERE customer_id = $1 AND $2 = ANY(events) AND disabled_at IS NULL",
      [customerId, event.type],
    );
    await Promise.all(endpoints.map((endpoint) => this.deliver(endpoint, event)));
  }

  private async deliver(endpoint: { id: number; url: string; secret: string }, event: WebhookEvent): Promise<void> {
    const body = JSON.stringify(event);
    let attempts = 0;
    try {
      const status = await retryWithBackoff(async () => {
        attempts += 1;
        const res = await this.fetchImpl(endpoint.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-orderly-signature": signPayload(body, endpoint.secret, Math.floor(Date.now() / 1000)) },
          body,
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        if (res.status >= 500) throw new Error(`receiver answered ${res.status}`);
        return res.status;
      }, { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 500 });
      await this.log(endpoint.id, event, attempts, status);
    } catch {
      await this.log(endpoint.id, event, attempts, null);
      await this.pool.query("UPDATE webhook_endpoints SET disabled_at = now() WHERE id = $1", [endpoint.id]);
    }
  }

  private async log(endpointId: number, event: WebhookEvent, attempts: number, status: number | null): Promise<void> {
    await this.pool.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_type, payload, attempts, delivered_at, last_status)
       VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() END, $5)`,
      [endpointId, event.type, JSON.stringify(event.data), attempts, status],
    );
  }
}
