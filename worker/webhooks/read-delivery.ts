/**
 * @module worker/webhooks/read-delivery
 *
 * Reads a webhook delivery's body before anything else is known about it (it is not yet
 * authenticated), through the one bounded reader (kernel/bounded-body.ts): a body over the limit
 * is refused with 413 without being read whole, whatever its Content-Length says.
 */
import { BodyTooLargeError, readBoundedRequest } from "../../kernel/bounded-body";
import { CodeSearchError } from "../../kernel/errors";

/** The delivery's text, at most `maxBytes` (kernel/bounded-body.ts); throws `payload_too_large` beyond, without reading the rest. */
export async function readDelivery(request: Request, maxBytes: number): Promise<string> {
  try {
    return new TextDecoder().decode(await readBoundedRequest(request, maxBytes));
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    const size = err.declaredBytes !== null ? `${err.declaredBytes} bytes` : `larger than ${maxBytes} bytes`;
    throw new CodeSearchError("payload_too_large", `The delivery is ${size}; the limit is ${maxBytes}. Send push and pull_request events only.`);
  }
}
