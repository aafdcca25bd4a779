/** @module bin/lib/api-error — the CLI client's error type (re-exported by api-client.ts). */

/** An error answer of the API (`{error: {code, message}}`) or of the network. */
export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}
