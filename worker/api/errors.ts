/**
 * @module worker/api/errors
 *
 * The REST error wire format, built in one place: `{error: {code, message, details?}}` with the
 * HTTP status of its code. `onApiError` (the app's `onError`) turns thrown errors into it;
 * middleware that answers before a route runs (auth, rate limits, the OAuth origin check) calls
 * `errorResponse`. Unexpected errors are logged and answered with a generic 500; internals never
 * reach clients.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CodeSearchError, type ErrorCode } from "../../kernel/errors";

/** HTTP status for each error code. */
export function httpStatus(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case "invalid_input":
    case "not_a_repository":
    case "archive_invalid":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
    case "repo_not_found":
    case "file_not_found":
    case "ref_not_found":
      return 404;
    case "repo_exists":
    case "connection_exists":
    case "index_not_ready":
    case "history_unavailable":
      return 409;
    case "payload_too_large":
      return 413;
    case "misdirected_request":
      return 421;
    case "source_unreachable":
      return 422;
    case "rate_limited":
    case "budget_exhausted":
      return 429;
    case "generation_failed":
      return 502;
    case "generation_unavailable":
    case "not_configured":
      return 503;
    case "internal":
      return 500;
    default: {
      const never: never = code;
      return never;
    }
  }
}

/** The JSON error body of every REST error. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/** `{error: {code, message, details?}}`; `details` only when given. */
export function errorBody(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** A JSON error response with the status of `code` (`httpStatus`) and any extra headers. */
export function errorResponse(code: ErrorCode, message: string, opts: { details?: Record<string, unknown>; headers?: HeadersInit } = {}): Response {
  return Response.json(errorBody(code, message, opts.details), { status: httpStatus(code), headers: opts.headers });
}

/**
 * What Hono's own validators throw before a route runs: a body that is not JSON (400), or a
 * declared JSON body sent as another media type (415). Both are the caller's input.
 */
function fromHttpException(err: HTTPException): CodeSearchError | undefined {
  if (err.status === 400) return new CodeSearchError("invalid_input", "body: malformed JSON; send a JSON object.");
  if (err.status === 415) return new CodeSearchError("invalid_input", "content-type: send the body as application/json.");
  return undefined;
}

/** Hono `onError` handler. */
export function onApiError(err: Error, c: Context): Response {
  const coded = err instanceof HTTPException ? fromHttpException(err) : err;
  if (coded instanceof CodeSearchError) {
    const retryAfter = coded.details?.retryAfterSeconds;
    // RFC 9110 §10.2.3: delay-seconds. Sent for 429 (rate, budget) and 503 alike.
    if (typeof retryAfter === "number" && Number.isInteger(retryAfter) && retryAfter > 0) c.header("retry-after", String(retryAfter));
    return c.json(errorBody(coded.code, coded.message, coded.details), httpStatus(coded.code));
  }
  console.error("unhandled API error", err);
  return c.json(errorBody("internal", "Internal error; the server log has details."), 500);
}
