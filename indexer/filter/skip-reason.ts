/**
 * Why a file of a repo is not indexed. Counted by reason in the repo status
 * (`GET /api/repos/{id}`), so the names are part of the API.
 * - `ignored`: excluded by a `.gitignore` of the tree.
 * - `too_large`: larger than `maxFileBytes` (default 1 MiB, `MAX_FILE_BYTES`).
 * - `binary`: a binary format by extension, or NUL / non-text bytes in the content.
 * - `secret`: a credential file by name, or a private key / token found in the content.
 * - `vendored`: below a dependency or build-output directory (`node_modules/`, `dist/` ...).
 * - `generated`: generated code (name convention or a "do not edit" header), source maps.
 * - `lockfile`: dependency lockfiles (`package-lock.json`, `go.sum` ...).
 * - `minified`: `*.min.js` / `*.min.css`, or very long average line length.
 * - `symlink`, `submodule`: git modes 120000 and 160000; never followed.
 * - `unsupported`: any other git mode (e.g. a tree entry passed by mistake).
 */
export type SkipReason =
  | "ignored"
  | "too_large"
  | "binary"
  | "secret"
  | "vendored"
  | "generated"
  | "lockfile"
  | "minified"
  | "symlink"
  | "submodule"
  | "unsupported";

/** Every reason, in a stable order (for status tables and tests). */
export const SKIP_REASONS: readonly SkipReason[] = [
  "ignored", "too_large", "binary", "secret", "vendored", "generated", "lockfile", "minified", "symlink", "submodule", "unsupported",
];
