/**
 * @module worker/auth/client-address
 *
 * The client address that per-IP limits count. On Cloudflare it is `CF-Connecting-IP`, which
 * the edge sets on every request and overwrites when a client sends one. Under `wrangler dev`
 * that header is the client's to choose: miniflare fills it from the socket only when the client
 * sent none (cloudflare/workers-sdk#7702, "CF-Connecting-IP is preserved when present"), and
 * `request.cf` comes from the client-settable `MF-CF-Blob` header, so no request field carries
 * the socket's address. `npm start` therefore binds wrangler dev to 127.0.0.1 and sets
 * `CLIENT_IP_SOURCE=loopback`: every client's socket address is then loopback, and that is what
 * is counted, whatever headers arrive.
 */
import type { Env } from "../../kernel/env";

/** Key of every client when wrangler dev listens on loopback only. */
export const LOOPBACK_CLIENT = "loopback";

/**
 * The client address of `request`, or null when unknown (unit tests without the header: then
 * only per-identity limits apply). Throws TypeError when CLIENT_IP_SOURCE has another value.
 */
export function clientAddress(env: Env, request: Request): string | null {
  const source = env.CLIENT_IP_SOURCE || "cf-connecting-ip";
  if (source === "loopback") return LOOPBACK_CLIENT;
  if (source !== "cf-connecting-ip") throw new TypeError(`CLIENT_IP_SOURCE must be "cf-connecting-ip" or "loopback"; got "${env.CLIENT_IP_SOURCE}"`);
  return request.headers.get("cf-connecting-ip");
}
