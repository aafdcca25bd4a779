/**
 * @module indexer/source/archive
 *
 * Reads an uploaded tar.gz, tar or zip into file entries, with limits against archive bombs and
 * path traversal. Used by `POST /api/repos/{id}/archive`; the entries then go through the same
 * filters and pipeline as a git tree.
 *
 * Libraries: gzip via `fflate`'s synchronous `Gunzip`, with each member's CRC-32 and ISIZE
 * trailer checked (a stream cut short or followed by other bytes is refused), paced so that a
 * bomb is refused a step after the ratio passes the limit (archive-gunzip.ts); zip via `fflate`,
 * its declared sizes checked before anything is inflated;
 * tar via `modern-tar` (web streams). The gzip output is streamed into the tar decoder, so the
 * expanded tar is never held whole: only entries within `maxFileBytes` are kept.
 *
 * Integrity: an upload replaces the repo's snapshot, so anything less than a whole archive is
 * refused (`archive_invalid`), never indexed in part: a tar entry shorter than its header says,
 * a tar without its end-of-archive blocks, a gzip whose trailer is missing or wrong, a NUL in
 * an entry name, and a path listed twice.
 *
 * Zip entries carry no reliable unix mode through fflate, so every zip entry is reported as a
 * regular file ("100644"); a symlink stored in a zip is indexed as the text of its target path.
 */
import { createTarDecoder, type ParsedTarEntry } from "modern-tar";
import { unzipSync } from "fflate";
import { CodeSearchError } from "../../kernel/errors";
import { gunzipStream } from "./archive-gunzip";
import { checkRatio, corrupt, DEFAULT_ARCHIVE_LIMITS, tooBig, tooMany, type ArchiveLimits } from "./archive-limits";
import { normaliseEntryPath, stripPaths, type StripOption } from "./archive-paths";

export { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits";

/** One file (or link) of an archive. Paths are repo-relative, `/`-separated, after the `StripOption` was applied. */
export interface ArchiveEntry {
  path: string;
  /** Git-style mode: "100644", "100755" or "120000" (symlinks and hard links; bytes empty). */
  mode: string;
  /** File content; empty when `tooLarge`. */
  bytes: Uint8Array;
  /** Size in bytes as recorded in the archive. */
  size: number;
  /** True when `size` exceeds `maxFileBytes`: the bytes were not read. */
  tooLarge?: boolean;
}

/** Bytes of input fed to the tar stream per step. */
const STREAM_STEP_BYTES = 64 * 1024;
/** A tar ends with two 512-byte zero blocks (POSIX ustar, "end of archive"). */
const TAR_END_BYTES = 1024;

/** How to build a good upload, appended to the messages that reject an empty or foreign one. */
const HOW_TO_BUILD = "build it from inside the folder: tar czf - -C <folder> . | curl --data-binary @- .../archive (or npm start -- <folder>)";

/**
 * Reads a tar.gz (also `.tgz`), plain tar or zip, detected by magic bytes, and applies `strip`
 * (default `"auto"`: only a recognisable wrapper folder is removed; see archive-paths.ts).
 * @returns the entries (files and links) in archive order; folders are dropped.
 * @throws CodeSearchError `archive_invalid` (empty body, unknown format, gzip data without a
 *   tar inside, no files at all, corrupt data, unsafe path, bomb, a `strip` too deep) or
 *   `payload_too_large` (too many entries or too many expanded bytes).
 */
export async function readArchive(bytes: Uint8Array, limits: Partial<ArchiveLimits> = {}, strip: StripOption = "auto"): Promise<ArchiveEntry[]> {
  const l: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  let entries: ArchiveEntry[];
  if (bytes.length === 0) throw new CodeSearchError("archive_invalid", `The request body is empty; send the archive bytes as the body (${HOW_TO_BUILD}).`);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) entries = await readTar(gunzipStream(bytes, l), l, "gzip");
  else if (bytes[0] === 0x50 && bytes[1] === 0x4b) entries = readZip(bytes, l);
  else if (isTar(bytes) || isEmptyTar(bytes)) entries = await readTar(chunkStream(bytes), l, "tar");
  else throw new CodeSearchError("archive_invalid", "The upload is not a tar.gz, tar or zip archive; send one of those (npm start builds a tar.gz).");
  entries = entries.filter((e) => e.path !== "");
  // Nothing to index is a mistake (an empty folder, the wrong file): refuse it rather than
  // replace a working index with an empty one. Files that the filters later skip still count.
  if (entries.length === 0) throw new CodeSearchError("archive_invalid", `The archive holds no files; ${HOW_TO_BUILD}.`);
  const stripped = stripPaths(
    entries.map((e) => e.path),
    strip,
  );
  entries.forEach((e, i) => (e.path = stripped.paths[i]));
  refuseDuplicates(entries);
  return entries;
}

