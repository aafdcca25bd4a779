/**
 * @module indexer/source/archive-gunzip
 *
 * Paced gunzip for uploads: inflates as the tar reader pulls, checking each output against the
 * archive limits (bomb ratio, expanded total).
 *
 * Inflating is fflate's `Gunzip`, synchronous: one pull pushes one step of compressed bytes and
 * gets its whole output at once. The runtime's `DecompressionStream` handed its output over in
 * 4 KiB reads, each a turn of workerd's event loop; on a loaded machine the 1,244 reads of
 * hono's 1.7 MB upload took 2.2 to 2.7 s of wall time for about 0.25 s of CPU (issue #45,
 * docs/indexing-speed.md "Round 3"). fflate does not check the gzip trailer, so the CRC-32 (node:zlib's
 * `crc32`, native) and the length of the output are checked against it here.
 */
import { Gunzip } from "fflate";
import { crc32 } from "node:zlib";
import { checkRatio, corrupt, tooBig, type ArchiveLimits } from "./archive-limits";

/**
 * Compressed bytes pushed per step (see gunzipStream): a quarter of what was pushed so far while
 * the ratio is low, within these bounds. A push inflates its whole step at once, at most about
 * 1032 times its size (DEFLATE's largest ratio), before the limits are checked: 1 KiB steps
 * while the ratio is high keep a bomb within about 1 MiB of the point where it is refused, and
 * no step inflates more than about 16 MiB.
 */
const GZIP_STEP_MIN_BYTES = 1024;
const GZIP_STEP_MAX_BYTES = 16 * 1024;
/** A gzip member ends with the CRC-32 and the length mod 2^32 of its data, little-endian (RFC 1952). */
const TRAILER_BYTES = 8;

function u32le(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/**
 * Gunzips as the consumer pulls, counting expanded bytes against the limits. Compressed input
 * is pushed one step at a time (GZIP_STEP_MIN_BYTES ...), and only once the previous step's
 * output was taken, so the ratio check compares inflated bytes with the compressed bytes that
 * made them. Each member's trailer must match its data (a wrong CRC-32 or ISIZE, a missing
 * trailer, other bytes after it or a stream cut short fail the read as corrupt gzip data).
 */
export function gunzipStream(bytes: Uint8Array, l: ArchiveLimits): ReadableStream<Uint8Array> {
  let fed = 0;
  let expanded = 0;
  let crc = 0;
  /** Bytes of the current member's data. */
  let size = 0;
  let out: Uint8Array[] = [];
  const gunzip = new Gunzip((data) => {
    if (!data.length) return;
    out.push(data);
    expanded += data.length;
    size += data.length;
    crc = crc32(data, crc);
  });
  // Concatenated members are valid gzip (`cat a.gz b.gz`): each member's trailer is checked
  // when the next one starts (fflate has emitted all of its data by then).
  let memberStart = 0;
  const checkTrailer = (end: number) => {
    if (end - memberStart < TRAILER_BYTES || u32le(bytes, end - 8) !== crc >>> 0 || u32le(bytes, end - 4) !== size >>> 0) {
      throw new Error("the trailer's CRC-32 or length does not match the data, or the trailer is missing");
    }
    crc = 0;
    size = 0;
  };
  gunzip.onmember = (offset) => {
    checkTrailer(offset);
    memberStart = offset;
  };
  /** Pushes the next step; throws corrupt gzip data or a limit's error. */
  const step = () => {
    // Steps grow only while the ratio so far is far below the limit (a bomb is fed in small steps throughout).
    const calm = expanded < (fed * l.maxCompressionRatio) / 8;
    const stepBytes = calm ? Math.min(GZIP_STEP_MAX_BYTES, Math.max(GZIP_STEP_MIN_BYTES, fed >> 2)) : GZIP_STEP_MIN_BYTES;
    const chunk = bytes.subarray(fed, fed + stepBytes);
    fed += chunk.length;
    const last = fed >= bytes.length;
    try {
      gunzip.push(chunk, last);
      if (last) checkTrailer(bytes.length);
    } catch (err) {
      throw corrupt("gzip", err);
    }
    checkRatio(expanded, fed, l, "inflated");
    // The tar stream holds sizes plus 512-byte headers and padding: allow that overhead.
    if (expanded > l.maxTotalBytes + l.maxEntries * 1024) throw tooBig(l);
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        try {
          while (!out.length && fed < bytes.length) step();
        } catch (err) {
          out = [];
          return controller.error(err);
        }
        if (!out.length) return controller.close();
        controller.enqueue(out.length === 1 ? out[0] : concat(out));
        out = [];
      },
    },
    { highWaterMark: 0 },
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
