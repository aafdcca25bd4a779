/**
 * Path checks for archive entries: reject traversal, normalise the rest. Pure.
 */
import { CodeSearchError } from "../../worker/errors";

/**
 * Normalises an archive entry name to a repo-relative path (`a/b.ts`), or returns null for
 * names that denote the root (`./`). Backslashes count as separators (zips written on Windows).
 * @throws CodeSearchError("archive_invalid") for absolute paths, drive letters, `..` segments
 *   or NUL bytes: such an archive is rejected as a whole, never partially used.
 */
export function normaliseEntryPath(name: string): string | null {
  const slashed = name.replace(/\\/g, "/");
  if (slashed.includes("\0") || slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) {
    throw unsafe(name);
  }
  const segments: string[] = [];
  for (const seg of slashed.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") throw unsafe(name);
    segments.push(seg);
  }
  return segments.length ? segments.join("/") : null;
}

function unsafe(name: string): CodeSearchError {
  return new CodeSearchError(
    "archive_invalid",
    `The archive has an unsafe entry path ${JSON.stringify(name.slice(0, 200))} (absolute, drive letter or ".."); build it from inside the folder with relative paths.`,
  );
}

/**
 * Removes a top-level folder shared by every path (GitHub tarballs wrap the tree in
 * `owner-repo-sha/`). Returns the paths unchanged when there is none, or when a path sits at the
 * top level.
 */
export function stripCommonRoot(paths: readonly string[]): { prefix: string; paths: string[] } {
  if (paths.length === 0) return { prefix: "", paths: [] };
  const first = paths[0].split("/")[0];
  const shared = paths.every((p) => p.startsWith(`${first}/`));
  if (!shared) return { prefix: "", paths: [...paths] };
  return { prefix: `${first}/`, paths: paths.map((p) => p.slice(first.length + 1)) };
}
