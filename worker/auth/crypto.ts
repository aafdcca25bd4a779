/**
 * @module worker/auth/crypto
 *
 * Small Web Crypto helpers: random tokens, SHA-256 digests, HMAC-SHA-256 signatures and a
 * constant-time comparison. No I/O.
 */

const encoder = new TextEncoder();

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `byteLength` random bytes as base64url: 32 bytes give 256 bits of entropy. */
export function randomToken(byteLength = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** Lower-case hex of SHA-256(text). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** HMAC-SHA-256 of `message` under `secret`, as base64url. */
export async function hmacSha256(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message))));
}

/**
 * Compares two strings in time independent of where they differ: both are hashed first, so
 * lengths leak nothing either (workerd's `crypto.subtle.timingSafeEqual` needs equal lengths).
 */
export async function timingSafeEqualText(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([a, b].map((t) => crypto.subtle.digest("SHA-256", encoder.encode(t))));
  return crypto.subtle.timingSafeEqual(ha, hb);
}
