/**
 * @module evals/lib/inclusion
 *
 * Which files of a corpus folder the harness uploads. `whole` sends every file and lets the
 * product's own filters decide (what a user's upload would do). `publisher` reproduces the
 * hono-50 publisher's rule (../shared/bench/README.md): only `src/`, without tests, `.d.ts`,
 * lockfiles, minified and map files.
 */

/** Names of inclusion rules. */
export type InclusionRule = "whole" | "publisher";

const LOCKFILES = new Set([
  "package-lock.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "deno.lock",
  "Cargo.lock",
  "poetry.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
]);

/** Test files by the usual conventions: `*.test.*`, `*.spec.*`, `test/`, `tests/`, `__tests__/`. */
export function isTestPath(path: string): boolean {
  return /(^|\/)(__tests__|tests?)\//.test(path) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(path);
}

/** Whether `path` is part of the upload under `rule`. `.git/` is never uploaded. */
export function includePath(rule: InclusionRule, path: string): boolean {
  if (path.startsWith(".git/") || path === ".git") return false;
  if (rule === "whole") return true;
  const base = path.slice(path.lastIndexOf("/") + 1);
  return (
    path.startsWith("src/") && !isTestPath(path) && !path.endsWith(".d.ts") && !LOCKFILES.has(base) && !/\.min\.[cm]?js$/.test(base) && !base.endsWith(".map")
  );
}
