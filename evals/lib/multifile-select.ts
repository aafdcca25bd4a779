/**
 * @module evals/lib/multifile-select
 *
 * The selection rules of the multi-file set (issue #47): which commits of a repository's history
 * are bug fixes whose change spans 2 to 5 source files. Pure functions over what `git log` printed
 * (evals/build-multifile.ts runs git); the rules are written here once so the set can be rebuilt
 * from the same git directories and checked in tests.
 *
 * A commit is kept when all of these hold:
 * - it is not a merge and its author is not a bot (`[bot]`, dependabot, renovate, pre-commit-ci);
 * - its subject says it fixes something (`fix`, `bug`, `crash`, `regression`, `wrong`, `incorrect`,
 *   `broken`, `error`, `exception`, `leak`, ...) and is not about typos, docs, tests, CI, lint,
 *   typing, formatting, releases or dependencies, nor a revert or a conventional commit of
 *   another kind than `fix` (`feat:`, `refactor:`, `chore:` ...);
 * - the message without trailers and issue references has at least `MIN_WORDS` words;
 * - it modifies 2 to 5 source files (`isSourcePath`) and adds, deletes or renames none: every gold
 *   file exists at the parent commit, where it is searched.
 */

/** Extensions of source files, per language of the set (Python, TypeScript/JavaScript, Go). */
const SOURCE_EXT = /\.(py|pyi|ts|tsx|mts|cts|js|mjs|cjs|jsx|go)$/;

/** Folder names that hold tests, docs, examples, benchmarks or tooling rather than the product. */
const NON_SOURCE_DIR =
  /(^|\/)(tests?|testing|__tests__|test_?data|fixtures?|docs?|examples?|benchmarks?|bench|scripts|tools|\.github|ci|artwork|_?vendor|third_party|dist|build)\//;

/** File names of tests and packaging/tooling files. */
const NON_SOURCE_FILE =
  /(^|\/)(test_[^/]*|[^/]*_test\.(py|go)|[^/]*\.(test|spec|test-d|bench)\.[^/]+|conftest\.py|setup\.py|noxfile\.py|tasks\.py|[^/]*\.config\.[cm]?[jt]s|eslint[^/]*|gulpfile[^/]*)$/;

/** Words in a subject that name a defect. */
const BUG_WORD =
  /\b(fix(es|ed|ing)?|bug(s|fix)?|crash(es|ed|ing)?|regressions?|incorrect(ly)?|wrong(ly)?|broken|errors?|exceptions?|fails?|failures?|failing|leaks?|hangs?|mishandl\w*|invalid)\b/i;

/** Subjects about something other than the product's behaviour. */
const NOT_A_BUG =
  /\b(typos?|docs?|docstrings?|documentation|changelog|readme|tests?|testing|ci|lint(ing|er)?|flake8|mypy|pyright|typing|type hints?|annotations?|format(ting)?|style|release|version|bump|deps?|dependenc(y|ies)|pre-commit|spelling|grammar|warnings?|deprecat\w*)\b/i;

/** Conventional-commit types other than `fix`, reverts, and silencing a type checker. */
const NOT_A_FIX_KIND = /^(revert\b|(chore|refactor|feat|perf|build|style|docs?|tests?|ci)(\([^)]*\))?!?:)|\(types?\)|type[: ]+ignore/i;

/** Authors whose commits are generated. */
const BOT_AUTHOR = /(\[bot\]|dependabot|renovate|pre-commit-ci|github-actions)/i;

/** Fewest words a message needs to be a usable query (after trailers and issue references go). */
export const MIN_WORDS = 5;

/** Fewest and most source files a kept commit modifies. */
export const MIN_FILES = 2;
export const MAX_FILES = 5;

/** One commit as `git log --name-status` printed it. */
export interface LoggedCommit {
  sha: string;
  parents: string[];
  author: string;
  /** ISO 8601 author date. */
  date: string;
  /** Full message: subject, blank line, body. */
  message: string;
  /** Status letter (`M`, `A`, `D`, `R100`, ...) and path(s) per changed file. */
  changes: { status: string; path: string }[];
}

