/**
 * @module kernel/errors
 *
 * Domain errors with stable codes. Service code throws `CodeSearchError`; `worker/api/errors.ts`
 * maps codes to HTTP and `worker/mcp/errors.ts` to MCP tool results, each with an exhaustive
 * switch so a new code fails the build until both handle it.
 */

/** Stable error codes clients may rely on. */
export type ErrorCode =
  | "invalid_input"
  | "not_found"
  | "misdirected_request"
  | "repo_not_found"
  | "repo_exists"
  | "connection_exists"
  | "file_not_found"
  | "index_not_ready"
  | "history_unavailable"
  | "source_unreachable"
  | "not_a_repository"
  | "ref_not_found"
  | "archive_invalid"
  | "payload_too_large"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "budget_exhausted"
  | "generation_unavailable"
  | "generation_failed"
  | "not_configured"
  | "internal";

/**
 * An expected failure with a code and a message that tells the caller what to do next.
 * `details.retryAfterSeconds` (a positive integer), when present, is also sent as the HTTP
 * Retry-After header by worker/api/errors.ts.
 */
export class CodeSearchError extends Error {
  override name = "CodeSearchError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