/**
 * Two entries for one path: tar lets the later one win silently, and which one a tool keeps
 * differs, so the upload is refused naming the path rather than indexing a guess.
 */
function refuseDuplicates(entries: readonly ArchiveEntry[]): void {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.path)) {
      throw new CodeSearchError(
        "archive_invalid",
        `The archive lists a path more than once: ${JSON.stringify(e.path.slice(0, 300))}; re-create it so that each file appears once.`,
      );
    }
    seen.add(e.path);
  }
}

/** ustar magic at offset 257 ("ustar\0" POSIX, "ustar " GNU). */
function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= 512 && new TextDecoder().decode(bytes.subarray(257, 262)) === "ustar";
}

/** A tar with no entries is only its two zero end blocks (tools pad it to 10,240 bytes). */
function isEmptyTar(bytes: Uint8Array): boolean {
  return bytes.length >= 1024 && bytes.length % 512 === 0 && isZeroBlock(bytes.subarray(0, 512));
}

function isZeroBlock(block: Uint8Array): boolean {
  return block.every((b) => b === 0);
}

/** A stream of `bytes` in slices of `step` bytes, produced as the consumer pulls. */
function chunkStream(bytes: Uint8Array, step = STREAM_STEP_BYTES): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + step));
        offset += step;
      },
    },
    { highWaterMark: 0 },
  );
}

/** Git mode for a tar header: executable bit -> 100755. */
function tarMode(entry: ParsedTarEntry): string {
  const t = entry.header.type ?? "file";
  if (t === "symlink" || t === "link") return "120000";
  return (entry.header.mode ?? 0o644) & 0o111 ? "100755" : "100644";
}

/** Reads one entry's body; fewer bytes than the header's `size` means the tar was cut short. */
async function readBody(body: ReadableStream<Uint8Array>, size: number, path: string): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > size) throw new CodeSearchError("archive_invalid", "A tar entry is longer than its header says; re-create the archive.");
    out.set(value, at);
    at += value.length;
  }
  if (at !== size) throw truncatedAt(path);
  return out;
}

function truncatedAt(path: string): CodeSearchError {
  return new CodeSearchError(
    "archive_invalid",
    `The tar data ends inside an entry (${JSON.stringify(path.slice(0, 200))} is truncated); the upload was cut short or the archive is damaged. Re-create it and upload again.`,
  );
}

/** What `sniff` saw of the raw tar stream: its first 512 bytes, its last TAR_END_BYTES, its length. */
interface TarSniff {
  head: Uint8Array;
  headLength: number;
  tail: Uint8Array;
  total: number;
}

