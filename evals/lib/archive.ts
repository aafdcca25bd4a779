/**
 * @module evals/lib/archive
 *
 * Builds the tar.gz the harness uploads to `POST /api/repos/{id}/archive`. Pure (modern-tar and
 * fflate run in Node and in workerd), so the CI test and the CLI build the same bytes.
 */
import { gzipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";

/** One file to pack: repo-relative `/`-separated path and its bytes. */
export interface CorpusFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * Packs files at their repo-relative paths (no wrapper folder, so the upload is sent with
 * `?strip=0` and paths match the gold files exactly) and gzips the tar.
 */
export async function buildTarGz(files: CorpusFile[]): Promise<Uint8Array> {
  const entries: TarEntry[] = files.map((f) => ({
    header: { name: f.path, size: f.bytes.byteLength, type: "file", mode: 0o644 },
    body: f.bytes,
  }));
  const tar = await packTar(entries);
  return gzipSync(tar, { level: 6 });
}
