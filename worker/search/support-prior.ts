/**
 * @module worker/search/support-prior
 *
 * A prior against supporting files: the answer to a code search is the project's own source,
 * while changelogs (their entries are past reports, in the same words), issue templates and CI
 * files under `.github/`, documentation trees, examples, demos and benchmarks repeat its API
 * names in small, dense files (`examples/pairgrid_dotplot.py`, `bench/skip.py`,
 * `asv_bench/benchmarks/dataset_io.py`, a `CHANGELOG.md` entry) and so rank high lexically;
 * third-party files copied in by name (`static/jquery-3.5.1.js`, worker/search/vendored.ts) hold
 * every common word of a report.
 * A bug report demotes them all; a question spares the kinds it asks for by name ("which
 * example shows ...", "the CI workflow that ..."). The same reasoning as the prose prior of
 * rerank.ts, applied by path instead of language. Pure.
 */
import { LRUCache } from "lru-cache";
import { applyPrior } from "./prior";
import { SUPPORT_PRIOR } from "./ranking/weights";
import { PROSE_LANGUAGES } from "./rerank";
import { isVendoredFile } from "./vendored";

/** Kinds of supporting file, by what a question would call them. */
export type SupportKind = "docs" | "examples" | "benchmarks" | "changelog" | "ci" | "project" | "vendored";

/** Directory names of each kind, anywhere in the path (first match wins, outermost directory first). */
const SUPPORT_DIRS: ReadonlyArray<readonly [RegExp, SupportKind]> = [
  [/^(?:docs?)$/i, "docs"],
  [/^(?:examples?|demos?|samples?)$/i, "examples"],
  [/^(?:benchmarks?|bench(?:es)?|asv_bench)$/i, "benchmarks"],
  [/^\.github$/i, "ci"],
];

/** Changelog and release-notes file names (`CHANGES`, `CHANGELOG.rst`, `HISTORY.md`, `NEWS`, `CHANGES.old`). */
const CHANGELOG_RE = /(?:^|\/)(?:change(?:s|log)|history|news|release[-_]?notes|whats[-_]?new)(?:\.(?:md|markdown|rst|txt|old))*$/i;

/**
 * The project's own prose about working on it: contributing guides, codes of conduct, security
 * and support policies, maintainer and author lists, issue and pull-request templates. A pasted
 * report shares their boilerplate (how to report a bug, which versions to give), a question
 * rarely wants them unless it says so.
 */
const PROJECT_DOC_RE =
  /(?:^|\/)(?:contributing|code[-_]of[-_]conduct|security|support|governance|maintainers|authors|contributors|issue[-_]template|pull[-_]request[-_]template)(?:\.(?:md|markdown|rst|txt|adoc|ya?ml))?$/i;

/**
 * Words by which a question asks for a kind of supporting file. "for example" / "for instance"
 * are removed first: they introduce an illustration, not a request for examples. Words with
 * everyday code meanings are left out: "doc" (a doc comment), "manual", "sample" (a sample rate),
 * "github" (a GitHub API client).
 */
const ASKED: ReadonlyArray<readonly [RegExp, SupportKind]> = [
  [/\b(?:docs|documentation|documented|readme|guides?|tutorials?)\b/i, "docs"],
  [/\b(?:examples?|demos?)\b/i, "examples"],
  [/\b(?:bench|benches|benchmarks?|benchmarking)\b/i, "benchmarks"],
  [/\b(?:changelogs?|release[- ]notes?)\b/i, "changelog"],
  [/\b(?:ci|workflows?|github actions?|issue[- ]templates?)\b/i, "ci"],
  [/\b(?:vendored|third[- ]party)\b/i, "vendored"],
  [
    /\b(?:contributing|contribution guide|contributors?|code of conduct|security policy|maintainers|issue[- ]templates?|pull[- ]request templates?)\b/i,
    "project",
  ],
];

/** supportKind by path, per isolate: a pure function of the path, asked for every candidate of every search (a profiled 0.1 ms a search). */
const kindByPath = new LRUCache<string, { kind: SupportKind | null }>({ max: 20_000 });

/** The kind of supporting file `path` is (a vendored library file, a changelog, project prose, or under a docs, examples, benchmarks or `.github` directory), or null for source. */
export function supportKind(path: string): SupportKind | null {
  const known = kindByPath.get(path);
  if (known) return known.kind;
  const kind = pathKind(path);
  kindByPath.set(path, { kind });
  return kind;
}

function pathKind(path: string): SupportKind | null {
  if (isVendoredFile(path)) return "vendored";
  if (CHANGELOG_RE.test(path)) return "changelog";
  if (PROJECT_DOC_RE.test(path)) return "project";
  for (const dir of path.split("/").slice(0, -1)) {
    for (const [re, kind] of SUPPORT_DIRS) if (re.test(dir)) return kind;
  }
  return null;
}

/** The kinds of supporting file a question names (`"Which example shows ..."` -> examples). */
export function askedSupportKinds(question: string): Set<SupportKind> {
  const text = question.replace(/\bfor (?:example|instance)\b/gi, " ");
  return new Set(ASKED.filter(([re]) => re.test(text)).map(([, kind]) => kind));
}

/**
 * Multiplies the score of candidates in supporting files by SUPPORT_PRIOR, except those of a
 * kind in `spared`, and re-sorts, best first (ties: input order). With `codeInDocs`, source code
 * in a docs directory is not demoted (a package named `doc`: cobra's man-page generator, Go's
 * `go/doc`), only its prose is; a candidate without a `language` counts as code. Returns a new
 * array.
 */
export function applySupportPrior<T extends { score: number; path: string; language?: string | null }>(
  candidates: T[],
  spared: ReadonlySet<SupportKind> = new Set(),
  codeInDocs = false,
): T[] {
  return applyPrior(candidates, (c) => {
    const kind = supportKind(c.path);
    if (kind === null || spared.has(kind)) return 1;
    if (codeInDocs && kind === "docs" && !(c.language && PROSE_LANGUAGES.has(c.language))) return 1;
    return SUPPORT_PRIOR;
  });
}
