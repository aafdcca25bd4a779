/**
 * @module indexer/source/archive-gunzip
 *
 * Paced gunzip for uploads: inflates as the tar reader pulls, checking each output against the
 * archive limits (bomb ratio, expanded total).
 */
import { checkRatio, corrupt, tooBig, type ArchiveLimits } from "./archive-limits";

/**
 * Compressed bytes written to gunzip per step (see gunzipStream): a quarter of what was written
 * so far while the ratio is low, within these bounds. A step bounds what a bomb inflates before the ratio check sees
 * it (the first, 16 KiB, at DEFLATE's ~1032:1 is ~16 MiB), and each step costs one timer turn:
 * growing steps keep a 50 MB upload to ~220 turns.
 */
const GZIP_STEP_MIN_BYTES = 16 * 1024;
const GZIP_STEP_MAX_BYTES = 256 * 1024;

/**
 * Gunzips as the consumer pulls, counting expanded bytes against the limits. Compressed input
 * is written one step at a time (GZIP_STEP_MIN_BYTES ...), and only when the decompressor took
 * the last step and starves (a read has had no output for a timer turn): written input then
 * stays within a step of what was consumed, so the ratio check compares inflated bytes with the compressed bytes that made
 * them (a piped source is swallowed whole at once, which let a 0.7 MB bomb reach 175 MB first).
 * zlib (behind `DecompressionStream`) checks the trailer: a wrong CRC-32 or ISIZE, a missing
 * trailer or a stream cut short fail the read as corrupt gzip data.
 */
export function gunzipStream(bytes: Uint8Array, l: ArchiveLimits): ReadableStream<Uint8Array> {
  const gunzip = new DecompressionStream("gzip");
  const writer = gunzip.writable.getWriter();
  const reader = gunzip.readable.getReader();
  let fed = 0;
  let expanded = 0;
  let closing = false;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const STARVING = Symbol("starving");
  const turn = () => new Promise<typeof STARVING>((resolve) => setTimeout(() => resolve(STARVING), 0));
  let writing = false;
  // Errors surface through the read side; a write's own rejection is dropped. Steps grow only
  // while the ratio so far is far below the limit (a bomb is fed in small steps throughout).
  const writeNext = () => {
    if (fed < bytes.length) {
      const calm = expanded < (fed * l.maxCompressionRatio) / 8;
      const size = calm ? Math.min(GZIP_STEP_MAX_BYTES, Math.max(GZIP_STEP_MIN_BYTES, fed >> 2)) : GZIP_STEP_MIN_BYTES;
      const step = bytes.subarray(fed, fed + size);
      fed += step.length;
      writing = true;
      writer
        .write(step)
        .catch(() => {})
        .finally(() => (writing = false));
    } else if (!closing) {
      closing = true;
      writer.close().catch(() => {});
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          pending ??= reader.read();
          let r: ReadableStreamReadResult<Uint8Array> | typeof STARVING;
          try {
            r = await (closing ? pending : Promise.race([pending, turn()]));
          } catch (err) {
            return controller.error(corrupt("gzip", err));
          }
          // Starving, and the last step was taken: write the next.
          if (r === STARVING) {
            if (!writing) writeNext();
            continue;
          }
          pending = null;
          if (r.done) return controller.close();
          expanded += r.value.length;
          try {
            checkRatio(expanded, fed, l, "inflated");
            // The tar stream holds sizes plus 512-byte headers and padding: allow that overhead.
            if (expanded > l.maxTotalBytes + l.maxEntries * 1024) throw tooBig(l);
          } catch (err) {
            await reader.cancel().catch(() => {});
            return controller.error(err);
          }
          return controller.enqueue(r.value);
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}