/** Whether `path` (repository-relative, `/`-separated) is product source: by extension, not under a test/docs/tooling folder, not a test file. */
export function isSourcePath(path: string): boolean {
  return SOURCE_EXT.test(path) && !NON_SOURCE_DIR.test(path) && !NON_SOURCE_FILE.test(path);
}

/**
 * The query a message makes: subject and body without trailers (`Signed-off-by:`,
 * `Co-authored-by:` ...), squash-merge bullets of `fixup`/`wip` commits, or trailing whitespace.
 */
export function queryFromMessage(message: string): string {
  return message
    .split("\n")
    .filter((l) => !/^\s*[A-Z][A-Za-z-]*-by:\s/.test(l) && !/^\s*[*-]\s*(fixup|wip|squash)\b/i.test(l))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Words of a message that describe something: without `#123`, `(#123)`, URLs and `fixes #N`-style references. */
function describingWords(query: string): string[] {
  return query
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\b(fix(es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+#\d+/gi, " ")
    .replace(/\(?#\d+\)?/g, " ")
    .split(/\s+/)
    .filter((w) => /[A-Za-z]{2}/.test(w));
}

/** Why `commit` is left out, or null when it is kept (the rules of this module's header). */
export function rejectReason(commit: LoggedCommit): string | null {
  if (commit.parents.length !== 1) return "merge or root commit";
  if (BOT_AUTHOR.test(commit.author)) return "bot author";
  const subject = commit.message.split("\n")[0];
  if (!BUG_WORD.test(subject)) return "subject names no defect";
  if (NOT_A_BUG.test(subject) || NOT_A_FIX_KIND.test(subject)) return "subject is about docs, tests, tooling, typing, a feature or a revert";
  if (describingWords(queryFromMessage(commit.message)).length < MIN_WORDS) return `message under ${MIN_WORDS} words`;
  const source = commit.changes.filter((c) => isSourcePath(c.path));
  if (source.some((c) => c.status[0] !== "M")) return "adds, deletes or renames a source file";
  if (source.length < MIN_FILES || source.length > MAX_FILES) return `${source.length} source files`;
  return null;
}

/** One instance of the set: SWE-bench's shape plus the fixing commit. */
export interface MultifileInstance {
  instance_id: string;
  repo: string;
  /** The fixing commit (for provenance; its tree is never searched). */
  commit: string;
  /** Its parent, whose tree is searched. */
  base_commit: string;
  /** ISO date of the fix, to order instances so that re-indexing between them stays incremental. */
  date: string;
  problem_statement: string;
  gold_files: string[];
}

/**
 * The kept commits of one repository as instances: the `perRepo` most recent ones, returned
 * oldest first (consecutive instances then differ little, so the product re-indexes a little).
 */
export function selectInstances(repo: string, commits: LoggedCommit[], perRepo: number): MultifileInstance[] {
  const name = repo.slice(repo.indexOf("/") + 1);
  return commits
    .filter((c) => rejectReason(c) === null)
    .sort((a, b) => b.date.localeCompare(a.date))
    .slice(0, perRepo)
    .reverse()
    .map((c) => ({
      instance_id: `${name}-${c.sha.slice(0, 10)}`,
      repo,
      commit: c.sha,
      base_commit: c.parents[0],
      date: c.date,
      problem_statement: queryFromMessage(c.message),
      gold_files: c.changes
        .filter((ch) => isSourcePath(ch.path))
        .map((ch) => ch.path)
        .sort(),
    }));
}

/** Record and field separators of the `git log` format `parseGitLog` reads. */
export const LOG_FORMAT = "%x1e%H%x1f%P%x1f%an <%ae>%x1f%aI%x1f%B%x1f";

/** Parses `git log --no-renames --name-status --format=<LOG_FORMAT>` output. */
export function parseGitLog(text: string): LoggedCommit[] {
  return text
    .split("\x1e")
    .filter((r) => r.trim())
    .map((record) => {
      const [sha, parents, author, date, message, files = ""] = record.split("\x1f");
      const changes = files
        .split("\n")
        .filter((l) => l.includes("\t"))
        .map((l) => {
          const parts = l.split("\t");
          return { status: parts[0], path: parts[parts.length - 1] };
        });
      return { sha, parents: parents.split(" ").filter(Boolean), author, date, message: message.trim(), changes };
    });
}