/** Passes a stream through, keeping its first header block and its last TAR_END_BYTES in `seen`. */
function sniff(input: ReadableStream<Uint8Array>, seen: TarSniff): ReadableStream<Uint8Array> {
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (seen.headLength < 512) {
          const take = chunk.subarray(0, 512 - seen.headLength);
          seen.head.set(take, seen.headLength);
          seen.headLength += take.length;
        }
        if (chunk.length >= TAR_END_BYTES) seen.tail = chunk.slice(chunk.length - TAR_END_BYTES);
        else {
          const joined = new Uint8Array(seen.tail.length + chunk.length);
          joined.set(seen.tail);
          joined.set(chunk, seen.tail.length);
          seen.tail = joined.slice(Math.max(0, joined.length - TAR_END_BYTES));
        }
        seen.total += chunk.length;
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Reads tar entries. `container` names what held the tar for the message when there is none:
 * the tar decoder yields no entries (and no error) for data that is not a tar, so a first block
 * that is neither a header nor zeros means "not a tar" (e.g. `gzip -c file`, a gzipped zip).
 */
async function readTar(input: ReadableStream<Uint8Array>, l: ArchiveLimits, container: "gzip" | "tar"): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  let count = 0;
  let total = 0;
  const seen: TarSniff = { head: new Uint8Array(512), headLength: 0, tail: new Uint8Array(0), total: 0 };
  const reader = sniff(input, seen).pipeThrough(createTarDecoder()).getReader();
  try {
    for (;;) {
      const { done, value: entry } = await reader.read();
      if (done) break;
      if (++count > l.maxEntries) throw tooMany(l);
      const size = entry.header.size ?? 0;
      total += size;
      if (total > l.maxTotalBytes) throw tooBig(l);
      const type = entry.header.type ?? "file";
      const path = normaliseEntryPath(entry.header.name);
      const keep = path !== null && (type === "file" || type === "symlink" || type === "link");
      if (!keep || type !== "file") {
        await entry.body.cancel();
        if (keep) entries.push({ path, mode: "120000", bytes: new Uint8Array(0), size: 0 });
        continue;
      }
      if (size > l.maxFileBytes) {
        await entry.body.cancel();
        entries.push({ path, mode: tarMode(entry), bytes: new Uint8Array(0), size, tooLarge: true });
        continue;
      }
      entries.push({ path, mode: tarMode(entry), bytes: await readBody(entry.body, size, path), size });
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err instanceof CodeSearchError ? err : corrupt("tar", err);
  }
  if (count === 0 && seen.headLength > 0 && !isZeroBlock(seen.head.subarray(0, seen.headLength))) {
    const what =
      container === "gzip"
        ? "The gzip data does not contain a tar archive (gzip -c of a single file, or a gzipped zip, is not a tar.gz)"
        : "The tar data has no valid header";
    throw new CodeSearchError("archive_invalid", `${what}; ${HOW_TO_BUILD}.`);
  }
  // Every writer (tar, bsdtar, git archive, modern-tar) ends with at least two zero blocks; a
  // stream that stops right after an entry was cut at a block boundary.
  if (count > 0 && (seen.tail.length < TAR_END_BYTES || !isZeroBlock(seen.tail))) {
    throw new CodeSearchError(
      "archive_invalid",
      `The tar data has no end-of-archive blocks: the upload was cut short after ${count} entries. Re-create the archive and upload again.`,
    );
  }
  return entries;
}

/**
 * Reads a zip in two passes over its central directory: the first only sums the sizes the
 * entries declare and applies the limits (entries, total, ratio) before a byte is inflated; the
 * second inflates the kept entries. fflate inflates each into a buffer of its declared size,
 * so a lying header cannot expand further than was checked.
 */
function readZip(bytes: Uint8Array, l: ArchiveLimits): ArchiveEntry[] {
  const meta: { name: string; path: string; size: number; tooLarge: boolean }[] = [];
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    unzipSync(bytes, {
      filter(f) {
        if (meta.length >= l.maxEntries) throw tooMany(l);
        const path = normaliseEntryPath(f.name);
        if (path === null || f.name.endsWith("/") || f.name.endsWith("\\")) return false;
        total += f.originalSize;
        if (total > l.maxTotalBytes) throw tooBig(l);
        meta.push({ name: f.name, path, size: f.originalSize, tooLarge: f.originalSize > l.maxFileBytes });
        return false;
      },
    });
    checkRatio(total, bytes.length, l, "declared");
    const wanted = new Set(meta.filter((m) => !m.tooLarge).map((m) => m.name));
    files = unzipSync(bytes, { filter: (f) => wanted.has(f.name) });
  } catch (err) {
    throw err instanceof CodeSearchError ? err : corrupt("zip", err);
  }
  return meta.map((m) => ({
    path: m.path,
    mode: "100644",
    bytes: m.tooLarge ? new Uint8Array(0) : Object.hasOwn(files, m.name) ? files[m.name] : new Uint8Array(0),
    size: m.size,
    ...(m.tooLarge ? { tooLarge: true } : {}),
  }));
}
