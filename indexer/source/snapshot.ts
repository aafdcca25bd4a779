/**
 * @module indexer/source/snapshot
 *
 * What a source (a git fetch or an uploaded archive) hands the coordinator: the snapshot's
 * commit id and its tree as (path, mode, blob SHA) entries, plus a way to read a blob.
 * Blob SHAs are git's (`sha1("blob <len>\0" + bytes)`) for both sources, so a file is
 * content-addressed the same way whichever way it arrived.
 */
/** One tree entry. `mode` is git's octal string: `100644`, `100755`, `120000` (symlink), `160000` (submodule). */
export interface SourceEntry {
  path: string;
  mode: string;
  blobSha: string;
  /** Size in bytes when the source knows it without reading the blob (archives); git trees do not record it. */
  size?: number;
}

/** A resolved snapshot: commit id, flat tree (files, symlinks, submodules; no directories), blob reader. */
export interface SourceSnapshot {
  /** Git commit SHA, or `archive-<sha1>` for uploads. */
  commit: string;
  entries: SourceEntry[];
  /**
   * True when every entry is a tracked file (a git tree, or an upload listed by `git ls-files`):
   * `.gitignore` rules then do not apply, as git ignores untracked files only.
   */
  tracked?: boolean;
  /** Bytes of a blob of this snapshot. Throws if the SHA is not in it. */
  readBlob(blobSha: string): Promise<Uint8Array>;
}

/** Hex SHA-1 of `bytes`. */
export async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Git blob SHA of `bytes`: `sha1("blob <len>\0" + bytes)`, as `git hash-object` computes it. */
export async function gitBlobSha(bytes: Uint8Array): Promise<string> {
  const head = new TextEncoder().encode(`blob ${bytes.byteLength}\0`);
  const all = new Uint8Array(head.byteLength + bytes.byteLength);
  all.set(head);
  all.set(bytes, head.byteLength);
  return sha1Hex(all);
}
