import { createHmac, timingSafeEqual } from "node:crypto";

/** Claims Orderly puts in its access tokens. */
export interface TokenClaims {
  sub: string;
  scope: string[];
  /** Expiry, seconds since the epoch. */
  exp: number;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

/** Signs claims as a compact HS256 JWT. */
export function signToken(claims: TokenClaims, secret: string): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = base64url(JSON.stringify(claims));
  const signature = createHmac("sha256", secret).update(`${header}.${body}`).digest("base64url");
  return `${header}.${body}.${signature}`;
}

/**
 * Verifies an HS256 token against the current secret and, during a rotation, the previous
 * one. Returns the claims, or null when the signature is wrong or the token has expired.
 */
export function verifyToken(token: string, secrets: string[], nowSeconds: number): TokenClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, body, signature] = parts;
  const given = Buffer.from(signature, "base64url");
  const valid = secrets.some((secret) => {
    const expected = createHmac("sha256", secret).update(`${header}.${body}`).digest();
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) return null;
  const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as TokenClaims;
  if (claims.exp <= nowSeconds) return null;
  return claims;
}
