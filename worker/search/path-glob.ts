/**
 * @module worker/search/path-glob
 *
 * Path globs for grep and file listings, on picomatch: `**` crosses folders, `{a,b}` and
 * `[a-z]` work, dotfiles match, and a glob without `/` matches the file name at any depth (as
 * ripgrep's `-g` and .gitignore do: `*.proto` is `**\/*.proto`). Separators are always `/`
 * (indexed paths are POSIX). Pure.
 */
import picomatch from "picomatch";

/** Whether `path` is a glob (has `*`, `?`, `[` or `{`) rather than a plain prefix. */
export function isGlob(path: string): boolean {
  return /[*?[{]/.test(path);
}

/** A predicate over repo-relative paths for `glob`, and the literal folder prefix every match starts with ("" when none). */
export function compileGlob(glob: string): { test: (path: string) => boolean; prefix: string } {
  // picomatch's own `basename` option also rewrites globs that have a slash, so do it here.
  const test = picomatch(glob.includes("/") ? glob : `**/${glob}`, { dot: true, windows: false });
  const base = picomatch.scan(glob).base;
  // The base is a literal leading folder ("src/router" of "src/router/*.ts"); a basename glob has none.
  const prefix = glob.includes("/") && base ? `${base}/` : "";
  return { test, prefix };
}
