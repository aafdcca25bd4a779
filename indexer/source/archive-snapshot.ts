/**
 * @module indexer/source/archive-snapshot
 *
 * An uploaded archive as a `SourceSnapshot`: entries get git blob SHAs computed from their
 * bytes, so a file uploaded in an archive and the same file fetched from git share a file id.
 * The snapshot's commit id is `archive-<sha1>` over the sorted `path \0 blobSha` lines: the same
 * tree uploaded twice is the same snapshot.
 */
import { readArchive, type ArchiveLimits } from "./archive";
import type { StripOption } from "./archive-paths";
import { gitBlobSha, sha1Hex, type SourceEntry, type SourceSnapshot } from "./snapshot";

/**
 * Reads `bytes` (tar.gz, tar or zip) into a snapshot; `strip` as in `readArchive` (default
 * `"auto"`). Throws `archive_invalid` / `payload_too_large`.
 */
export async function archiveSnapshot(bytes: Uint8Array, limits: Partial<ArchiveLimits> = {}, strip: StripOption = "auto"): Promise<SourceSnapshot> {
  const archive = await readArchive(bytes, limits, strip);
  const blobs = new Map<string, Uint8Array>();
  const entries: SourceEntry[] = [];
  for (const e of archive) {
    // Files over the size cap were not read: no SHA can be computed; the filter skips them by size.
    const blobSha = e.tooLarge ? `too-large-${e.size}` : await gitBlobSha(e.bytes);
    if (!e.tooLarge) blobs.set(blobSha, e.bytes);
    entries.push({ path: e.path, mode: e.mode, blobSha, size: e.size });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const listing = new TextEncoder().encode(entries.map((e) => `${e.path}\0${e.blobSha}\n`).join(""));
  return {
    commit: `archive-${await sha1Hex(listing)}`,
    entries,
    async readBlob(blobSha: string) {
      const b = blobs.get(blobSha);
      if (!b) throw new Error(`blob ${blobSha} is not in this archive`);
      return b;
    },
  };
}
