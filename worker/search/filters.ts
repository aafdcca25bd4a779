/**
 * @module worker/search/filters
 *
 * Search filters as SQL over the `chunks` table (alias `c`) and as a predicate, kept in one
 * place so every channel filters alike. Pure.
 */
import type { SearchFilters } from "./types";

/**
 * Paths treated as tests (GLOB patterns, matched against the whole repo-relative path):
 * common conventions of JS/TS, Python, Go, Ruby, Java and Rust projects.
 */
export const TEST_PATH_GLOBS = [
  "test/*",
  "*/test/*",
  "tests/*",
  "*/tests/*",
  "__tests__/*",
  "*/__tests__/*",
  "spec/*",
  "*/spec/*",
  "testing/*",
  "*/testing/*",
  "*.test.*",
  "*.spec.*",
  "*_test.go",
  "*_test.py",
  "test_*.py",
  "*/test_*.py",
  "*_spec.rb",
  "*Test.java",
  "*Tests.java",
  "*/src/test/*",
  "test.c",
  "*/test.c",
  "test_*.c",
  "*/test_*.c",
  "*_test.c",
  "*_test.cc",
  "*_test.cpp",
  "*_unittest.cc",
  "*Test.kt",
  "*Tests.kt",
  "*Test.cs",
  "*Tests.cs",
  "testdata/*",
  "*/testdata/*",
];

/**
 * Tests written inside source files: Rust's `#[cfg(test)] mod tests { ... }` (by convention
 * `tests` or `test`), whose functions the chunker gives that module as container. SQL over
 * chunks `c`; never NULL (a chunk without container or symbol is not one), so `NOT` keeps it.
 */
export const INLINE_TEST_SQL =
  "(c.language = 'rust' AND (IFNULL(c.container, '') IN ('tests', 'test') OR (c.kind = 'module' AND IFNULL(c.symbol, '') IN ('tests', 'test'))))";

/** A GLOB pattern (`*`, `?`, no classes) as the body of a regular expression. */
function globToRegExpSource(glob: string): string {
  return glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
}
/** TEST_PATH_GLOBS as one alternation: one regex test per path instead of one per glob (the path channel tests every file of a snapshot). */
const TEST_PATH_RE = new RegExp(`^(?:${TEST_PATH_GLOBS.map(globToRegExpSource).join("|")})$`);

/**
 * Words one of which every test path contains: each glob of TEST_PATH_GLOBS has one in its
 * literal text. A path without any is no test, which a few substring checks decide before the
 * globs run, in SQL as in isTestPath: the test filter was half the CPU of a short query's BM25
 * statement (every matching chunk ran all the GLOBs; profile, docs/experiments/round-12.md).
 */
export const TEST_PATH_WORDS = ["test", "Test", "spec"];
/** Whether the shortcut holds: every glob has one of TEST_PATH_WORDS in a literal part (no `[...]` classes). */
const TEST_WORDS_GUARD = TEST_PATH_GLOBS.every((g) => !g.includes("[") && g.split(/[*?]/).some((part) => TEST_PATH_WORDS.some((w) => part.includes(w))));

/** Whether a path is a test file by the conventions in TEST_PATH_GLOBS. */
export function isTestPath(path: string): boolean {
  if (TEST_WORDS_GUARD && !TEST_PATH_WORDS.some((w) => path.includes(w))) return false;
  return TEST_PATH_RE.test(path);
}

/** SQL true for the test paths of chunks `c` (TEST_PATH_GLOBS; SQLite stops at the first false AND operand, so most paths skip the globs). */
const TEST_PATH_SQL = (() => {
  const globs = `(${TEST_PATH_GLOBS.map((g) => `c.path GLOB '${g}'`).join(" OR ")})`;
  return TEST_WORDS_GUARD ? `((${TEST_PATH_WORDS.map((w) => `instr(c.path, '${w}') > 0`).join(" OR ")}) AND ${globs})` : globs;
})();

/** Upper bound of a string prefix range: every string starting with `prefix` sorts below it. */
function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The set of a filter's `paths`, built once per list (the vector channel tests each candidate). */
const pathSets = new WeakMap<string[], Set<string>>();
function pathSet(paths: string[]): Set<string> {
  let set = pathSets.get(paths);
  if (!set) pathSets.set(paths, (set = new Set(paths)));
  return set;
}

/** SQL conditions (joined with AND, leading " AND ") and their parameters, for alias `c`. */
export function filterSql(filters: SearchFilters): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  if (filters.language) {
    parts.push("c.language = ?");
    params.push(filters.language);
  }
  if (filters.pathPrefix) {
    parts.push("c.path >= ? AND c.path < ?");
    params.push(filters.pathPrefix, prefixEnd(filters.pathPrefix));
  }
  // A glob's paths travel as one JSON parameter, however many files match.
  if (filters.paths) {
    parts.push("c.path IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filters.paths));
  }
  if (!filters.includeTests) parts.push(`NOT ${TEST_PATH_SQL}`, `NOT ${INLINE_TEST_SQL}`);
  return { sql: parts.map((p) => ` AND ${p}`).join(""), params };
}

/**
 * The same filters as a predicate over a chunk's path and language; `inlineTest` says whether
 * the chunk is an inline test (INLINE_TEST_SQL; leave it out for a whole file). `testPath`:
 * `isTestPath(path)`, when the caller keeps it (a snapshot's cached file list).
 */
export function passesFilters(filters: SearchFilters, path: string, language: string, inlineTest = false, testPath?: boolean): boolean {
  if (filters.language && language !== filters.language) return false;
  if (filters.pathPrefix && !path.startsWith(filters.pathPrefix)) return false;
  if (filters.paths && !pathSet(filters.paths).has(path)) return false;
  return filters.includeTests || (!(testPath ?? isTestPath(path)) && !inlineTest);
}
