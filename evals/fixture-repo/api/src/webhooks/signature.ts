import { createHmac, timingSafeEqual } from "node:crypto";

/** Signatures older than this are rejected, so a captured delivery cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Signs a webhook body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, sent in the
 * X-Orderly-Signature header.
 */
export function signPayload(body: string, secret: string, nowSeconds: number): string {
  const mac = createHmac("sha256", secret).update(`${nowSeconds}.${body}`).digest("hex");
  return `t=${nowSeconds},v1=${mac}`;
}

/** Verifies a signature header the way receivers should: MAC match and a fresh timestamp. */
export function verifySignature(body: string, header: string, secret: string, nowSeconds: number): boolean {
  const fields = Object.fromEntries(header.split(",").map((kv) => kv.split("=") as [string, string]));
  const timestamp = Number(fields.t);
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex"));
  const given = Buffer.from(fields.v1 ?? "");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
