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
 * Packs files under a top folder `root/` (the product strips one common top folder, as
 * `git archive --prefix` and GitHub tarballs have one) and gzips the tar.
 */
export async function buildTarGz(files: CorpusFile[], root = "corpus"): Promise<Uint8Array> {
  const entries: TarEntry[] = files.map((f) => ({
    header: { name: `${root}/${f.path}`, size: f.bytes.byteLength, type: "file", mode: 0o644 },
    body: f.bytes,
  }));
  const tar = await packTar(entries);
  return gzipSync(tar, { level: 6 });
}
