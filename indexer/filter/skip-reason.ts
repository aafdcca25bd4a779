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
 * - `path_too_long`: a path longer than the read routes accept (MAX_PATH_CHARS, 1,024), so that
 *   everything searchable can be read.
 * - `unsupported_encoding`: text in an encoding that could not be detected or decoded.
 * - `unsafe_path`: a path with a control character (newline, tab, ESC ...), a bidi override
 *   or a line separator (path-safety.ts); recorded with those characters escaped.
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
  | "unsupported"
  | "path_too_long"
  | "unsupported_encoding"
  | "unsafe_path";

/**
 * A skip decision: the reason, and the rule that fired (`dir:node_modules`, `name:.envrc`,
 * `secretlint/aws`, `content:webpack-bootstrap` ...). Rule ids never contain file content.
 */
export interface Skip {
  reason: SkipReason;
  rule: string;
}

/** Longest path (characters) that is indexed: the read routes' limit (worker/services/files.ts `repoPathSchema`). */
export const MAX_PATH_CHARS = 1024;

/** Every reason, in a stable order (for status tables and tests). */
export const SKIP_REASONS: readonly SkipReason[] = [
  "ignored",
  "too_large",
  "binary",
  "secret",
  "vendored",
  "generated",
  "lockfile",
  "minified",
  "symlink",
  "submodule",
  "unsupported",
  "path_too_long",
  "unsupported_encoding",
  "unsafe_path",
];
