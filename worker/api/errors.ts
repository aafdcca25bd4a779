/**
 * @module worker/api/errors
 *
 * Turns thrown errors into JSON HTTP responses: `{error: {code, message, details?}}`.
 * Unexpected errors are logged and answered with a generic 500; internals never reach clients.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CodeSearchError, type ErrorCode } from "../../kernel/errors";

/** HTTP status for each error code. */
export function httpStatus(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case "invalid_input":
    case "not_a_repository":
    case "ref_not_found":
    case "archive_invalid":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "repo_not_found":
    case "file_not_found":
      return 404;
    case "repo_exists":
    case "index_not_ready":
      return 409;
    case "payload_too_large":
      return 413;
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

/** Hono `onError` handler. */
export function onApiError(err: Error, c: Context): Response {
  if (err instanceof CodeSearchError) {
    const body = { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    const retryAfter = err.details?.retryAfterSeconds;
    // RFC 9110 §10.2.3: delay-seconds. Sent for 429 (rate, budget) and 503 alike.
    if (typeof retryAfter === "number" && Number.isInteger(retryAfter) && retryAfter > 0) c.header("retry-after", String(retryAfter));
    return c.json(body, httpStatus(err.code));
  }
  console.error("unhandled API error", err);
  return c.json({ error: { code: "internal", message: "Internal error; the server log has details." } }, 500);
}
