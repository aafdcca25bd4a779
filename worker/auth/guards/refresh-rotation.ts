/**
 * @module worker/auth/guards/refresh-rotation
 *
 * Refresh-token reuse detection in front of the OAuth provider's token endpoint (RFC 9700
 * §4.14.2, OAuth 2.1 §4.3.1). workers-oauth-provider 1.2.3 rotates the refresh token on every
 * use but keeps accepting the previous one, without limit of time or count, and each such use
 * rotates the current token away (so the legitimate holder's newest token fails). Its grace
 * cannot be configured, so this guard narrows it:
 *
 *   - a refresh token that was rotated out may be used once more, within
 *     REFRESH_REUSE_GRACE_SECONDS of its rotation, and only while it is the provider's
 *     "previous" token (a client that lost the response retries);
 *   - any other use of a rotated-out token is taken as theft: the whole grant is revoked (its
 *     refresh and access tokens stop working) and `invalid_grant` is answered.
 *
 * Which tokens were rotated out is kept per grant in OAUTH_KV under `ccp-refresh:<user>:<grant>`
 * (SHA-256 ids, never tokens). It reads the provider's grant record (`grant:<user>:<grant>`,
 * fields `refreshTokenId` and `previousRefreshTokenId`, the library's documented KV layout);
 * test/worker/auth-least-privilege.test.ts fails if that layout changes. KV is eventually
 * consistent across locations, so two refreshes racing through different locations may both pass:
 * best effort, as the provider's own replay checks are.
 */
import type { Env } from "../../../kernel/env";
import { sha256Hex } from "../crypto";

/** How long after its rotation a refresh token may be used once more (seconds). */
export const REFRESH_REUSE_GRACE_SECONDS = 30;
/** Rotated-out token ids remembered per grant (the oldest are forgotten first). */
const MAX_RETIRED = 100;
/** Kept as long as a refresh token may live (worker/auth/provider.ts REFRESH_TOKEN_TTL_SECONDS). */
const RECORD_TTL_SECONDS = 30 * 86400;

interface RetiredToken {
  /** SHA-256 hex of the token, as the provider names token ids. */
  id: string;
  /** When it was rotated out (seconds since epoch). */
  at: number;
  graceUsed: boolean;
}

interface RotationRecord {
  v: 1;
  retired: RetiredToken[];
}

interface ProviderGrant {
  refreshTokenId?: string;
  previousRefreshTokenId?: string;
}

/** What the guard needs from outside: the provider to forward to, and grant revocation. */
export interface RefreshGuardDeps {
  forward(request: Request): Promise<Response>;
  revokeGrant(grantId: string, userId: string): Promise<void>;
  /** Seconds since epoch. */
  now(): number;
}

function reused(): Response {
  return Response.json(
    {
      error: "invalid_grant",
      error_description: "This refresh token was already used. The sign-in it belonged to has been revoked as a precaution; sign in again.",
    },
    { status: 400, headers: { "cache-control": "no-store" } },
  );
}

/**
 * Handles a `POST /oauth/token`: anything but a well-formed refresh_token grant goes straight to
 * the provider; a refresh goes through the reuse rule of the module note.
 */
export async function guardRefresh(request: Request, env: Env, deps: RefreshGuardDeps): Promise<Response> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return deps.forward(request);
  const form = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  const token = form.get("refresh_token");
  if (form.get("grant_type") !== "refresh_token" || !token) return deps.forward(request);
  const parts = token.split(":");
  if (parts.length !== 3) return deps.forward(request);
  const [userId, grantId] = parts;
  const grant = await env.OAUTH_KV.get<ProviderGrant>(`grant:${userId}:${grantId}`, "json");
  if (!grant) return deps.forward(request);

  const id = await sha256Hex(token);
  const recordKey = `ccp-refresh:${userId}:${grantId}`;
  const record = (await env.OAUTH_KV.get<RotationRecord>(recordKey, "json")) ?? { v: 1, retired: [] };
  const now = deps.now();
  if (grant.refreshTokenId !== id) {
    const retired = record.retired.find((r) => r.id === id);
    const wasIssued = retired !== undefined || grant.previousRefreshTokenId === id;
    if (!wasIssued) return deps.forward(request); // never ours: the provider answers invalid_grant
    const inGrace = retired !== undefined && grant.previousRefreshTokenId === id && !retired.graceUsed && now - retired.at <= REFRESH_REUSE_GRACE_SECONDS;
    if (!inGrace) {
      await deps.revokeGrant(grantId, userId);
      await env.OAUTH_KV.delete(recordKey);
      return reused();
    }
    retired.graceUsed = true;
  }
  const rotatedOut = grant.refreshTokenId;
  const response = await deps.forward(request);
  if (response.ok && rotatedOut && !record.retired.some((r) => r.id === rotatedOut)) {
    record.retired.push({ id: rotatedOut, at: now, graceUsed: false });
    record.retired = record.retired.slice(-MAX_RETIRED);
  }
  await env.OAUTH_KV.put(recordKey, JSON.stringify(record), { expirationTtl: RECORD_TTL_SECONDS });
  return response;
}
