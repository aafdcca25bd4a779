/**
 * Path checks for archive entries: reject traversal, normalise the rest. Pure.
 */
import { CodeSearchError } from "../../kernel/errors";

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
 * How the top folder of an upload is handled (`?strip=` on `POST /api/repos/{id}/archive`):
 * - `"auto"` (default): strip one top folder only when it is a recognisable wrapper (see
 *   `wrapperRoot`), never a folder of the user's tree such as `src/`;
 * - a number N (0-8): strip exactly N leading folders from every entry, like `tar
 *   --strip-components=N`; 0 keeps every path as it is.
 */
import type { StripOption } from "../../kernel/coordinator";
export type { StripOption };

/** Most folders `?strip=N` may remove. */
export const MAX_STRIP_COMPONENTS = 8;

/** `<name>-<hex sha>`: GitHub (`owner-repo-1a2b3c4`), GitLab and codeload (`repo-<40 hex>`) tarball and zipball roots. */
const SHA_WRAPPER = /^.+-[0-9a-f]{7,40}$/;

/**
 * Files that mark the root of a project. A single top folder that holds one of them directly is
 * the project itself archived from its parent (`tar czf p.tgz proj/`, `git archive
 * --prefix=proj/`, GitHub's "Download ZIP" `repo-main/`), not a folder inside the project.
 * README and Makefile are left out on purpose: `docs/` and `src/` often hold one.
 */
const PROJECT_ROOT_FILES: ReadonlySet<string> = new Set([
  ".gitignore",
  ".gitattributes",
  ".editorconfig",
  "package.json",
  "deno.json",
  "go.mod",
  "Cargo.toml",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "settings.gradle",
  "build.sbt",
  "Gemfile",
  "composer.json",
  "mix.exs",
  "Package.swift",
  "Dockerfile",
  "docker-compose.yml",
  "docker-compose.yaml",
  "LICENSE",
  "LICENSE.md",
  "LICENSE.txt",
  "COPYING",
]);

/**
 * The top folder every path shares when it is a recognisable wrapper, else null. A wrapper is a
 * root named `<name>-<hex sha>` (7-40 hex digits), or a root that directly holds a project-root
 * file (PROJECT_ROOT_FILES). A path at the top level, or two top folders, means no wrapper.
 */
export function wrapperRoot(paths: readonly string[]): string | null {
  if (paths.length === 0) return null;
  const first = paths[0].split("/")[0];
  if (!paths.every((p) => p.startsWith(`${first}/`))) return null;
  if (SHA_WRAPPER.test(first)) return first;
  return paths.some((p) => PROJECT_ROOT_FILES.has(p.slice(first.length + 1))) ? first : null;
}

/**
 * Applies a `StripOption` to archive paths (files only, already normalised).
 * @returns the new paths (same order) and the removed prefix ("" when nothing was stripped).
 * @throws CodeSearchError("archive_invalid") when `strip=N` would remove a file's own name, i.e.
 *   a file sits fewer than N+1 levels deep: such a file would otherwise vanish without a word.
 */
export function stripPaths(paths: readonly string[], strip: StripOption): { prefix: string; paths: string[] } {
  if (strip === "auto") {
    const root = wrapperRoot(paths);
    return root === null ? { prefix: "", paths: [...paths] } : { prefix: `${root}/`, paths: paths.map((p) => p.slice(root.length + 1)) };
  }
  if (strip === 0) return { prefix: "", paths: [...paths] };
  const out = paths.map((p) => {
    const segs = p.split("/");
    if (segs.length <= strip) {
      throw new CodeSearchError(
        "archive_invalid",
        `strip=${strip} would remove the whole path of "${p.slice(0, 200)}"; pass a smaller strip, or strip=0 to keep paths as they are.`,
      );
    }
    return segs.slice(strip).join("/");
  });
  // For messages only: what was removed from the first path.
  return { prefix: `${paths[0].split("/").slice(0, strip).join("/")}/`, paths: out };
}
