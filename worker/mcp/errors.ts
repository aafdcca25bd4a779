/**
 * @module worker/mcp/errors
 *
 * Turns errors thrown by services into MCP error tool results (`isError: true`), so the model
 * sees what went wrong and what to do next. Expected failures (`CodeSearchError`) keep their
 * message and get a code tag plus a next step from one exhaustive switch: a new `ErrorCode` fails
 * the build here until it is handled. Anything else is logged and answered generically; D1
 * messages and stacks never reach the client. The code also travels in `_meta` for programs.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { CodeSearchError, type ErrorCode } from "../../kernel/errors";

/** `_meta` key carrying `{code, retryable}` on error results. */
export const ERROR_META_KEY = "codebase-copilot/error";

/** Whether retrying the same call later may succeed, and the next step to suggest. */
export function errorAdvice(code: ErrorCode): { retryable: boolean; next: string } {
  switch (code) {
    case "invalid_input":
      return { retryable: false, next: "Fix the arguments and call again." };
    case "not_found":
      return { retryable: false, next: "Check the tool name and arguments against tools/list." };
    case "misdirected_request":
      return { retryable: false, next: "Connect through the server's public URL (https, or http on localhost)." };
    case "repo_not_found":
      return { retryable: false, next: "Call list_repos for the repos you can use." };
    case "repo_exists":
      return { retryable: false, next: "Use the existing repo, or refresh_index to re-index it." };
    case "connection_exists":
      return { retryable: false, next: "An admin manages connections over the REST API (GET /api/connections)." };
    case "file_not_found":
      return { retryable: false, next: "Find indexed paths with search_code or get_file_outline." };
    case "index_not_ready":
      return { retryable: true, next: "Call get_index_status and retry once the status is ready." };
    case "history_unavailable":
      return { retryable: false, next: "Use search_code, grep and read_file on the current snapshot; the error says how to get history for this repo." };
    case "ref_not_found":
      // A read names a ref the repo does not track (or not yet indexed); rarely, a registered ref left the remote.
      return {
        retryable: false,
        next: "Omit ref to read the default branch, or pass one of the tracked refs the message lists (get_index_status lists them too).",
      };
    case "payload_too_large":
      // Over MCP only a history or blame walk past its time budget says this.
      return { retryable: false, next: "Ask for less: a shorter line range (start, end) or a smaller limit." };
    case "source_unreachable":
    case "not_a_repository":
    case "archive_invalid":
      return { retryable: false, next: "The repo source needs fixing by whoever registered it; the current index keeps serving." };
    case "unauthorized":
      return { retryable: false, next: "Reconnect to this MCP server to sign in again." };
    case "forbidden":
      return { retryable: false, next: "Ask an admin for access; read-only tools still work." };
    case "rate_limited":
      return { retryable: true, next: "Wait a little and retry." };
    case "budget_exhausted":
      return { retryable: true, next: "Today's model budget for your identity is spent; use search_code, or retry after the time given." };
    case "generation_unavailable":
      return { retryable: false, next: "No model provider is configured on this server; use search_code, or ask the operator to configure one." };
    case "generation_failed":
      return { retryable: true, next: "The model API failed; retry later, or use search_code." };
    case "not_configured":
      return { retryable: false, next: "This feature is not configured on this server; ask the operator." };
    case "internal":
      return { retryable: true, next: "Retry; if it persists, report it to the server's operator." };
    default: {
      const never: never = code;
      return never;
    }
  }
}

/** The error tool result for `err`. Unexpected errors are logged with the tool name only. */
export function toolErrorResult(tool: string, err: unknown): CallToolResult {
  if (err instanceof CodeSearchError) {
    const advice = errorAdvice(err.code);
    return {
      isError: true,
      content: [{ type: "text", text: `Error (${err.code}): ${err.message}\nNext: ${advice.next}` }],
      _meta: { [ERROR_META_KEY]: { code: err.code, retryable: advice.retryable } },
    };
  }
  console.error("MCP tool failed", tool, err);
  const advice = errorAdvice("internal");
  return {
    isError: true,
    content: [{ type: "text", text: `Error (internal): the tool failed unexpectedly; the server log has details.\nNext: ${advice.next}` }],
    _meta: { [ERROR_META_KEY]: { code: "internal", retryable: advice.retryable } },
  };
}
