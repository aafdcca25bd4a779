/**
 * @module worker/auth/guards/registration
 *
 * Limits on dynamic client registration (RFC 7591), which anyone may call: a per-address rate
 * limit and a body cap, checked before the OAuth provider reads the body (`limitRegistration`),
 * and caps on what the metadata may hold, applied through the provider's
 * `clientRegistrationCallback` (`checkClientMetadata`), which answers RFC 7591 §3.2.2
 * `invalid_client_metadata`. Without them a 1 MB `client_name` is stored and rendered into every
 * consent page of that client.
 */
import type { ClientRegistrationCallbackResult } from "@cloudflare/workers-oauth-provider";
import { BodyTooLargeError, readBoundedRequest } from "../../../kernel/bounded-body";
import type { Env } from "../../../kernel/env";
import { checkRegisterRate } from "../rate-limit";

/** Largest registration body (bytes). Real clients send well under 2 KiB. */
export const REGISTER_MAX_BODY_BYTES = 16 * 1024;
/** Longest `client_name` (characters): it is shown on the consent page. */
export const CLIENT_NAME_MAX_CHARS = 100;
/** Longest URI or other string field (characters). */
export const CLIENT_FIELD_MAX_CHARS = 2000;
/** Most entries of `redirect_uris` and of any other list field. */
export const CLIENT_LIST_MAX_ENTRIES = 10;

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/**
 * Rate-limits and size-checks a `POST /oauth/register`. Returns the request to hand on (its body
 * read into memory, at most REGISTER_MAX_BODY_BYTES) or the refusal: 429 with Retry-After, or 413.
 */
export async function limitRegistration(request: Request, env: Env): Promise<Request | Response> {
  const rate = await checkRegisterRate(env, request);
  if (!rate.ok) {
    return oauthError(429, "too_many_requests", `Too many client registrations from this address; retry after ${rate.retryAfterSeconds} seconds.`, {
      "retry-after": String(rate.retryAfterSeconds),
    });
  }
  const tooLarge = () => oauthError(413, "invalid_request", `The registration body must be at most ${REGISTER_MAX_BODY_BYTES} bytes.`);
  let body: Uint8Array;
  try {
    body = await readBoundedRequest(request, REGISTER_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return tooLarge();
    throw err;
  }
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body });
}

/**
 * Checks registration metadata field by field; returns the rejection naming the field, or
 * undefined to let the registration proceed (the provider validates the rest).
 */
export function checkClientMetadata({ clientMetadata }: { clientMetadata: Record<string, unknown> }): ClientRegistrationCallbackResult | undefined {
  const reject = (description: string): ClientRegistrationCallbackResult => ({ code: "invalid_client_metadata", description });
  for (const [field, value] of Object.entries(clientMetadata)) {
    const max = field === "client_name" ? CLIENT_NAME_MAX_CHARS : CLIENT_FIELD_MAX_CHARS;
    if (typeof value === "string" && value.length > max) return reject(`${field} must be at most ${max} characters`);
    if (Array.isArray(value)) {
      if (value.length > CLIENT_LIST_MAX_ENTRIES) return reject(`${field} may have at most ${CLIENT_LIST_MAX_ENTRIES} entries`);
      for (const v of value)
        if (typeof v === "string" && v.length > CLIENT_FIELD_MAX_CHARS)
          return reject(`each ${field} entry must be at most ${CLIENT_FIELD_MAX_CHARS} characters`);
    }
  }
  return undefined;
}
