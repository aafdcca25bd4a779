/**
 * @module worker/search/path-filter
 *
 * The `path_prefix` filter as users write it: a prefix in any of the forms a shell, an editor or
 * Windows gives (`./src/`, `/src/`, `src\`, `src//router/`), or a glob (`src/*`, `src/** /*.ts`,
 * `*.{ts,tsx}`; picomatch's syntax, run on RE2, through worker/search/path-glob.ts, as grep and the file
 * listing read globs). Normalized once, at the service edge, into a plain prefix or a glob
 * matcher. Pure.
 */
import { compileGlob } from "./path-glob";

/** A normalized path filter: a repo-relative prefix, or a glob with its matcher. */
export type PathFilter = { kind: "prefix"; prefix: string } | { kind: "glob"; glob: string; matches: (path: string) => boolean };

/** Characters that make a filter a glob (picomatch's wildcards, classes, braces and extglobs). */
const GLOB_CHARS_RE = /[*?[\]{}!]|[@+]\(/;

/**
 * Normalizes what a caller passed as `path_prefix`. Backslashes become `/`; leading `./` and `/`,
 * `.` segments and repeated `/` are dropped; a trailing `/**` (or `/** /*`) is a prefix (every
 * path under the folder). Other forms with wildcards are globs (dotfiles included; `*` stays
 * within a folder, `**` crosses folders, a glob without `/` matches the file name at any depth, as
 * in grep's and the tree route's globs). Throws `invalid_input` for a glob compileGlob refuses
 * (more than GLOB_MAX_WILDCARDS wildcards). Returns null for a filter that
 * selects everything (``, `.`, `/`, `**`). Case is kept: paths are case-sensitive in git.
 */
export function normalizePathFilter(raw: string): PathFilter | null {
  let s = raw
    .trim()
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/");
  s = s
    .split("/")
    .filter((seg, i, all) => seg !== "." || i === all.length - 1)
    .join("/");
  s = s.replace(/^\/+/, "").replace(/^\.$/, "");
  const under = /^(.*?)\/\*\*(\/\*)?$/.exec(s);
  if (under && !GLOB_CHARS_RE.test(under[1])) s = `${under[1]}/`;
  if (s === "" || s === "/" || s === "**" || s === "**/*") return null;
  if (GLOB_CHARS_RE.test(s)) {
    const { test } = compileGlob(s, { field: "path_prefix" });
    return { kind: "glob", glob: s, matches: test };
  }
  return { kind: "prefix", prefix: s };
}

/** Whether `path` passes the filter. */
export function pathPasses(filter: PathFilter, path: string): boolean {
  return filter.kind === "prefix" ? path.startsWith(filter.prefix) : filter.matches(path);
}
