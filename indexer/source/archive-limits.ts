/**
 * @module indexer/source/archive-limits
 *
 * The limits an archive is read under and the errors that refuse one (archive.ts, archive-gunzip.ts).
 */
import { CodeSearchError } from "../../kernel/errors";

/** Limits applied while reading an archive. Defaults in `DEFAULT_ARCHIVE_LIMITS`. */
export interface ArchiveLimits {
  /** Most entries (files, folders, links) the archive may hold; more -> `payload_too_large`. */
  maxEntries: number;
  /** Most bytes the archive may expand to (sum of entry sizes); more -> `payload_too_large`. */
  maxTotalBytes: number;
  /** Larger files are returned without bytes and with `tooLarge: true` (they count as skipped). */
  maxFileBytes: number;
  /** Expanded / compressed size above which (past `ratioFloorBytes`) the archive is a bomb -> `archive_invalid`. */
  maxCompressionRatio: number;
  /** The ratio check starts once this many bytes are expanded; small archives of repetitive text pass. */
  ratioFloorBytes: number;
}

/**
 * Defaults. 256 MiB expanded and 100k entries cover large monorepos uploaded by `npm start`;
 * DEFLATE's own maximum ratio is about 1032:1, source trees compress 3-20:1, so 250:1 past
 * 16 MiB only catches bombs.
 */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFileBytes: 1024 * 1024,
  maxCompressionRatio: 250,
  ratioFloorBytes: 16 * 1024 * 1024,
};

/** `payload_too_large`: more than `maxEntries` entries. */
export function tooMany(l: ArchiveLimits): CodeSearchError {
  return new CodeSearchError("payload_too_large", `The archive has more than ${l.maxEntries} entries; upload a smaller folder or exclude build output.`);
}

/** `payload_too_large`: more than `maxTotalBytes` expanded. */
export function tooBig(l: ArchiveLimits): CodeSearchError {
  return new CodeSearchError(
    "payload_too_large",
    `The archive expands to more than ${l.maxTotalBytes} bytes; upload a smaller folder or exclude large assets.`,
  );
}

/**
 * Refuses a bomb: past `ratioFloorBytes`, more than `maxCompressionRatio` expanded bytes per
 * compressed byte. `expanded` is what was inflated so far (gzip) or what the entries declare
 * (zip, checked before inflating); the error's details say which and how much.
 */
export function checkRatio(expanded: number, compressed: number, l: ArchiveLimits, basis: "inflated" | "declared"): void {
  if (expanded > l.ratioFloorBytes && expanded / Math.max(compressed, 1) > l.maxCompressionRatio) {
    throw new CodeSearchError(
      "archive_invalid",
      `The archive expands more than ${l.maxCompressionRatio}:1 (${expanded} bytes ${basis} from ${compressed} compressed bytes), which looks like a decompression bomb; reading stopped there.`,
      { expandedBytes: expanded, compressedBytes: compressed, basis },
    );
  }
}

/** `archive_invalid` for data the decoder refused, with its message (120 chars at most). */
export function corrupt(format: string, err: unknown): CodeSearchError {
  const detail = err instanceof Error ? err.message : String(err);
  return new CodeSearchError("archive_invalid", `The ${format} data is corrupt (${detail.slice(0, 120)}); re-create the archive.`);
}
