/**
 * Nested `.gitignore` matching with git's semantics, built on the `ignore` package.
 *
 * Git reads the `.gitignore` of every directory it descends into. For one path:
 * - rules of `a/b/.gitignore` apply to paths below `a/b/`, relative to `a/b/`;
 * - within one file the last matching rule wins (`!pattern` re-includes);
 * - across files the deepest file with a matching rule wins;
 * - once a directory is excluded git never descends into it, so nothing below it can be
 *   re-included (not even by a `!` rule in a deeper `.gitignore`).
 * See https://git-scm.com/docs/gitignore ("PATTERN FORMAT").
 */
import ignore, { type Ignore } from "ignore";

/** A `.gitignore` found in the tree; `path` is repo-relative, e.g. `src/.gitignore`. */
export interface IgnoreFile {
  path: string;
  content: string;
}

/** Returns `isIgnored(path)` for repo-relative file paths (no leading `/` or `./`). Pure. */
export function createGitignoreMatcher(files: readonly IgnoreFile[]): (path: string) => boolean {
  // Directory ("" for the root) -> its rules. Git is case-sensitive on Linux (core.ignorecase=false).
  const byDir = new Map<string, Ignore>();
  for (const f of files) {
    const slash = f.path.lastIndexOf("/");
    const dir = slash < 0 ? "" : f.path.slice(0, slash);
    const ig = byDir.get(dir) ?? ignore({ ignorecase: false });
    ig.add(f.content);
    byDir.set(dir, ig);
  }
  const dirCache = new Map<string, boolean>();

  /** Verdict for one path (file, or directory when `isDir`), ignoring its parents' state. */
  function ownVerdict(path: string, isDir: boolean): boolean {
    const segments = path.split("/");
    // Deepest .gitignore first: the first one with a matching rule decides.
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const dir = segments.slice(0, depth).join("/");
      const ig = byDir.get(dir);
      if (!ig) continue;
      const rel = segments.slice(depth).join("/") + (isDir ? "/" : "");
      const r = ig.test(rel);
      if (r.ignored) return true;
      if (r.unignored) return false;
    }
    return false;
  }

  function dirIgnored(dir: string): boolean {
    const cached = dirCache.get(dir);
    if (cached !== undefined) return cached;
    const slash = dir.lastIndexOf("/");
    const parentIgnored = slash >= 0 && dirIgnored(dir.slice(0, slash));
    const result = parentIgnored || ownVerdict(dir, true);
    dirCache.set(dir, result);
    return result;
  }

  return (path: string): boolean => {
    if (byDir.size === 0) return false;
    const slash = path.lastIndexOf("/");
    if (slash >= 0 && dirIgnored(path.slice(0, slash))) return true;
    return ownVerdict(path, false);
  };
}
