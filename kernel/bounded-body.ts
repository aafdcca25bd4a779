/**
 * @module kernel/bounded-body
 *
 * The one reader for bodies whose size nobody vouches for (webhook deliveries, client
 * registrations, archive uploads): it reads a stream chunk by chunk and stops, cancelling the
 * stream, as soon as more than the limit arrived. A declared Content-Length over the limit is
 * refused before anything is read; a missing or false one does not help, since the count is of
 * bytes received. Without it a 60 MB unauthenticated body was buffered whole before the size
 * check (issue 43: an isolate on Workers has 128 MB).
 */

/** A body was larger than the limit; nothing past `limitBytes` (plus one chunk) was read. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  /**
   * @param limitBytes the limit that was passed
   * @param declaredBytes the Content-Length when that alone refused the body, else null
   */
  constructor(
    readonly limitBytes: number,
    readonly declaredBytes: number | null = null,
  ) {
    super(declaredBytes !== null ? `The body is ${declaredBytes} bytes; the limit is ${limitBytes}.` : `The body is larger than ${limitBytes} bytes.`);
  }
}

/** The Content-Length header in bytes, or null when it is absent or not a non-negative integer. */
export function declaredLength(headers: Headers): number | null {
  const raw = headers.get("content-length");
  if (raw === null || !/^\d{1,16}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * Reads `body` whole into one array of at most `maxBytes` bytes (an absent body is empty).
 * @throws BodyTooLargeError as soon as more than `maxBytes` arrived; the stream is cancelled, so
 *   the rest is never read
 */
export async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new BodyTooLargeError(maxBytes);
      }
      parts.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return parts.length === 1 ? parts[0] : concatBytes(parts, size);
}

/** `parts` joined into one array of `size` bytes (their total, when the caller counted it). */
export function concatBytes(parts: readonly Uint8Array[], size = parts.reduce((n, p) => n + p.byteLength, 0)): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * Reads a request's body, at most `maxBytes`: refused at once when its Content-Length says more,
 * else read with `readBounded`.
 * @throws BodyTooLargeError
 */
export async function readBoundedRequest(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredLength(request.headers);
  if (declared !== null && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes, declared);
  }
  return readBounded(request.body, maxBytes);
}
