import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Pool } from "pg";
import type { AppConfig } from "../config.js";
import { HttpError } from "../http/errors.js";
import { verifyToken } from "./jwt.js";

/** The authenticated caller attached to each request. */
export interface Customer {
  id: number;
  scopes: string[];
}

/**
 * Resolves the caller from `Authorization: Bearer <jwt>` or `X-Api-Key`. API keys are looked
 * up by their SHA-256 hash; revoked keys are rejected.
 */
export async function authenticate(req: IncomingMessage, config: AppConfig, pool: Pool): Promise<Customer> {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    const secrets = [config.jwtSecret, config.jwtSecretPrevious].filter((s): s is string => Boolean(s));
    const claims = verifyToken(auth.slice(7), secrets, Math.floor(Date.now() / 1000));
    if (!claims) throw new HttpError(401, "unauthorized", "The bearer token is invalid or expired.");
    return { id: Number(claims.sub), scopes: claims.scope };
  }
  const apiKey = req.headers["x-api-key"];
  if (typeof apiKey === "string") return lookupApiKey(apiKey, pool);
  throw new HttpError(401, "unauthorized", "Send a bearer token or an X-Api-Key header.");
}

async function lookupApiKey(apiKey: string, pool: Pool): Promise<Customer> {
  const keyHash = createHash("sha256").update(apiKey).digest("hex");
  const { rows } = await pool.query(
    "SELECT customer_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
    [keyHash],
  );
  if (rows.length === 0) throw new HttpError(401, "unauthorized", "Unknown or revoked API key.");
  return { id: Number(rows[0].customer_id), scopes: ["orders:read", "orders:write"] };
}

/** Throws 403 unless the customer holds `scope`. */
export function requireScope(customer: Customer, scope: string): void {
  if (!customer.scopes.includes(scope)) {
    throw new HttpError(403, "forbidden", `This endpoint needs the ${scope} scope.`);
  }
}
