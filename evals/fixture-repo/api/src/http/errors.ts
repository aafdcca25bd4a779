import type { ServerResponse } from "node:http";

/** An error with an HTTP status and a stable machine-readable code. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/**
 * Writes `{error: {code, message}}`. Unknown errors become a generic 500 so that stack traces
 * and SQL never reach clients; they are logged instead.
 */
export function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof HttpError) {
    res.writeHead(err.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: err.code, message: err.message } }));
    return;
  }
  console.error("unhandled error", err);
  res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "internal", message: "Internal error" } }));
}
